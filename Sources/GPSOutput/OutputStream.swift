public import GPSSystem
public import GPSLocation
import Synchronization

/// Buffered writes to a file descriptor (stdout by default), flushed when the buffer fills
/// or on request: one `write` per many reports, not one per line.
public final class GPSOutputStream {
    /// The descriptor written to (standard output by default): borrowed, never closed here;
    /// whoever opened it closes it, after the last ``flush()``.
    public let descriptor: FileDescriptor
    /// What `descriptor` is, for a failure to name.
    public let destination: WriteFailure.Destination
    /// What is written and not yet flushed: append to it, then ``commit(flushNow:)`` (or use
    /// ``report(flushNow:_:)``). It starts with room for 64 KiB and grows with a report larger
    /// than what is left.
    public var writer = ByteWriter(capacity: 1 << 16)
    private let threshold: Int
    /// The first write that failed. Nothing is written after it: what would follow is the rest
    /// of a report already cut short, and a reader that went away, or a full disk, stays so.
    public private(set) var failure: WriteFailure? {
        didSet { hasFailed.store(failure != nil, ordering: .relaxed) }
    }
    /// `failure != nil`, asked after every report: as a flag that is not a stored variable of
    /// the class, reading it needs no run-time check for overlapping access.
    private let hasFailed = Atomic(false)

    /// Whether a write failed (see `failure` for which and why).
    public var failed: Bool { hasFailed.load(ordering: .relaxed) }

    /// A stream to `descriptor`, named `destination` in a failure, that writes once `threshold`
    /// bytes (32 KiB) are waiting. Not thread-safe: one thread, or one lock, writes to it.
    public init(descriptor: FileDescriptor = .standardOutput, destination: WriteFailure.Destination = .standardOutput,
                threshold: Int = 1 << 15) {
        self.descriptor = descriptor
        self.destination = destination
        self.threshold = threshold
    }

    /// Flushes if the buffer is large enough; call after each report.
    public func commit(flushNow: Bool = false) {
        if flushNow || writer.count >= threshold { flush() }
    }

    /// Appends what `body` writes, then commits it (`commit`), and returns what `body` did
    /// (how many lines): the buffer is reached once per report rather than once to write and
    /// again to measure, each reach checked at run time for overlapping access.
    public func report(flushNow: Bool = false, _ body: (inout ByteWriter) -> Int) -> Int {
        var full = false
        let threshold = threshold
        let result = Self.appending(to: &writer) { w in
            let result = body(&w)
            full = w.count >= threshold
            return result
        }
        if flushNow || full { flush() }
        return result
    }

    private static func appending(to writer: inout ByteWriter, _ body: (inout ByteWriter) -> Int) -> Int {
        body(&writer)
    }

    /// Writes everything waiting, whole (a short write is continued, EINTR retried), blocking
    /// until it is taken, and empties ``writer``. After a failed write (``failure``) nothing
    /// more is written: what waits is dropped.
    public func flush() {
        guard !writer.isEmpty else { return }
        let descriptor = descriptor
        let code = writer.withUnsafeBytes { raw -> Int32? in
            guard failure == nil else { return nil }
            do throws(SystemError) {
                try descriptor.writeAll(raw)
                return nil
            } catch {
                return error.rawValue
            }
        }
        if let code { failure = WriteFailure(destination, code: code) }
        writer.removeAll()
    }
}
