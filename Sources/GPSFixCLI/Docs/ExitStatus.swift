/// What an exit status means for one command: a row of its help's and the man page's
/// EXIT STATUS, kept beside the command so the two cannot disagree.
struct ExitStatus: Sendable {
    /// The statuses this row explains (129, 130 and 143 share one).
    let codes: [Int32]
    let meaning: String

    init(_ codes: Int32..., meaning: String) {
        self.codes = codes
        self.meaning = meaning
    }

    /// Every command's: how it was called was wrong (`GPSFixCLI.execute` maps `UsageError`).
    static let usage = ExitStatus(64, meaning: "Usage error: an unknown or repeated option, a malformed value, or options that contradict each other. The message says which, and the usage follows.")

    /// A command that SIGINT, SIGTERM or SIGHUP stopped before it could do its job (`Interrupted`).
    static func interrupted(before what: String) -> ExitStatus {
        ExitStatus(129, 130, 143, meaning: "SIGHUP (129), Ctrl-C (130) or SIGTERM (143) came before \(what), as a shell reports a process a signal ended: 128 + the signal's number.")
    }

    /// The overview's: what the statuses mean whatever the command.
    static let general: [ExitStatus] = [
        ExitStatus(0, meaning: "Success."),
        ExitStatus(1, meaning: "Failure: no fix, a source that could not be read, a file that could not be written. The message says what happened and what to try."),
        usage,
        ExitStatus(129, 130, 143, meaning: "fix or devices was stopped by SIGHUP (129), Ctrl-C (130) or SIGTERM (143) before it could finish. watch, record and serve end cleanly on any of them and exit 0."),
    ]
}
