// Public: the inlinable calls below are made where they are called, so a typed descriptor
// costs what the C call costs.
public import Glibc

/// A descriptor the kernel gave: a file, a device, a pipe or a socket.
///
/// A value, not an owner: it never closes itself. Whoever opened it (a `TCPListener`, a
/// `TCPConnection`, a serial port's stream, an output file) owns it and calls `close()` once,
/// usually from its `deinit`; everyone else only borrows it. Every call made through it
/// retries when a signal interrupts it (`EINTR` never reaches a caller), returns "not now"
/// (`EAGAIN`) as `IOResult.wouldBlock`, and throws any other failure as `SystemError`.
/// The model is swift-system's `FileDescriptor`; it is inlined, so it costs what the C
/// call costs.
@frozen
public struct FileDescriptor: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The kernel's number for it.
    public let rawValue: Int32

    /// The descriptor numbered `rawValue`, borrowed: making one opens nothing and owns nothing.
    @inlinable
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Standard input, output and error: borrowed from the process, never closed here.
    public static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
    /// Standard output (1).
    public static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    /// Standard error (2).
    public static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    /// "descriptor 5", for messages.
    public var description: String { "descriptor \(rawValue)" }

    /// How a file is opened.
    public struct AccessMode: RawRepresentable, Sendable, Hashable {
        /// The `O_` bits.
        public let rawValue: Int32
        /// The mode of the `O_` bits `rawValue`.
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// Reading only. The corresponding C constant is `O_RDONLY`.
        public static let readOnly = AccessMode(rawValue: O_RDONLY)
        /// Writing only. The corresponding C constant is `O_WRONLY`.
        public static let writeOnly = AccessMode(rawValue: O_WRONLY)
        /// Both (a tty is configured so, even when only read). The corresponding C constant is `O_RDWR`.
        public static let readWrite = AccessMode(rawValue: O_RDWR)
    }

    /// What else `open` does. Close-on-exec is always added: no child process inherits a
    /// port, a capture or a socket of ours.
    public struct OpenOptions: OptionSet, Sendable, Hashable {
        /// The `O_` bits.
        public let rawValue: Int32
        /// The options of the `O_` bits `rawValue`.
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// Neither `open` (a tty waiting for carrier) nor reads and writes wait. The corresponding C constant is `O_NONBLOCK`.
        public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        /// A terminal opened this way does not become the process's controlling terminal.
        public static let noControllingTerminal = OpenOptions(rawValue: O_NOCTTY)
        /// Makes the file if it is not there. The corresponding C constant is `O_CREAT`.
        public static let create = OpenOptions(rawValue: O_CREAT)
        /// Empties a file that is there. The corresponding C constant is `O_TRUNC`.
        public static let truncate = OpenOptions(rawValue: O_TRUNC)
        /// Every write goes to the end. The corresponding C constant is `O_APPEND`.
        public static let append = OpenOptions(rawValue: O_APPEND)
        /// With `create`: fails if the path exists.
        public static let exclusiveCreate = OpenOptions(rawValue: O_EXCL)
        /// Fails unless it is a directory. The corresponding C constant is `O_DIRECTORY`.
        public static let directory = OpenOptions(rawValue: O_DIRECTORY)
        /// Fails on a symbolic link rather than follow it. The corresponding C constant is `O_NOFOLLOW`.
        public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
    }

    /// Opens `path`. The caller owns the descriptor and closes it. `permissions` (e.g.
    /// `0o644`) apply to a file `create` makes.
    public static func open(_ path: String, _ mode: AccessMode, options: OpenOptions = [],
                            permissions: UInt32 = 0o644) throws(SystemError) -> FileDescriptor {
        let flags = mode.rawValue | options.rawValue | O_CLOEXEC
        return FileDescriptor(rawValue: try retryingInterrupts { Glibc.open(path, flags, permissions) })
    }

    /// Reads what there is, up to `buffer.count` bytes: 0 at the end (or the peer's close).
    @inlinable @inline(__always)
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> IOResult<Int> {
        let fd = rawValue
        return try nonBlocking { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// Writes what the descriptor takes now, up to all of `bytes`: the count written.
    @inlinable @inline(__always)
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) -> IOResult<Int> {
        let fd = rawValue
        return try nonBlocking { Glibc.write(fd, bytes.baseAddress, bytes.count) }
    }

    /// Writes all of `bytes` to a blocking descriptor (a file, a terminal), however many
    /// calls it takes. On a non-blocking one that fills up, throws `SystemError.wouldBlock`.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            guard case .processed(let wrote) = try write(rest) else { throw .wouldBlock }
            offset += wrote
        }
    }

    /// Writes all of `bytes`; see `writeAll(_:)` for a raw buffer.
    public func writeAll(_ bytes: some Sequence<UInt8>) throws(SystemError) {
        let array = Array(bytes)
        try array.withUnsafeBytes { raw in Result { () throws(SystemError) in try writeAll(raw) } }.get()
    }

    /// Closes it. Not retried on `EINTR`: Linux has released the descriptor by then, and a
    /// second close could close another thread's new one. What close reports is not acted on.
    public func close() {
        _ = Glibc.close(rawValue)
    }

    /// Makes reads and writes return `.wouldBlock` rather than wait.
    public func setNonBlocking(_ on: Bool = true) throws(SystemError) {
        let fd = rawValue
        let flags = try retryingInterrupts { fcntl(fd, F_GETFL) }
        let wanted = on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
        guard wanted != flags else { return }
        _ = try retryingInterrupts { fcntl(fd, F_SETFL, wanted) }
    }

    /// Keeps it from any program this process starts.
    public func setCloseOnExec() throws(SystemError) {
        let fd = rawValue
        let flags = try retryingInterrupts { fcntl(fd, F_GETFD) }
        _ = try retryingInterrupts { fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
    }

    /// A second descriptor for the same file, close-on-exec, owned by the caller.
    public func duplicate() throws(SystemError) -> FileDescriptor {
        let fd = rawValue
        return FileDescriptor(rawValue: try retryingInterrupts { fcntl(fd, F_DUPFD_CLOEXEC, 0) })
    }

    /// Whether it is a terminal (standard output on a screen rather than a pipe or a file).
    public var isTerminal: Bool { isatty(rawValue) == 1 }

    /// The size of the terminal it is, in characters; nil when it is no terminal or says none.
    public var terminalSize: (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(rawValue, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Whether the number is open in this process.
    public var isOpen: Bool { fcntl(rawValue, F_GETFD) != -1 || errno != EBADF }

    /// Puts /dev/null, opened read-only, on each of standard input, output and error that is
    /// closed (`gpsfix >&-`). Left closed, its number would go to the next file opened (a
    /// capture, a recording), and what was meant for standard output would be written into
    /// that file. Read-only, writes to it still fail with EBADF, as they would have.
    public static func occupyClosedStandardDescriptors() {
        // In order: open(2) takes the lowest free number, so each lands where it is missing.
        for fd in [standardInput, standardOutput, standardError] where !fd.isOpen {
            let null = Glibc.open("/dev/null", O_RDONLY)
            if null >= 0 && null != fd.rawValue {
                dup2(null, fd.rawValue)
                Glibc.close(null)
            }
        }
    }
}

/// Makes a call that returns -1 on failure, retried on `EINTR`, with `EAGAIN` as `.wouldBlock`:
/// GPSSystem's one rule for non-blocking calls.
@inlinable @inline(__always)
func nonBlocking<Result: FixedWidthInteger>(_ call: () -> Result) throws(SystemError) -> IOResult<Result> {
    while true {
        let result = call()
        if result != -1 { return .processed(result) }
        let code = errno
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
        throw SystemError(rawValue: code)
    }
}
