public import NMEA
import GPSSystem

/// One measurement of the system clock against a receiver: the receiver's time of an epoch,
/// and the system time at which that epoch's first byte was read.
///
/// Taken only from an epoch with a fix (2D or better), a date and a time, and read by a live
/// source: a receiver without a fix may be telling its battery-backed clock's guess (wrong by
/// seconds after a cold start, or by 1024 weeks), and a replay's reading time says nothing.
/// gpsd, too, feeds NTP only from fixes.
public struct TimeSample: Equatable, Sendable {
    /// The receiver's time of the epoch, plus the correction for its output delay: the true
    /// time at `arrival`, as far as the receiver knows. Unix seconds.
    public let trueTime: Double
    /// System time (Unix seconds) when the epoch's first byte was read.
    public let arrival: Double

    /// A sample as measured elsewhere (tests, a source that is not a `Fix`): both Unix seconds.
    public init(trueTime: Double, arrival: Double) {
        self.trueTime = trueTime
        self.arrival = arrival
    }

    /// The sample `fix` gives, with `delay` (a receiver's fixed delay between its epoch and
    /// its first byte) added to its time; nil when it gives none (see above).
    public init?(_ fix: Fix, delay: Duration = .zero) {
        guard fix.hasFix, !fix.isPartialEpoch, let arrival = fix.arrival,
              let milliseconds = fix.timestamp?.millisecondsSinceEpoch else { return nil }
        self.init(trueTime: Double(milliseconds) / 1000 + delay.inSeconds, arrival: arrival)
    }

    /// True time minus system time, seconds: negative when the system clock is ahead.
    public var offset: Double { trueTime - arrival }
}
