import Glibc

/// An `errno` value, captured the moment the call that set it returned.
///
/// Every failure GPSSystem's calls report, except "not now" (`IOResult.wouldBlock`) and an
/// interruption (retried inside). Named cases for the values callers decide on; the rest
/// keep their number and read as the C library's message.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `errno` number.
    public let rawValue: Int32

    /// The error numbered `rawValue`.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// A signal arrived during the call. The corresponding C constant is `EINTR`.
    public static let interrupted = SystemError(rawValue: EINTR)
    /// Nothing to read now on a non-blocking descriptor. The corresponding C constant is `EAGAIN`.
    public static let wouldBlock = SystemError(rawValue: EAGAIN)
    /// The device failed or went away under an open descriptor. The corresponding C constant is `EIO`.
    public static let ioError = SystemError(rawValue: EIO)
    /// The device behind a node is gone. The corresponding C constant is `ENODEV`.
    public static let noSuchDevice = SystemError(rawValue: ENODEV)
    /// A node with no device behind it. The corresponding C constant is `ENXIO`.
    public static let noSuchDeviceOrAddress = SystemError(rawValue: ENXIO)
    /// No such file. The corresponding C constant is `ENOENT`.
    public static let noSuchFile = SystemError(rawValue: ENOENT)
    /// A path component is not a directory. The corresponding C constant is `ENOTDIR`.
    public static let notADirectory = SystemError(rawValue: ENOTDIR)
    /// Held by someone else. The corresponding C constant is `EBUSY`.
    public static let busy = SystemError(rawValue: EBUSY)
    /// The mode bits refuse us. The corresponding C constant is `EACCES`.
    public static let permissionDenied = SystemError(rawValue: EACCES)
    /// Not allowed at all. The corresponding C constant is `EPERM`.
    public static let notPermitted = SystemError(rawValue: EPERM)
    /// Not a terminal, so no termios. The corresponding C constant is `ENOTTY`.
    public static let notATerminal = SystemError(rawValue: ENOTTY)

    /// The reader of a pipe or socket went away. The corresponding C constant is `EPIPE`.
    public static let brokenPipe = SystemError(rawValue: EPIPE)
    /// Something is already there by that name. The corresponding C constant is `EEXIST`.
    public static let fileExists = SystemError(rawValue: EEXIST)
    /// The disk is full. The corresponding C constant is `ENOSPC`.
    public static let noSpace = SystemError(rawValue: ENOSPC)
    /// Over the disk quota. The corresponding C constant is `EDQUOT`.
    public static let quotaExceeded = SystemError(rawValue: EDQUOT)
    /// The file has reached the largest size allowed. The corresponding C constant is `EFBIG`.
    public static let fileTooLarge = SystemError(rawValue: EFBIG)
    /// Not an open descriptor. The corresponding C constant is `EBADF`.
    public static let badDescriptor = SystemError(rawValue: EBADF)
    /// Given up: the process is exiting. The corresponding C constant is `ECANCELED`.
    public static let canceled = SystemError(rawValue: ECANCELED)
    /// A directory where a file was wanted. The corresponding C constant is `EISDIR`.
    public static let isADirectory = SystemError(rawValue: EISDIR)

    /// `errno` now: for a C library outside GPSSystem (libmosquitto) that says "see errno".
    /// Read it straight after the call that failed; anything in between may change it.
    public static var current: SystemError { SystemError(rawValue: errno) }

    /// The C library's words for it: "No such file or directory".
    public var description: String { String(cString: strerror(rawValue)) }
}

/// Makes a system call, again for as long as a signal interrupts it, and turns a failure into
/// a thrown `SystemError`.
///
/// The one place the sources talk to the kernel through: `errno` is read immediately
/// after the failing call (anything in between, even an allocation, may change it), and
/// `EINTR` never reaches a caller. Calls that report failure as -1 only.
public func retryingInterrupts<Result: FixedWidthInteger>(_ call: () -> Result) throws(SystemError) -> Result {
    while true {
        let result = call()
        if result != -1 { return result }
        let code = errno
        if code == EINTR { continue }
        throw SystemError(rawValue: code)
    }
}
