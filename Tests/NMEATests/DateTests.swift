import NMEA
import Testing

private func date(_ y: Int, _ m: Int, _ d: Int) -> CalendarDate { CalendarDate(year: y, month: m, day: d)! }

private let position = "4807.038,N,01131.000,E"

private func rmc(_ time: String, _ ddmmyy: String, valid: Bool = true) -> String {
    valid ? nmea("GPRMC,\(time),A,\(position),0.0,,\(ddmmyy),,,A") : nmea("GPRMC,\(time),V,,,,,,,\(ddmmyy),,,N")
}

private func gga(_ time: String) -> String {
    nmea("GPGGA,\(time),\(position),1,08,0.9,545.4,M,46.9,M,,")
}

@Suite("Dates")
struct DateTests {
    @Test("two-digit years: 80–99 are 19xx, 00–79 are 20xx", arguments: [
        ("80", 1980), ("94", 1994), ("99", 1999), ("00", 2000), ("17", 2017), ("24", 2024), ("79", 2079),
    ])
    func pivot(yy: String, year: Int) {
        // Given an RMC dated 15 June of `yy`
        let fix = events(rmc("120000.00", "1506" + yy)).fixes.first
        // Then the fix is dated 15 June of `year`
        #expect(fix?.timestamp?.date == date(year, 6, 15))
        #expect(CalendarDate.expandTwoDigitYear(Int(yy)!) == year)
    }

    @Test("ZDA gives a four-digit year and is a date source on its own")
    func zda() {
        // Given a receiver sending ZDA and GGA, no RMC, in 2081 (beyond the two-digit pivot)
        let out = events(nmea("GPZDA,120000.00,15,06,2081,00,00") + gga("120000.00"))
        // Then the fix carries the ZDA's date, year 2081 — not 1981
        #expect(out.fixes.first?.timestamp?.date == date(2081, 6, 15))
    }

    @Test("ZDA with a year before GPS existed is no date")
    func zdaBogusYear() {
        // Given a ZDA from an unset clock (1970) with a GGA; Then the fix has a time, no date
        let out = events(nmea("GPZDA,120000.00,01,01,1970,00,00") + gga("120000.00"))
        #expect(out.fixes.first?.timestamp?.date == nil)
        #expect(out.fixes.first?.timestamp?.time == TimeOfDay(hour: 12, minute: 0, second: 0))
    }

    @Test("10 Hz epochs roll into the new day, month and year", arguments: [
        ("311223", date(2024, 1, 1)),   // day, month and year
        ("290224", date(2024, 3, 1)),   // leap day into March
        ("280223", date(2023, 3, 1)),   // no leap day in 2023
        ("300424", date(2024, 5, 1)),   // a 30-day month
        ("150624", date(2024, 6, 16)),  // day only
    ])
    func rolloverWithoutDateSource(ddmmyy: String, next: CalendarDate) {
        // Given RMC+GGA at 23:59:59.8 and .9 on `ddmmyy`, then GGA only (no date) at 10 Hz past midnight
        let input = rmc("235959.80", ddmmyy) + gga("235959.80") + rmc("235959.90", ddmmyy) + gga("235959.90")
            + gga("000000.00") + gga("000000.10") + gga("000000.20")
        let fixes = events(input).fixes
        // Then the first two carry the RMC date, and the three after midnight the next day
        #expect(fixes.count == 5)
        let dated = CalendarDate(year: 2000 + Int(ddmmyy.suffix(2))!, month: Int(ddmmyy.dropFirst(2).prefix(2))!,
                                 day: Int(ddmmyy.prefix(2))!)
        #expect(fixes.prefix(2).map { $0.timestamp?.date } == [dated, dated])
        #expect(fixes.suffix(3).map { $0.timestamp?.date } == [next, next, next])
        // And the times are 100 ms apart across midnight
        let stamps = fixes.compactMap { $0.timestamp?.millisecondsSinceEpoch }
        #expect(zip(stamps, stamps.dropFirst()).map { $1 - $0 } == [100, 100, 100, 100])
    }

    @Test("10 Hz RMC dates across the new year are taken as sent")
    func rolloverWithRMC() {
        // Given RMC at 23:59:59.9 on 31-12-23 and 00:00:00.0 and .1 on 01-01-24
        // When they are parsed; Then each fix has its RMC's own date
        let fixes = events(rmc("235959.90", "311223") + rmc("000000.00", "010124") + rmc("000000.10", "010124")).fixes
        #expect(fixes.map { $0.timestamp?.date } == [date(2023, 12, 31), date(2024, 1, 1), date(2024, 1, 1)])
        #expect(fixes.map { $0.timestamp?.time.milliseconds } == [86_399_900, 0, 100])
    }

