import GPSSystem

/// A command that SIGINT, SIGTERM or SIGHUP stopped before it could do its job (`fix` before a
/// fix came). Exits as a shell reports a process a signal ended, 128 + the signal's number (130
/// for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP), so that a script can tell an interruption from
/// a failure. (The handlers themselves are GPSSystem's `Interrupts`.)
struct Interrupted: Error {
    let signal: Int32
    /// What had not happened yet, for the message: "a fix arrived".
    let before: String

    var status: Int32 { 128 + signal }

    var message: String {
        let name = switch signal {
        case Signal.interrupt.rawValue: "Ctrl-C"
        case Signal.terminate.rawValue: "SIGTERM"
        case Signal.hangUp.rawValue: "SIGHUP"
        default: "signal \(signal)"
        }
        return "Interrupted (\(name)) before \(before)."
    }
}
