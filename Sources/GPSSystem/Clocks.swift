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

    private static func seconds(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
