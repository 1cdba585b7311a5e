import Glibc

/// A self-pipe: a descriptor a reader polls beside its input (a port, a pipe, sockets), so
/// that a stop from any thread wakes it at once (the C library here offers no eventfd to Swift).
/// It owns both ends and closes them when released.
public final class Wakeup: Sendable {
    /// The end the reader polls for `.readable`.
    public let descriptor: FileDescriptor
    private let writeEnd: FileDescriptor

    /// Nil when the process is out of descriptors.
    public init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        descriptor = FileDescriptor(rawValue: ends[0])
        writeEnd = FileDescriptor(rawValue: ends[1])
        for end in [descriptor, writeEnd] {
            try? end.setCloseOnExec()
            try? end.setNonBlocking()
        }
    }

    deinit {
        descriptor.close()
        writeEnd.close()
    }

    /// Makes the read end readable. Safe from any thread, any number of times (a full pipe is
    /// still readable, so `.wouldBlock` is fine).
    public func signal() {
        var byte: UInt8 = 1
        _ = try? withUnsafeBytes(of: &byte) { raw throws(SystemError) in try writeEnd.write(raw) }
    }

    /// Sleeps `duration`, or less if signalled; true when signalled. A paced replay waits
    /// here, so the stop that wakes a blocked read also cuts a wait short.
    public func sleep(_ duration: Duration) -> Bool {
        var set = PollSet()
        set.append(descriptor, for: .readable)
        let deadline = Clocks.monotonicSeconds + duration.inSeconds
        while true {
            let left = deadline - Clocks.monotonicSeconds
            if left <= 0 { return false }
            guard let woke = try? set.wait(seconds: left) else { return false }
            if woke > 0 { return true }
        }
    }

    /// Empties the pipe, for a reader that is woken many times (a serving loop), not once.
    public func drain() {
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while true {
            let result = try? withUnsafeMutableBytes(of: &buffer) { raw throws(SystemError) in try descriptor.read(into: raw) }
            guard case .processed(let count)? = result, count > 0 else { return }
        }
    }
}
