// Public: the inlinable calls below are made where they are called, so a typed descriptor
// costs what the C call costs.
public import Glibc

/// What a descriptor is ready for, or what happened to it.
public struct Readiness: OptionSet, Sendable, Hashable {
    /// The `POLL` bits.
    public let rawValue: Int16
    /// The readiness of the `POLL` bits `rawValue`.
    @inlinable public init(rawValue: Int16) { self.rawValue = rawValue }

    /// Something to read, or a connection to accept, or the peer's end (a read tells which).
    public static let readable = Readiness(rawValue: Int16(POLLIN))
    /// Room to write.
    public static let writable = Readiness(rawValue: Int16(POLLOUT))
    /// The peer hung up (reported whatever was asked).
    public static let hangUp = Readiness(rawValue: Int16(POLLHUP))
    /// The descriptor failed (reported whatever was asked).
    public static let error = Readiness(rawValue: Int16(POLLERR))
    /// Not an open descriptor.
    public static let invalid = Readiness(rawValue: Int16(POLLNVAL))

    /// Readable, or gone: what a reader must read to find out which.
    public static let readableOrGone: Readiness = [.readable, .hangUp, .error]
}

/// A set of descriptors waited on together in one `poll`: a source's input beside its
/// run's `Wakeup`, or a server's listeners and clients. Kept and refilled each round, so a
/// loop allocates nothing once it has grown to its clients' number.
public struct PollSet {
    @usableFromInline var entries: [pollfd] = []

    /// An empty set.
    @inlinable
    public init() {}

    /// Empties it, keeping its storage.
    @inlinable
    public mutating func removeAll() { entries.removeAll(keepingCapacity: true) }

    /// Adds `descriptor`, asking for `interest`, and returns its index for `ready(at:)`. A nil
    /// descriptor holds the place (poll skips it), so the indices after it stay put.
    @inlinable @discardableResult
    public mutating func append(_ descriptor: FileDescriptor?, for interest: Readiness) -> Int {
        entries.append(pollfd(fd: descriptor?.rawValue ?? -1, events: interest.rawValue, revents: 0))
        return entries.count - 1
    }

    /// How many places it has (a nil descriptor's among them).
    @inlinable
    public var count: Int { entries.count }

    /// What the last `wait` found for the descriptor at `index`.
    @inlinable
    public func ready(at index: Int) -> Readiness { Readiness(rawValue: entries[index].revents) }

    /// Waits until one is ready or `timeout` (nil: forever) has passed, and returns how many
    /// are. A signal that interrupts the wait is waited out again, for the whole timeout.
    @discardableResult
    public mutating func wait(timeout: Duration?) throws(SystemError) -> Int {
        try wait(milliseconds: timeout.map(Clocks.pollTimeout) ?? -1)
    }

    /// As `wait(timeout:)`, for a loop that keeps its own deadlines in monotonic seconds.
    @discardableResult
    public mutating func wait(seconds: Double) throws(SystemError) -> Int {
        try wait(milliseconds: Clocks.pollTimeout(seconds))
    }

    mutating func wait(milliseconds: Int32) throws(SystemError) -> Int {
        let count = nfds_t(entries.count)
        return Int(try entries.withUnsafeMutableBufferPointer { buffer in
            Result { () throws(SystemError) in try retryingInterrupts { Glibc.poll(buffer.baseAddress, count, milliseconds) } }
        }.get())
    }
}

extension FileDescriptor {
    /// What a wait on one descriptor beside a `Wakeup` ended with.
    public enum Wait: Equatable, Sendable {
        /// The descriptor is ready for what was asked (or gone: the next call says).
        case ready
        /// The wake-up was signalled (a stop).
        case woken
        /// Neither, within the time given.
        case timedOut
    }

    /// Waits at most `timeout` (nil: forever) for `interest`, beside `wakeup`; a signalled
    /// wake-up wins over a ready descriptor.
    public func wait(for interest: Readiness, within timeout: Duration?, beside wakeup: Wakeup) throws(SystemError) -> Wait {
        var set = PollSet()
        set.append(self, for: interest)
        set.append(wakeup.descriptor, for: .readable)
        _ = try set.wait(timeout: timeout)
        if !set.ready(at: 1).isEmpty { return .woken }
        return set.ready(at: 0).isEmpty ? .timedOut : .ready
    }
}
