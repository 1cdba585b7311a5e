import NMEA
import GPSTime
import Testing

@Suite("Time samples and their records")
struct TimeSampleTests {
    func fix(mode: FixMode = .threeD, date: CalendarDate? = CalendarDate(year: 2026, month: 3, day: 1),
             arrival: Double? = 1_772_323_200.3) -> Fix {
        var fix = Fix()
        fix.mode = mode
        fix.timestamp = FixTime(date: date, time: TimeOfDay(hour: 0, minute: 0, second: 0, millisecond: 0))
        fix.arrival = arrival
        return fix
    }

    @Test("A live fix with a date gives its time against its arrival; the delay correction adds to the receiver's")
    func fromFix() throws {
        // 2026-03-01T00:00:00Z
        let sample = try #require(TimeSample(fix()))
        #expect(sample.trueTime == 1_772_323_200)
        #expect(abs(sample.offset - -0.3) < 1e-6)
        let corrected = try #require(TimeSample(fix(), delay: .milliseconds(300)))
        #expect(abs(corrected.offset) < 1e-6)
    }

    @Test("No sample without a fix, a date, or an arrival (a replay)")
    func noSample() {
        #expect(TimeSample(fix(mode: .noFix)) == nil)
        #expect(TimeSample(fix(date: nil)) == nil)
        #expect(TimeSample(fix(arrival: nil)) == nil)
        var partial = fix()
        partial.isPartialEpoch = true
        #expect(TimeSample(partial) == nil)
    }

    @Test("The SOCK datagram is chrony's 40-byte struct sock_sample: timeval, offset, pulse, leap, pad, magic")
    func datagramLayout() {
        let bytes = ChronySocket.datagram(TimeSample(trueTime: 1_000_000_000.25, arrival: 1_000_000_000.5))
        #expect(bytes.count == 40)
        func int64(_ at: Int) -> Int64 { bytes[at..<at + 8].reversed().reduce(0) { $0 << 8 | Int64($1) } }
        func int32(_ at: Int) -> Int32 { Int32(truncatingIfNeeded: bytes[at..<at + 4].reversed().reduce(0) { $0 << 8 | Int64($1) }) }
        #expect(int64(0) == 1_000_000_000)
        #expect(int64(8) == 500_000)
        #expect(Double(bitPattern: UInt64(bitPattern: int64(16))) == -0.25)
        #expect(int32(24) == 0)
        #expect(int32(28) == 0)
        #expect(int32(36) == 0x534f_434b)
    }
}
