import GPSSystem

/// A write that did not happen: what was being written to, and the system's reason for
/// refusing it. A fact, kept whole (the errno, not a sentence made of it), so that whoever
/// shows it can tell a reader that went away from a full disk and say what to do.
public struct WriteFailure: Error, Hashable, Codable, Sendable, CustomStringConvertible {
    /// Where the bytes were going.
    public enum Destination: Hashable, Codable, Sendable {
        /// The process's standard output: a terminal, a pipe (`gpsfix watch | head`), a file
        /// the shell redirected to.
        case standardOutput
        /// A file gpsfix opened itself: a capture, a track, a log.
        case file(path: String)
    }

    /// What was being written to when the write failed.
    public let destination: Destination
    /// The errno of the failed write(2): ENOSPC, EIO, EPIPE, EFBIG, EBADF …
    public let code: Int32

    /// A failure as the writer saw it: where it wrote, and the errno write(2) returned.
    public init(_ destination: Destination, code: Int32) {
        self.destination = destination
        self.code = code
    }

    /// The reader of a pipe went away (`gpsfix watch | head -1`): the one write failure that
    /// is the reader's choice, not something going wrong.
    public var readerWentAway: Bool { code == SystemError.brokenPipe.rawValue }

    /// The system's words for `code`, as strerror(3) gives them.
    public var reason: String { SystemError(rawValue: code).description }

    /// "cannot write to standard output: No space left on device"
    public var description: String {
        switch destination {
        case .standardOutput: "cannot write to standard output: \(reason)"
        case .file(let path): "cannot write to \(path): \(reason)"
        }
    }
}
