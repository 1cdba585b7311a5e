import Glibc

/// A self-pipe: a descriptor a reader polls beside its input (a port, a pipe, sockets), so
/// that a stop from any thread wakes it at once (the C library here offers no eventfd to Swift).
public final class Wakeup: Sendable {
    /// The end the reader polls for POLLIN.
    public let descriptor: Int32
    private let writeEnd: Int32

    /// Nil when the process is out of descriptors.
    public init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    /// Makes the read end readable. Safe from any thread, any number of times (a full pipe is
    /// still readable, so EAGAIN is fine).
    public func signal() {
        var byte: UInt8 = 1
        _ = try? retryingInterrupts { write(writeEnd, &byte, 1) }
    }

    /// Sleeps `seconds`, or less if signalled; true when signalled. A paced replay waits
    /// here, so the stop that wakes a blocked read also cuts a wait short.
    public func sleep(_ seconds: Double) -> Bool {
        var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        let deadline = Clocks.monotonicSeconds + seconds
        while true {
            let left = deadline - Clocks.monotonicSeconds
            if left <= 0 { return false }
            guard let woke = try? retryingInterrupts({ poll(&fds, 1, Clocks.pollTimeout(left)) }) else { return false }
            if woke > 0 { return true }
        }
    }

    /// Empties the pipe, for a reader that is woken many times (a serving loop), not once.
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(descriptor, &buffer, buffer.count) > 0 {}
    }
}
