import Glibc

/// Buffered writes to a file descriptor (stdout by default), flushed when the buffer fills
/// or on request: one `write` per many reports, not one per line.
public final class GPSOutputStream {
    public let fd: Int32
    public var writer = ByteWriter(capacity: 1 << 16)
    private let threshold: Int
    /// Set when a write failed (EPIPE: the reader went away).
    public private(set) var failed = false

    public init(fd: Int32 = 1, threshold: Int = 1 << 15) {
        self.fd = fd
        self.threshold = threshold
    }

    /// Flushes if the buffer is large enough; call after each report.
    public func commit(flushNow: Bool = false) {
        if flushNow || writer.count >= threshold { flush() }
    }

    public func flush() {
        guard !writer.isEmpty else { return }
        writer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count && !failed {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failed = true
                } else {
                    offset += n
                }
            }
        }
        writer.removeAll()
    }
}
