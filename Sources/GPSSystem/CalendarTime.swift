import Glibc

/// An instant broken into the calendar's fields, in UTC or in the zone the system is set to
/// (the C library reads `TZ` and `/etc/localtime`).
public struct CalendarTime: Equatable, Sendable {
    /// The year, e.g. 2026.
    public let year: Int
    /// 1 to 12.
    public let month: Int
    /// 1 to 31.
    public let day: Int
    /// 0 to 23.
    public let hour: Int
    /// 0 to 59.
    public let minute: Int
    /// 0 to 60 (a leap second).
    public let second: Int

    /// `seconds` since 1970 (the wall clock's), in UTC.
    public static func utc(_ seconds: Double) -> CalendarTime {
        var whole = time_t(seconds.rounded(.down))
        var parts = tm()
        gmtime_r(&whole, &parts)
        return CalendarTime(parts)
    }

    /// `seconds` since 1970, in the system's zone.
    public static func local(_ seconds: Double) -> CalendarTime {
        var whole = time_t(seconds.rounded(.down))
        var parts = tm()
        localtime_r(&whole, &parts)
        return CalendarTime(parts)
    }

    private init(_ parts: tm) {
        year = Int(parts.tm_year) + 1900
        month = Int(parts.tm_mon) + 1
        day = Int(parts.tm_mday)
        hour = Int(parts.tm_hour)
        minute = Int(parts.tm_min)
        second = Int(parts.tm_sec)
    }

    /// `2026-11-30 07:10:00`: strftime's "%F %T".
    public var dateAndTime: String { "\(date) \(time)" }

    /// `2026-11-30T07:10:00Z`, for a UTC time.
    public var iso8601UTC: String { "\(date)T\(time)Z" }

    private var date: String { "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))" }
    private var time: String { "\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))" }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
