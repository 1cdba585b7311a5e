import NMEA
import Foundation
import GPSLocation
import GPSOutput
import Testing

/// gpsd's `ATT` report and TPV's marine members, as gpsd 3.22 writes them (its regression
/// captures `rst39`, `hemi` and `bundg_zeus_9`, and its own format strings).
@Suite("GPSDJSON ATT and marine members")
struct InstrumentReportTests {
    @Test("An HDT's heading is an ATT line exactly as gpsd's regressions show it")
    func attAsGpsdWritesIt() {
        // Given a fix whose epoch had an HDT of 25.5 (rst39.log)
        var fix = Fix.dunedin
        fix.attitude = Attitude(heading: 25.5)
        // When its ATT is written without a device, as gpsd's regression output is
        var w = ByteWriter()
        GPSDJSON.att(fix, device: GPSDJSON.Device(nil), into: &w)
        // Then it is gpsd's line, byte for byte (rst39.log.chk)
        #expect(String(decoding: w.bytes, as: UTF8.self) == "{\"class\":\"ATT\",\"heading\":25.500}\n")
    }

    @Test("Every attitude member, in gpsd's order and precision, with the device")
    func attMembers() throws {
        var fix = Fix()
        fix.attitude = Attitude(heading: 359.9996, magneticHeading: 231.8, pitch: -1.234, roll: 2.5, rateOfTurn: -3.25)
        let report = try Report { GPSDJSON.att(fix, device: GPSDJSON.Device("/dev/ttyUSB0"), into: &$0) }
        // A heading that prints as 360 is north, written 0.
        #expect(report.text == """
            {"class":"ATT","device":"/dev/ttyUSB0","heading":0.000,"mheading":231.800,"pitch":-1.23,"roll":2.50,"rot":-3.250}

            """)
        #expect(report.keys == ["class", "device", "heading", "mheading", "pitch", "roll", "rot"])
    }

    @Test("Depth, wind and water temperature follow the TPV's other members, only with a fix")
    func tpvMarine() throws {
        // Given a fix whose epoch had DBT 5.4 m, MWV relative and MWD (bundg_zeus_9.log)
        var fix = Fix.dunedin
        fix.marine = MarineData(depth: 5.4, transducerOffset: 0.4, waterTemperature: 12.34, apparentWindAngle: 57.5,
                                apparentWindSpeed: 13 * 1852 / 3600, trueWindAngle: 96.6, trueWindDirection: 328.2,
                                magneticWindDirection: 326.8, trueWindSpeed: 5.8)
        let report = try Report { GPSDJSON.tpv(fix, into: &$0) }
        // Then gpsd's members, in its order and precision (depth to the millimetre, wind to a tenth)
        #expect(report.text.hasSuffix(
            #","depth":5.400,"wanglem":326.8,"wangler":57.5,"wanglet":328.2,"wspeedr":6.7,"wspeedt":5.8,"wtemp":12.3}"# + "\n"),
            "\(report.text)")
        // The offset and the true wind's angle off the bow have no gpsd member.
        #expect(!report.text.contains("96.6") && !report.text.contains("0.400"))
        // And without a fix, none of them
        var noFix = Fix()
        noFix.marine = fix.marine
        #expect(try Report { GPSDJSON.tpv(noFix, into: &$0) }.keys == ["class", "mode"])
    }

    @Test("A text line ends with what the instruments said")
    func textLine() {
        var fix = Fix.dunedin
        fix.attitude = Attitude(heading: 25.5, magneticHeading: 231.84, pitch: 1.25, roll: -2, rateOfTurn: 3)
        fix.marine = MarineData(depth: 5.44, waterTemperature: 12.3, apparentWindAngle: 57.5, apparentWindSpeed: 6.69,
                                trueWindDirection: 328.2, trueWindSpeed: 5.8)
        var w = ByteWriter()
        TextFormat.line(fix, into: &w)
        let line = String(decoding: w.bytes, as: UTF8.self)
        #expect(line.hasSuffix("sats 12  heading 25.5 T  heading 231.8 M  pitch 1.3  roll -2.0  turn 3.0/min"
            + "  depth 5.4 m  water 12.3 C  wind 57.5 app 6.7 m/s  wind - true 5.8 m/s  wind from 328.2 T\n"), "\(line)")
        // Without a fix as well: a depth sounder alone still says the depth.
        var alone = Fix()
        alone.marine = MarineData(depth: 3)
        w.removeAll()
        TextFormat.line(alone, into: &w)
        #expect(String(decoding: w.bytes, as: UTF8.self) == "(no time)  no fix  depth 3.0 m\n")
    }
}
