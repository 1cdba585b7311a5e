import Synchronization

/// The time a paced run waits by: the monotonic clock in use, a `VirtualClock` in tests, so
/// that a test of pacing advances time rather than sleeping through it (SwiftNIO's
/// `EmbeddedEventLoop.advanceTime` is the model).
public protocol WaitClock: Sendable {
    /// Seconds since some fixed moment; only differences mean anything.
    var now: Double { get }
    /// Waits until `duration` has passed on this clock, or less if `wakeup` is signalled; true
    /// when signalled (a stop).
    func sleep(_ duration: Duration, beside wakeup: Wakeup) -> Bool
    /// How long, in real seconds, a `poll` may wait for input before the time due at
    /// `deadline` (on this clock) must be looked at again.
    func pollSeconds(until deadline: Double) -> Double
}

/// The monotonic clock, waited on in `poll` beside the wake-up.
public struct MonotonicClock: WaitClock {
    /// The clock.
    public init() {}

    /// `Clocks.monotonicSeconds`.
    public var now: Double { Clocks.monotonicSeconds }

    /// `Wakeup.sleep`.
    public func sleep(_ duration: Duration, beside wakeup: Wakeup) -> Bool { wakeup.sleep(duration) }

    /// Until the deadline: the poll's timeout is the next thing due.
    public func pollSeconds(until deadline: Double) -> Double { deadline - now }
}

/// A clock that moves only when told to (`advance(by:)`): a wait on it ends when the time
/// it waits for has been reached by advancing, or at once when its wake-up is signalled.
/// Its time is a `Double` of seconds, as the monotonic clock's: a test that must land on a
/// deadline exactly advances by binary fractions (0.25, 0.125), whose sums are exact.
public final class VirtualClock: WaitClock {
    private let state: Mutex<(now: Double, sleepers: Int)>

    /// A clock reading `start`.
    public init(start: Double = 0) { state = Mutex((start, 0)) }

    /// What it reads.
    public var now: Double { state.withLock { $0.now } }

    /// How many waits are in progress: a test advances once the waiter it means is waiting.
    public var sleepers: Int { state.withLock { $0.sleepers } }

    /// Moves the time on by `duration` (nothing if negative); waits that it reaches end.
    public func advance(by duration: Duration) {
        let seconds = duration.inSeconds
        state.withLock { $0.now += max(0, seconds) }
    }

    /// A millisecond while the deadline is ahead (the time may be advanced at any moment),
    /// nothing once it is reached: a reader on this clock looks a thousand times a second.
    public func pollSeconds(until deadline: Double) -> Double { now < deadline ? 0.001 : 0 }

    /// Waits for the time to be advanced past `duration` from now, looking every millisecond
    /// of real time (tests only), or for `wakeup`.
    public func sleep(_ duration: Duration, beside wakeup: Wakeup) -> Bool {
        let seconds = duration.inSeconds
        let deadline = state.withLock { s -> Double in
            s.sleepers += 1
            return s.now + seconds
        }
        defer { state.withLock { $0.sleepers -= 1 } }
        while now < deadline {
            if wakeup.sleep(.milliseconds(1)) { return true }
        }
        return false
    }
}
