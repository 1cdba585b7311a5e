import Glibc

/// A moment on the system's wall clock (CLOCK_REALTIME) to the nanosecond: what a kernel PPS
/// edge or a modem line's change is stamped with. A `Double` of Unix seconds keeps only about
/// a quarter of a microsecond today, too coarse for a pulse that is good to one.
public struct WallTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Whole seconds since 1970, UTC.
    public let seconds: Int64
    /// 0 to 999,999,999.
    public let nanoseconds: Int32

    /// `seconds` and `nanoseconds`; a `nanoseconds` outside 0…999,999,999 is carried into the
    /// seconds, so any pair a peer gives makes a valid time.
    public init(seconds: Int64, nanoseconds: Int64) {
        let carry = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        var whole = seconds.addingReportingOverflow(carry.quotient).partialValue
        var fraction = carry.remainder
        if fraction < 0 {
            fraction += 1_000_000_000
            whole = whole.subtractingReportingOverflow(1).partialValue
        }
        self.seconds = whole
        self.nanoseconds = Int32(fraction)
    }

    /// Unix seconds as a `Double` (to its quarter of a microsecond); one that is not finite
    /// or beyond ±10¹⁵ s is the epoch, as no clock gives it.
    public init(unixSeconds: Double) {
        guard unixSeconds.isFinite, abs(unixSeconds) < 1e15 else {
            self.init(seconds: 0, nanoseconds: 0)
            return
        }
        let whole = unixSeconds.rounded(.down)
        self.init(seconds: Int64(whole), nanoseconds: Int64(((unixSeconds - whole) * 1e9).rounded()))
    }

    /// The wall clock now.
    public static var now: WallTime {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return WallTime(seconds: Int64(time.tv_sec), nanoseconds: Int64(time.tv_nsec))
    }

    /// Unix seconds, as a `Double` (a quarter of a microsecond's resolution today).
    public var unixSeconds: Double { Double(seconds) + Double(nanoseconds) / 1e9 }

    /// `self - other` in seconds, exact to the nanosecond for spans up to months (the whole
    /// seconds and the nanoseconds are subtracted apart before they meet in a `Double`).
    public func seconds(since other: WallTime) -> Double {
        Double(seconds &- other.seconds) + Double(nanoseconds - other.nanoseconds) / 1e9
    }

    /// `self` moved by `seconds` (which may be negative), to the nanosecond.
    public func adding(seconds span: Double) -> WallTime {
        guard span.isFinite, abs(span) < 1e15 else { return self }
        let whole = span.rounded(.down)
        return WallTime(seconds: seconds &+ Int64(whole), nanoseconds: Int64(nanoseconds) + Int64(((span - whole) * 1e9).rounded()))
    }

    public static func < (lhs: WallTime, rhs: WallTime) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    /// "1764712345.000250000".
    public var description: String {
        let fraction = String(nanoseconds)
        return "\(seconds)." + String(repeating: "0", count: 9 - fraction.count) + fraction
    }
}
