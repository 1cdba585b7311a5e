import GPSSystem
import Synchronization

/// Writes a capture in gpsfake's format: the header, then every byte as the receiver sent it.
///
/// Each `write` goes straight to the file with write(2), unbuffered, so whatever has been
/// received is on disk the moment `write` returns: Ctrl-C, SIGTERM or an unplug lose nothing.
/// The descriptor is written from one thread (the source's) and closed once.
public final class CaptureWriter: Sendable {
    /// The file written, as it was named to `init(path:header:overwrite:)`.
    public let path: String
    private let fd: FileDescriptor
    private let closed = Atomic<Bool>(false)
    private let written = Atomic<Int>(0)

    /// The mode a capture or track is created with: it is a location history (where the
    /// receiver was, and when), so for its owner alone, whatever the umask.
    static let mode: UInt32 = 0o600

    /// Creates the file (refusing an existing one unless `overwrite`) and writes `header`. A
    /// regular file overwritten is made `mode` too; a device (`/dev/null`) is left as it is.
    public init(path: String, header: CaptureHeader, overwrite: Bool) throws(LocationError) {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, .writeOnly, options: [.create, overwrite ? .truncate : .exclusiveCreate],
                                         permissions: Self.mode)
        } catch {
            switch error {
            case .fileExists: throw .fileExists(path: path)
            case .permissionDenied, .notPermitted: throw .permissionDenied(path: path, group: nil)
            case .noSuchFile, .notADirectory: throw .fileUnreadable(path: path, reason: "its folder does not exist")
            default: throw .fileUnreadable(path: path, reason: error.description)
            }
        }
        self.path = path
        self.fd = fd
        if overwrite, let status = try? fd.status(), status.kind == .regular, status.permissions & 0o777 != Self.mode {
            try? fd.setPermissions(Self.mode)
        }
        let (_, failure) = Array(header.text.utf8).withUnsafeBytes { Self.writeAll(fd, $0) }
        if let failure {
            fd.close()
            throw .writeFailed(WriteFailure(.file(path: path), code: failure.rawValue))
        }
    }

    deinit { close() }

    /// Bytes of the body written so far (the header not counted).
    public var bytesWritten: Int { written.load(ordering: .relaxed) }

    /// Appends `bytes` to the body, all of them or until the system refuses: called on the
    /// source's thread as each piece arrives. After `close()` it does nothing. Throws
    /// ``LocationError/writeFailed(_:)`` with the errno when the disk is full or the file
    /// cannot grow; what went out before the failure stays in the file and in `bytesWritten`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(LocationError) {
        guard !closed.load(ordering: .acquiring) else { return }
        let (count, failure) = Self.writeAll(fd, bytes)
        // Counted even when the rest failed: the part before a full disk is on it.
        written.add(count, ordering: .relaxed)
        if let failure {
            throw .writeFailed(WriteFailure(.file(path: path), code: failure.rawValue))
        }
    }

    /// Writes everything, retrying short writes: how many bytes went out, and why the write
    /// that failed did, if one did.
    private static func writeAll(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer) -> (count: Int, failure: SystemError?) {
        var offset = 0
        while offset < bytes.count {
            do {
                // A file opened blocking never says "not now"; were it to, it is a failure here.
                guard case .processed(let n) = try fd.write(UnsafeRawBufferPointer(rebasing: bytes[offset...])) else {
                    return (offset, .wouldBlock)
                }
                offset += n
            } catch {
                return (offset, error)
            }
        }
        return (offset, nil)
    }

    /// Closes the file; later writes are ignored.
    public func close() {
        guard closed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        fd.close()
    }
}
