/// A UTC time of day, to the millisecond, as a receiver reports it.
///
/// Values from 86_400_000 up are the leap second 23:59:60, kept as such rather than folded
/// into the next day.
public struct TimeOfDay: Hashable, Codable, Comparable, Sendable {
    /// Milliseconds since midnight UTC, 0 up to 86_400_999 (the end of a leap second,
    /// 23:59:60.999).
    public var milliseconds: Int

    /// A time of day from milliseconds since midnight, as stated: not checked (a decoder
    /// refuses what is no time of day).
    public init(milliseconds: Int) { self.milliseconds = milliseconds }

    /// A time of day from its parts, as stated and not checked: second 60 is the leap second,
    /// `TimeOfDay(hour: 23, minute: 59, second: 60)`.
    public init(hour: Int, minute: Int, second: Int, millisecond: Int = 0) {
        milliseconds = ((hour * 60 + minute) * 60 + second) * 1000 + millisecond
    }

    /// The hour, 0…23 (23 during a leap second).
    public var hour: Int { min(milliseconds / 3_600_000, 23) }
    /// The minute of the hour, 0…59 (59 during a leap second).
    public var minute: Int { milliseconds >= 86_400_000 ? 59 : milliseconds / 60_000 % 60 }
    /// The second of the minute, 0…59, or 60 during a leap second.
    public var second: Int { milliseconds >= 86_400_000 ? 60 + (milliseconds - 86_400_000) / 1000 : milliseconds / 1000 % 60 }
    /// The millisecond of the second, 0…999.
    public var millisecond: Int { milliseconds % 1000 }

    public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { a.milliseconds < b.milliseconds }
}

/// A calendar date in UTC (proleptic Gregorian).
public struct CalendarDate: Hashable, Codable, Comparable, Sendable {
    /// The year, in full (2024, not 24); a received one is 1980…2179 (``Bounds/year``).
    public var year: Int
    /// The month, 1 (January) …12.
    public var month: Int
    /// The day of the month, 1…31 as the month has them.
    public var day: Int

    /// Nil for a date that does not exist (month 13, 30 February, …).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CalendarDate.daysIn(month: month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// NMEA's two-digit years: 80–99 are 1980–1999 (GPS began in 1980), 00–79 are 2000–2079.
    public static func expandTwoDigitYear(_ yy: Int) -> Int { yy >= 80 ? 1900 + yy : 2000 + yy }

    /// Whether `year` has a 29 February: every fourth year, but for centuries not divisible by 400.
    public static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    /// The days `month` (1…12) has in `year`: 28 to 31. A number outside 1…12 is taken as a
    /// 31-day month; callers check the month first.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The day after, across month and year ends: how the engine dates a fix whose time of day
    /// went back past midnight since the last date a sentence stated.
    public var nextDay: CalendarDate {
        var d = self
        d.day += 1
        if d.day > CalendarDate.daysIn(month: d.month, year: d.year) {
            d.day = 1
            d.month += 1
            if d.month > 12 { d.month = 1; d.year += 1 }
        }
        return d
    }

    /// Days since 1970-01-01 (negative before), for time arithmetic without Foundation.
    public var daysSinceEpoch: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public static func < (a: CalendarDate, b: CalendarDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }
}

/// When a fix was taken: always a time of day, and a date when the stream has told one.
public struct FixTime: Hashable, Codable, Sendable {
    /// The UTC date, from RMC or ZDA or carried on from the last one past midnight; nil until
    /// the stream has stated one (a GGA-only receiver never does).
    public var date: CalendarDate?
    /// The UTC time of day of the fix, as the receiver stated it.
    public var time: TimeOfDay

    /// A time as stated, with or without its date.
    public init(date: CalendarDate?, time: TimeOfDay) {
        self.date = date
        self.time = time
    }

    /// Milliseconds since 1970-01-01T00:00:00Z (a leap second counts as the second after
    /// 23:59:59), or nil without a date.
    public var millisecondsSinceEpoch: Int? {
        guard let date else { return nil }
        return date.daysSinceEpoch * 86_400_000 + time.milliseconds
    }
}

// Decoded values are held to what the initialisers allow: a stored date or time may come from
// anyone, and 30 February or a 25th hour would reach every output as it came.
extension TimeOfDay {
    private enum CodingKeys: String, CodingKey { case milliseconds }

    /// Reads `milliseconds`, refusing what is no time of day (23:59:60.999 is the last).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let milliseconds = try container.decode(Int.self, forKey: .milliseconds)
        // Up to the end of a leap second, 23:59:60.999.
        guard (0..<86_401_000).contains(milliseconds) else {
            throw DecodingError.dataCorruptedError(forKey: .milliseconds, in: container,
                                                   debugDescription: "\(milliseconds) ms is not a time of day")
        }
        self.init(milliseconds: milliseconds)
    }
}

extension CalendarDate {
    private enum CodingKeys: String, CodingKey { case year, month, day }

    /// Reads `year`, `month` and `day`, refusing a date that does not exist.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let year = try container.decode(Int.self, forKey: .year)
        let month = try container.decode(Int.self, forKey: .month)
        let day = try container.decode(Int.self, forKey: .day)
        guard let date = CalendarDate(year: year, month: month, day: day) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "\(year)-\(month)-\(day) is not a date"))
        }
        self = date
    }
}
