import EngineCheck
import GPSLocation
import GPSOutput
import NMEA
import Testing

/// Issue 17's "values at the edges of their ranges", each as the fuzzer and the probe found it:
/// a value in range as received must stay in range as stored, as derived, as printed and as
/// read back by gpsfix itself.
@Suite("Values at the edges of their ranges (issue 17)")
struct EdgeValueTests {
    private func sentences(_ bodies: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        let hex = Array("0123456789ABCDEF".utf8)
        for body in bodies {
            let xor = body.utf8.reduce(0, ^)
            bytes += Array("$\(body)*".utf8) + [hex[Int(xor >> 4)], hex[Int(xor & 0xF)], 0x0D, 0x0A]
        }
        return bytes
    }

    private func run(_ bodies: [String]) -> (fixes: [Fix], skies: [SkyView], statistics: Statistics) {
        let parser = NMEAParser()
        var fixes: [Fix] = [], skies: [SkyView] = []
        let emit: (EngineEvent) -> Void = {
            switch $0 {
            case .fix(let f): fixes.append(f)
            case .sky(let s): skies.append(s)
            case .note: break
            }
        }
        parser.parse(sentences(bodies), emit: emit)
        parser.finish(emit: emit)
        return (fixes, skies, parser.statistics)
    }

    private func text(_ write: (inout ByteWriter) -> Void) -> String {
        var w = ByteWriter()
        write(&w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    @Test("GSV azimuth 359.99999 is a Float 360.0 when stored: out of range and counted, never \"az\":360.0")
    func azimuthRoundsTo360AsStored() throws {
        // Given a GSV whose second satellite's azimuth is below 360 as a Double, 360 as a Float
        let run = run(["GPGSV,1,1,02,01,45,359.99999,40,02,30,359.9,35"])
        // Then that azimuth is unknown and counted; the other, kept as it is
        let sky = try #require(run.skies.first)
        #expect(sky.satellites.map(\.azimuth) == [nil, Double(Float(359.9))])
        #expect(run.statistics.sentences.outOfRange == 1)
        // And the SKY printed holds no azimuth of 360
        let json = text { GPSDJSON.sky(sky, into: &$0) }
        #expect(!json.contains("\"az\":360"))
        #expect(EngineCheck.run([0] + sentences(["GPGSV,1,1,01,01,45,359.99999,40"])) == [])
    }

    @Test("course 359.99996 prints as track 0.0000 and course 0.0, and reads back in range", arguments: [359.99996, 359.99995, 359.96])
    func courseRoundsTo360Printed(_ course: Double) throws {
        // Given a fix whose course is in range but rounds to 360 at four decimals (JSON) or one (text)
        var fix = Fix()
        fix.mode = .twoD
        fix.coordinate = Coordinate(latitude: 1, longitude: 2)
        fix.course = course
        // When it is printed as gpsd JSON and as a text line
        let tpv = text { GPSDJSON.tpv(fix, into: &$0) }
        let line = text { TextFormat.line(fix, into: &$0) }
        // Then neither says 360, and the TPV read back gives a course within Bounds.course
        #expect(!tpv.contains("360.0"))
        #expect(!line.contains("course 360"))
        let track = try #require(JSONValue(parsing: Array(tpv.utf8))?["track"]?.double)
        #expect(Bounds.course.contains(track))
        // Within printed precision of the value, going round: 0 is 360
        #expect(min(track, 360 - track) <= 0.0001 || abs(track - course) <= 0.00005)
        // And a course just short of the edge is printed as it is
        fix.course = 359.9999
        #expect(text { GPSDJSON.tpv(fix, into: &$0) }.contains("\"track\":359.9999"))
    }

    @Test("GST orientation that rounds to 360 prints as 0.000")
    func orientationRoundsTo360() {
        var fix = Fix()
        fix.errorStatistics = ErrorStatistics(rms: 1, semiMajor: 2, semiMinor: 1, orientation: 359.9996,
                                              latitudeError: 1, longitudeError: 1, altitudeError: 1)
        let gst = text { GPSDJSON.gst(fix, device: GPSDJSON.Device(nil), into: &$0) }
        #expect(gst.contains("\"orient\":0.000"))
    }

    @Test("a climb derived from two GGAs 0.1 s apart is held to ±12 000 m/s: 2807 m in 0.1 s is unknown")
    func derivedClimbBounded() {
        // Given two 3D fixes a tenth of a second apart, 2807 m apart in height (28 070 m/s)
        let run = run([
            "GPGGA,120000.0,4807.038,N,01131.000,E,1,08,0.9,100.0,M,47.0,M,,",
            "GPGGA,120000.1,4807.038,N,01131.000,E,1,08,0.9,2907.0,M,47.0,M,,",
            "GPGGA,120000.2,4807.038,N,01131.000,E,1,08,0.9,2908.0,M,47.0,M,,",
        ])
        // Then the second has no climb; the third's 10 m/s is kept
        #expect(run.fixes.count == 3)
        #expect(run.fixes[0].climb == nil)
        #expect(run.fixes[1].climb == nil)
        #expect(run.fixes[2].climb.map { abs($0 - 10) < 1e-6 } == true)
    }

    @Test("an ellipsoidal height derived from MSL and separation is held to the altitude range")
    func derivedEllipsoidalAltitudeBounded() {
        // Given the table's lowest altitude with a negative separation, then an ordinary one
        let run = run([
            "GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,-11000.0,M,-150.0,M,,",
            "GPGGA,120001,4807.038,N,01131.000,E,1,08,0.9,-10000.0,M,-150.0,M,,",
        ])
        // Then the first has its altitude but no ellipsoidal height (-11 150 m); the second has both
        #expect(run.fixes.map(\.altitude) == [-11000, -10000])
        #expect(run.fixes.map(\.ellipsoidalAltitude) == [nil, -10150])
    }

    @Test("a ZDA of 2179-12-31 and a time after midnight does not date a fix 2180")
    func dateStaysInWindow() throws {
        // Given the window's last day, then the next epoch after midnight with no date of its own
        let run = run([
            "GPZDA,235959.00,31,12,2179,00,00",
            "GPGGA,235959.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,47.0,M,,",
            "GPGGA,000000.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,47.0,M,,",
        ])
        // Then the first is dated 2179-12-31, the second has its time but no date
        let dates = run.fixes.map { $0.timestamp?.date }
        #expect(dates.first == CalendarDate(year: 2179, month: 12, day: 31))
        #expect(run.fixes.count == 2)
        #expect(run.fixes.last?.timestamp?.time == TimeOfDay(hour: 0, minute: 0, second: 0))
        #expect(dates.last == .some(nil))
        // And a date inside the window still rolls
        let inside = self.run([
            "GPZDA,235959.00,31,12,2178,00,00",
            "GPGGA,235959.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,47.0,M,,",
            "GPGGA,000000.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,47.0,M,,",
        ])
        #expect(inside.fixes.last?.timestamp?.date == CalendarDate(year: 2179, month: 1, day: 1))
    }

    @Test("one epoch listing 219 satellites gives a sky view of 140 (libgps drops a SKY with more), the rest counted")
    func satellitesPerSkyBounded() throws {
        // Given two GSV sets (signals 1 and 2, each within 31 parts) listing 219 distinct
        // satellites in one epoch: GPS, SBAS, GLONASS, SBAS, IMES, QZSS, BeiDou, Galileo
        var bodies = ["GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,47.0,M,,"]
        let numbers = Array(1...96) + Array(152...158) + Array(173...182) + Array(193...199) + Array(201...263) + Array(301...336)
        #expect(numbers.count == 219)
        func set(_ numbers: ArraySlice<Int>, signal: Int) -> [String] {
            let list = Array(numbers)
            let parts = (list.count + 3) / 4
            return (0..<parts).map { p in
                let chunk = list[(p * 4)..<min(list.count, p * 4 + 4)]
                return "GNGSV,\(parts),\(p + 1),\(list.count)," + chunk.map { "\($0),10,100,30" }.joined(separator: ",") + ",\(signal)"
            }
        }
        bodies += set(numbers[..<112], signal: 1) + set(numbers[112...], signal: 2)
        let run = run(bodies)
        let sky = try #require(run.skies.first)
        // Then the sky view lists 140, no satellite twice, and 79 are counted as left out
        #expect(sky.satellites.count == 140)
        #expect(Set(sky.satellites.map(\.id)).count == 140)
        #expect(run.statistics.epochs.satellitesLeftOut == 79)
        // And the SKY printed says so
        let json = text { GPSDJSON.sky(sky, into: &$0) }
        #expect(json.contains("\"nSat\":140"))
        // And a sky view made elsewhere with more (libgps 3.27 holds 184) is cut when printed
        let wide = SkyView(satellites: (1...184).map { Satellite(id: SatelliteID(constellation: .beidou, svid: $0), used: $0 <= 150) })
        let printed = try #require(JSONValue(parsing: Array(text { GPSDJSON.sky(wide, into: &$0) }.utf8)))
        #expect(printed["satellites"]?.array?.count == 140)
        #expect(printed["nSat"]?.int == 140)
        #expect(printed["uSat"]?.int == 140)
    }

    @Test("time fields are read by their exact shape: '041.08' and '125960' are no times; 23:59:60 is", arguments: [
        ("041.08", nil), ("125960", nil), ("235960", 86_400_000), ("235960.5", 86_400_500), ("225960", nil),
        ("235959.", nil), ("+23559", nil), ("-00000", nil), ("12345.67", nil), ("1234567", nil), ("123456.7", 45_296_700),
        ("123456.789123", 45_296_789), ("123456.7a", nil), ("123456", 45_296_000), (" 23456", nil),
    ] as [(String, Int?)])
    func timeShape(_ field: String, _ milliseconds: Int?) {
        // Given an RMC whose time field is `field`
        let run = run(["GPRMC,\(field),A,4807.038,N,01131.000,E,0.0,,230394,,"])
        // Then its time is that, or unknown and counted
        let time = run.fixes.first?.timestamp?.time.milliseconds
        #expect(time == milliseconds)
        #expect(run.statistics.sentences.outOfRange == (milliseconds == nil ? 1 : 0))
    }

    @Test("satellite numbers are checked within their constellation: each gpsd PRN names one satellite")
    func satelliteNumbersPerConstellation() {
        // Every satellite gpsd's gnssid:svid table has prints a PRN that reads back as itself
        var prns: Set<Int> = []
        for c in Constellation.allCases {
            for svid in SatelliteID.svids(of: c) {
                let id = SatelliteID(constellation: c, svid: svid)
                #expect(SatelliteID(gnssid: c.rawValue, svid: svid) == id)
                #expect(SatelliteID(gpsdPRN: id.prn) == id)
                prns.insert(id.prn)
            }
        }
        // And no two share a PRN
        #expect(prns.count == Constellation.allCases.reduce(0) { $0 + SatelliteID.svids(of: $1).count })
        // And numbers outside a constellation's range name no satellite (GPS 65 would print as GLONASS 1's PRN)
        #expect(SatelliteID(gnssid: 0, svid: 65) == nil)
        #expect(SatelliteID(gnssid: 5, svid: 11) == nil)
        #expect(SatelliteID(gnssid: 6, svid: 255) == nil)
        #expect(SatelliteID(gnssid: 8, svid: 1) == nil)
        #expect(SatelliteID(gpsdPRN: 0) == nil)
        #expect(SatelliteID(gpsdPRN: 97) == nil)
        #expect(SatelliteID(gpsdPRN: 201) == SatelliteID(constellation: .qzss, svid: 9))
    }

    @Test("DOPs are bounded on the grid they are printed with: 0.001 and 999.999 are out of range")
    func dopAsPrinted() throws {
        let run = run([
            "GPGSA,A,3,01,02,03,04" + String(repeating: ",", count: 8) + ",0.001,1.20,999.999",
            "GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,47.0,M,,",
        ])
        let fix = try #require(run.fixes.first)
        #expect(fix.dop.position == nil)
        #expect(fix.dop.vertical == nil)
        #expect(fix.dop.horizontal == 1.2)
        #expect(run.statistics.sentences.outOfRange == 2)
    }
}

/// The package's one JSON reader (`JSONValue`), behind gpsd's lines, a broker's reports and a
/// gpsd client's requests, held to RFC 8259.
@Suite("One strict JSON reader (issue 17)")
struct StrictJSONTests {
    private func parses(_ bytes: [UInt8]) -> Bool { JSONValue(parsing: bytes) != nil }
    private func parses(_ text: String) -> Bool { parses(Array(text.utf8)) }

    @Test("what is not JSON is refused: +1, 01, .9, 0., \"\\V\", \\u-000, lone surrogates", arguments: [
        "+1", "01", "-01", ".9", "0.", "1.e3", "1e", "1e+", "-", "--1", "0x1F", "1e999", "NaN", "-Infinity", "1 2",
        #""\V""#, #""\u-000""#, #""\u+000""#, #""\u 000""#, #""\u00""#, #""\ud800""#, #""\udfff""#, #""\ud800\u0041""#,
        #""\ud800x""#, "\"a\tb\"", "\"a\u{0}b\"", "[1,]", "{\"a\":1,}", "{'a':1}", "[1]]", "tru", "nul", "[" + String(repeating: "[", count: 9) + "]",
    ])
    func refusesNonJSON(_ text: String) {
        #expect(!parses(text))
    }

    @Test("JSON is read: numbers in their shape, escapes, pairs joined, UTF-8 kept")
    func readsJSON() {
        #expect(JSONValue(parsing: Array("[0,-0,1.5e2,-2E-1,10]".utf8)) == .array([.number(0), .number(-0.0), .number(150), .number(-0.2), .number(10)]))
        #expect(JSONValue(parsing: Array(#""\ud83d\ude00 \u00e9 \/ \"""#.utf8)) == .string("\u{1F600} é / \""))
        #expect(JSONValue(parsing: Array("\"Zürich 東京 \u{1F600}\"".utf8)) == .string("Zürich 東京 \u{1F600}"))
        #expect(JSONValue(parsing: Array(#" {"a" : [true, false, null], "a": 2} "#.utf8))?["a"] == .number(2))
    }

    @Test("invalid UTF-8 is refused: stray continuation, overlong, encoded surrogate, past U+10FFFF, cut", arguments: [
        [0x80], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
        [0xFF], [0xE2, 0x82], [0xC3],
    ] as [[UInt8]])
    func refusesInvalidUTF8(_ sequence: [UInt8]) {
        #expect(!parses([0x22] + sequence + [0x22]))
        #expect(!parses([0x22, 0x61] + sequence + [0x62, 0x22]))
    }

    @Test("limits: size, depth, members per container")
    func limits() {
        #expect(parses("[" + String(repeating: "0,", count: JSONValue.maximumCount - 1) + "0]"))
        #expect(!parses("[" + String(repeating: "0,", count: JSONValue.maximumCount) + "0]"))
        #expect(parses(String(repeating: "[", count: JSONValue.maximumDepth + 1) + String(repeating: "]", count: JSONValue.maximumDepth + 1)))
        #expect(!parses(String(repeating: "[", count: JSONValue.maximumDepth + 2) + String(repeating: "]", count: JSONValue.maximumDepth + 2)))
        #expect(!parses("\"" + String(repeating: "x", count: JSONValue.maximumSize) + "\""))
        #expect(!parses("1" + String(repeating: "0", count: JSONValue.maximumNumberLength)))
    }
}

/// The fuzz target's own JSON check (`EngineCheck`: read, write back, read again) on the
/// kinds of lines its seeds hold: a regression here is one `make fuzz` would report.
@Suite("make fuzz's JSON read-back (issue 17)")
struct FuzzJSONCheckTests {
    @Test("reports, requests, escapes, surrogate pairs and UTF-8 read, write back and read again the same")
    func roundTrips() {
        let lines = [
            #"{"class":"TPV","mode":3,"lat":45.877567200,"lon":-170.500111300,"track":359.9999,"climb":-0.5e1}"#,
            #"{"class":"SKY","satellites":[{"PRN":201,"gnssid":5,"svid":9,"used":false}],"a":1,"a":2}"#,
            #"{"device":"/dev/a;b\"c","scaled":null}"#,
            #"["\ud83d\ude00","\u00e9\/\b\f\n\r\t\u0001","Zürich 東京",-0,0.5,1E+2,1e-320,[[[]]],{}]"#,
            "+1\n01\n\"\\ud800\"\n[1,]",
        ]
        for line in lines {
            #expect(EngineCheck.run([0] + Array((line + "\n").utf8)) == [], "\(line)")
        }
    }
}
