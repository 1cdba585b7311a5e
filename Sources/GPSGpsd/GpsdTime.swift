import NMEA
import GPSLocation

/// Seconds since 1970 (UTC, as gpsd's timespecs are) as the engine's date and time of day.
enum GpsdTime {
    /// To the millisecond, truncated (as a receiver's hhmmss.sss is).
    static func fixTime(seconds: Int, nanoseconds: Int) -> FixTime? {
        // Beyond the years a date may have (`Bounds.year`) a time is no time: and no arithmetic
        // below (or on the date later) can overflow.
        guard seconds >= -62_135_596_800, seconds < 6_626_966_400 else { return nil }
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        guard Bounds.year.contains(year), let date = CalendarDate(year: year, month: month, day: day) else { return nil }
        let milliseconds = secondOfDay * 1000 + max(0, min(nanoseconds / 1_000_000, 999))
        return FixTime(date: date, time: TimeOfDay(milliseconds: milliseconds))
    }

    /// Howard Hinnant's civil_from_days: days since 1970-01-01 to a proleptic Gregorian date.
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097                                              // [0, 146096]
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100) // [0, 365]
        let mp = (5 * dayOfYear + 2) / 153                                            // [0, 11]
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func floorDivide(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