    @Test("the leap day exists in leap years only")
    func leapDay() {
        // Given RMCs dated 29-02-24 (a leap year) and 29-02-23 (not)
        let leap = events(rmc("120000.00", "290224")).fixes.first
        let notLeap = events(rmc("120000.00", "290223")).fixes.first
        // Then the first is 29 February 2024; the second has no date, not 1 March
        #expect(leap?.timestamp?.date == date(2024, 2, 29))
        #expect(notLeap?.timestamp?.date == nil)
        #expect(notLeap?.mode == .twoD)
        // 2000 was a leap year (divisible by 400), 2100 will not be
        #expect(CalendarDate(year: 2000, month: 2, day: 29) != nil)
        #expect(CalendarDate(year: 2100, month: 2, day: 29) == nil)
    }

    @Test("a leap second is kept as 23:59:60 on the old day")
    func leapSecond() {
        // Given 2016-12-31 23:59:59, 23:59:60 and 2017-01-01 00:00:00 from RMC
        let fixes = events(rmc("235959.00", "311216") + rmc("235960.00", "311216") + rmc("000000.00", "010117")).fixes
        #expect(fixes.count == 3)
        // Then the middle one is second 60 of 23:59 on 31 December
        let leap = fixes[1].timestamp
        #expect(leap?.date == date(2016, 12, 31))
        #expect(leap?.time.hour == 23)
        #expect(leap?.time.minute == 59)
        #expect(leap?.time.second == 60)
        #expect(leap?.time.milliseconds == 86_400_000)
        #expect(fixes[2].timestamp?.date == date(2017, 1, 1))
        // And counted from 1970 the three are one second apart (the leap second as the second after :59)
        let stamps = fixes.compactMap { $0.timestamp?.millisecondsSinceEpoch }
        #expect(stamps.count == 3)
        #expect(stamps[1] - stamps[0] == 1000)
    }

    @Test("a leap second without a date source stays on the old day")
    func leapSecondCarried() {
        // Given a dated RMC at 23:59:59 then GGA only at 23:59:60 and 00:00:00
        let fixes = events(rmc("235959.00", "311216") + gga("235959.00") + gga("235960.00") + gga("000000.00")).fixes
        // Then 23:59:60 is still 31 December, and midnight is 1 January 2017
        #expect(fixes.map { $0.timestamp?.date } == [date(2016, 12, 31), date(2016, 12, 31), date(2017, 1, 1)])
        #expect(fixes[1].timestamp?.time.second == 60)
    }

    @Test("without any date source a fix has a time and no date, never today's")
    func noDateSource() {
        // Given GGA and GSA only, for three seconds
        let input = (0..<3).map { gga("14200\($0).00") + nmea("GPGSA,A,3,04,05,09,12,24,,,,,,,,2.5,1.3,2.1") }.joined()
        let fixes = events(input).fixes
        // Then every fix has its time of day and a nil date
        #expect(fixes.count == 3)
        #expect(fixes.map { $0.timestamp?.time.milliseconds } == [51_600_000, 51_601_000, 51_602_000])
        #expect(fixes.allSatisfy { $0.timestamp?.date == nil })
        #expect(fixes.allSatisfy { $0.timestamp?.millisecondsSinceEpoch == nil })
        #expect(fixes.allSatisfy { $0.mode == .threeD })
    }

    @Test("an RMC that is not valid is no date source, whatever its date field says")
    func bogusRTCDate() {
        // Given a cold-start RMC V carrying the RTC's 06-01-1980, then GGA-only fixes
        let fixes = events(rmc("174108.000", "060180", valid: false) + gga("174108.000") + gga("174109.000")).fixes
        // Then no fix is dated 1980
        #expect(fixes.count == 2)
        #expect(fixes.allSatisfy { $0.timestamp?.date == nil })
    }

    @Test("a date once told is carried to later epochs that have none")
    func carried() {
        // Given an RMC dated 15 June 2024, then GGA only; Then the GGA epochs keep that date
        let fixes = events(rmc("120000.00", "150624") + gga("120001.00") + gga("120002.00")).fixes
        #expect(fixes.map { $0.timestamp?.date } == Array(repeating: date(2024, 6, 15), count: 3))
    }

    @Test("days since 1970 by hand", arguments: [
        (date(1970, 1, 1), 0), (date(1980, 1, 6), 3657), (date(2000, 3, 1), 11_017), (date(2016, 12, 31), 17_166),
        (date(2024, 2, 29), 19_782), (date(1969, 12, 31), -1),
    ])
    func daysSinceEpoch(d: CalendarDate, days: Int) {
        // Given a date; Then its day count from 1970-01-01 is the one worked out by hand
        #expect(d.daysSinceEpoch == days)
    }
}
