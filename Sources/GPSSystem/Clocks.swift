import CLinuxTiming
import Glibc

/// The two clocks the sources and outputs read: the wall clock for stamping what people and
/// clients see, the monotonic one for every timeout and interval, which a clock change
/// (NTP stepping, a user setting the date) must not stretch or cut short.
public enum Clocks {
    /// Seconds since 1970, UTC.
    public static var wallSeconds: Double { seconds(CLOCK_REALTIME) }

    /// Seconds since some fixed moment; only differences mean anything.
    public static var monotonicSeconds: Double { seconds(CLOCK_MONOTONIC) }

    /// A poll timeout for `seconds` from now, in milliseconds: rounded up (waking early would
    /// only poll again), never negative, at most an hour.
    public static func pollTimeout(_ seconds: Double) -> Int32 {
        Int32(max(0, min((seconds * 1000).rounded(.up), 3_600_000)))
    }

    /// A poll timeout for `duration` from now, as `pollTimeout(_:)` for seconds.
    public static func pollTimeout(_ duration: Duration) -> Int32 {
        pollTimeout(duration.inSeconds)
    }

    /// Blocks the calling thread for `duration` (a signal does not cut it short). For a
    /// wait a stop must cut short, `Wakeup.sleep`.
    public static func sleep(for duration: Duration) {
        let (whole, attoseconds) = duration.components
        guard whole > 0 || attoseconds > 0 else { return }
        var request = timespec(tv_sec: Int(whole), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    /// Whether the kernel says an NTP daemon keeps the wall clock synchronised (adjtimex's
    /// state); nil when it cannot be read.
    public static var isSynchronised: Bool? {
        switch gpsfix_clock_synchronised() {
        case 1: true
        case 0: false
        default: nil
        }
    }

    private static func seconds(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

extension Duration {
    /// In seconds, as the monotonic clock's readings are kept.
    public var inSeconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
