import Glibc
import Synchronization

/// Writes a capture in gpsfake's format: the header, then every byte as the receiver sent it.
///
/// Each `write` goes straight to the file with write(2), unbuffered, so whatever has been
/// received is on disk the moment `write` returns: Ctrl-C, SIGTERM or an unplug lose nothing.
/// The descriptor is written from one thread (the source's) and closed once.
public final class CaptureWriter: Sendable {
    public let path: String
    private let fd: Int32
    private let closed = Atomic<Bool>(false)
    private let written = Atomic<Int>(0)

    /// The mode a capture or track is created with: it is a location history (where the
    /// receiver was, and when), so for its owner alone, whatever the umask.
    static let mode: mode_t = 0o600

    /// Creates the file (refusing an existing one unless `overwrite`) and writes `header`. A
    /// regular file overwritten is made `mode` too; a device (`/dev/null`) is left as it is.
    public init(path: String, header: CaptureHeader, overwrite: Bool) throws(LocationError) {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL)
        let fd = open(path, flags, Self.mode)
        guard fd >= 0 else {
            let code = errno
            switch code {
            case EEXIST: throw .fileExists(path: path)
            case EACCES, EPERM: throw .permissionDenied(path: path, group: nil)
            case ENOENT, ENOTDIR: throw .fileUnreadable(path: path, reason: "its folder does not exist")
            default: throw .fileUnreadable(path: path, reason: String(cString: strerror(code)))
            }
        }
        self.path = path
        self.fd = fd
        var info = stat()
        if overwrite, fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o777 != Self.mode {
            _ = fchmod(fd, Self.mode)
        }
        let (_, failure) = Array(header.text.utf8).withUnsafeBytes { Self.writeAll(fd, $0) }
        if let failure {
            Glibc.close(fd)
            throw .writeFailed(WriteFailure(.file(path: path), code: failure))
        }
    }

    deinit { close() }

    /// Bytes of the body written so far (the header not counted).
    public var bytesWritten: Int { written.load(ordering: .relaxed) }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(LocationError) {
        guard !closed.load(ordering: .acquiring) else { return }
        let (count, failure) = Self.writeAll(fd, bytes)
        // Counted even when the rest failed: the part before a full disk is on it.
        written.add(count, ordering: .relaxed)
        if let failure {
            throw .writeFailed(WriteFailure(.file(path: path), code: failure))
        }
    }

    /// Writes everything, retrying short writes and EINTR: how many bytes went out, and the
    /// errno of the write that failed, if one did.
    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> (count: Int, failure: Int32?) {
        guard let base = bytes.baseAddress else { return (0, nil) }
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, base + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return (offset, errno)
            }
            offset += n
        }
        return (offset, nil)
    }

    /// Closes the file; later writes are ignored.
    public func close() {
        guard closed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        Glibc.close(fd)
    }
}
