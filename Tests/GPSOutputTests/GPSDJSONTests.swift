import NMEA
import Foundation
import GPSLocation
import GPSOutput
import Testing

/// One report as text, and as the dictionary Foundation's JSON parser makes of it.
struct Report {
    let text: String
    let json: [String: Any]

    init(_ write: (inout ByteWriter) -> Void) throws {
        var w = ByteWriter()
        write(&w)
        text = String(decoding: w.bytes, as: UTF8.self)
        let object = try JSONSerialization.jsonObject(with: Data(w.bytes))
        json = try #require(object as? [String: Any], "not a JSON object: \(text)")
    }

    subscript(key: String) -> Any? { json[key] }
    func double(_ key: String) -> Double? { (json[key] as? NSNumber)?.doubleValue }
    func int(_ key: String) -> Int? { (json[key] as? NSNumber)?.intValue }
    func string(_ key: String) -> String? { json[key] as? String }
    var keys: Set<String> { Set(json.keys) }
}

func date(_ y: Int, _ m: Int, _ d: Int) -> CalendarDate? { CalendarDate(year: y, month: m, day: d) }

extension Fix {
    /// The fix of TextFormat's doc comment: Dunedin, 2019-04-12T00:39:56Z, 3D, 12 satellites.
    static var dunedin: Fix {
        var fix = Fix()
        fix.timestamp = FixTime(date: date(2019, 4, 12), time: TimeOfDay(hour: 0, minute: 39, second: 56))
        fix.mode = .threeD
        fix.quality = .gps
        fix.coordinate = Coordinate(latitude: -45.8775672, longitude: 170.5001113)
        fix.altitude = 14.2
        fix.ellipsoidalAltitude = 21.9
        fix.geoidSeparation = 7.7
        fix.speed = 0.01
        fix.satellitesUsed = 12
        return fix
    }
}

@Suite("GPSDJSON TPV")
struct TPVTests {
    @Test("A 3D fix: gpsd's field names, units and precision")
    func fullFix() throws {
        // Given
        var fix = Fix.dunedin
        fix.course = 123.45678
        fix.magneticVariation = 24.3
        fix.climb = -0.25
        // gpsd's estimates are what its TPV carries; the receiver's own accuracies are not.
        fix.horizontalAccuracy = 0.7
        fix.latitudeError = 0.3
        fix.estimatedErrors = ErrorEstimates(horizontal: 2.5, latitude: 1.5, longitude: 1.75, vertical: 4.25,
                                             spherical: 5.125, speed: 3.25, course: 12.3456, climb: 8.5, time: 0.005)

        // When
        let report = try Report { GPSDJSON.tpv(fix, device: "/dev/ttyACM0", into: &$0) }

        // Then
        #expect(report.text.hasSuffix("}\n"))
        #expect(report.text.filter { $0 == "\n" }.count == 1, "one report, one line")
        #expect(report.text.hasPrefix(#"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2019-04-12T00:39:56.000Z""#))
        #expect(report.string("class") == "TPV")
        #expect(report.string("device") == "/dev/ttyACM0")
        #expect(report.int("mode") == 3)
        #expect(report.string("time") == "2019-04-12T00:39:56.000Z")
        #expect(report.text.contains(#""lat":-45.877567200,"lon":170.500111300"#), "9 decimals, as gpsd")
        #expect(report.double("lat") == -45.8775672)
        #expect(report.double("lon") == 170.5001113)
        #expect(report.text.contains(#""altHAE":21.900,"altMSL":14.200"#))
        #expect(report.double("alt") == 14.2)
        #expect(report.text.contains(#""speed":0.010"#), "metres per second, 3 decimals")
        #expect(report.text.contains(#""track":123.4568"#))
        #expect(report.text.contains(#""magvar":24.3"#))
        #expect(report.text.contains(#""climb":-0.250"#))
        #expect(report.double("geoidSep") == 7.7)
        #expect(report.double("eph") == 2.5)
        #expect(report.double("epv") == 4.25)
        #expect(report.double("epy") == 1.5, "latitude error")
        #expect(report.double("epx") == 1.75, "longitude error")
        #expect(report.double("sep") == 5.125)
        #expect(report.text.contains(#""eps":3.25,"epc":8.50"#), "two decimals, as gpsd")
        #expect(report.text.contains(#""epd":12.3456"#))
        #expect(report.text.contains(#""time":"2019-04-12T00:39:56.000Z","ept":0.005,"lat""#), "ept right after time, as gpsd")
        #expect(report.text.contains(#""magtrack":147.7568"#), "gpsd's: track plus magvar")
        #expect(report["status"] == nil, "a plain GPS fix has no status: the mode implies it")
    }

    @Test("Unknown values are left out, not written as zero or null")
    func unknownsLeftOut() throws {
        // Given
        var fix = Fix()
        fix.mode = .twoD
        fix.coordinate = Coordinate(latitude: 1, longitude: 2)
        fix.speed = .nan

        // When
        let report = try Report { GPSDJSON.tpv(fix, into: &$0) }

        // Then
        #expect(report.keys == ["class", "mode", "lat", "lon"])
        #expect(!report.text.contains("null"))
    }

    @Test("status appears only from DGPS up, and only with a fix", arguments: [
        (FixQuality.gps, FixMode.threeD, nil as Int?),
        (.dgps, .threeD, 2),
        (.rtkFixed, .threeD, 3),
        (.rtkFloat, .twoD, 4),
        (.deadReckoning, .twoD, 5),
        (.dgps, .noFix, nil),
    ])
    func status(quality: FixQuality, mode: FixMode, expected: Int?) throws {
        // Given
        var fix = Fix.dunedin
        fix.quality = quality
        fix.mode = mode

        // When
        let report = try Report { GPSDJSON.tpv(fix, into: &$0) }

        // Then
        #expect(report.int("status") == expected)
        #expect((report["status"] != nil) == (expected != nil))
    }

    @Test("datum: gpsd's name for a code it knows, the code for any other, with a fix only", arguments: [
        (Datum.wgs84, FixMode.threeD, "WGS84" as String?), (Datum(code: "EUR")!, .twoD, "EUR"), (.userDefined, .twoD, "User Defined"),
        (.pe90, .noFix, nil),
    ])
    func datum(datum: Datum, mode: FixMode, expected: String?) throws {
        // Given a fix whose cycle sent a DTM
        var fix = Fix.dunedin
        fix.mode = mode
        fix.datum = datum
        // When
        let report = try Report { GPSDJSON.tpv(fix, into: &$0) }
        // Then gpsd's member, as its processDTM names the datum
        #expect(report.string("datum") == expected)
        #expect((report["datum"] != nil) == (expected != nil))
    }

    @Test("Mode 1: no lat/lon and no other solution fields")
    func noFixHasNoPosition() throws {
        // Given: the receiver still printed its last position and altitude
        var fix = Fix.dunedin
        fix.mode = .noFix
        fix.quality = nil

        // When
        let report = try Report { GPSDJSON.tpv(fix, device: "x", into: &$0) }

        // Then
        #expect(report.keys == ["class", "device", "mode", "time"])
        #expect(report.int("mode") == 1)
    }

    @Test("time has milliseconds and 'Z'")
    func milliseconds() throws {
        var fix = Fix.dunedin
        fix.timestamp = FixTime(date: date(2024, 2, 29), time: TimeOfDay(hour: 23, minute: 5, second: 7, millisecond: 42))
        let report = try Report { GPSDJSON.tpv(fix, into: &$0) }
        #expect(report.string("time") == "2024-02-29T23:05:07.042Z")
    }

    @Test("A leap second is printed as 23:59:60")
    func leapSecond() throws {
        var fix = Fix.dunedin
        fix.timestamp = FixTime(date: date(2016, 12, 31), time: TimeOfDay(milliseconds: 86_400_000 + 500))
        let report = try Report { GPSDJSON.tpv(fix, into: &$0) }
        #expect(report.string("time") == "2016-12-31T23:59:60.500Z")
    }

    @Test("No time key while the date is unknown")
    func noDateNoTime() throws {
        // Given: a time of day from GGA, but no RMC or ZDA yet to tell the date
        var fix = Fix.dunedin
        fix.timestamp = FixTime(date: nil, time: TimeOfDay(hour: 12, minute: 0, second: 0))

        // When
        let report = try Report { GPSDJSON.tpv(fix, into: &$0) }

        // Then
        #expect(report["time"] == nil)
        #expect(report.double("lat") == -45.8775672)
    }

    @Test("Device names are escaped to stay valid JSON")
    func deviceEscaping() throws {
        let device = "captures/\"odd\" name\\with\ttab\nand\u{1}control – ü.nmea"
        let report = try Report { GPSDJSON.tpv(.dunedin, device: device, into: &$0) }
        #expect(report.string("device") == device)
        #expect(report.text.filter { $0 == "\n" }.count == 1)
    }

    @Test("A Device made once writes what the device string does", arguments: [nil, "/dev/ttyACM0", "odd \"name\"\n"] as [String?])
    func deviceTag(device: String?) {
        var a = ByteWriter(), b = ByteWriter()
        GPSDJSON.tpv(.dunedin, device: device, into: &a)
        GPSDJSON.tpv(.dunedin, device: GPSDJSON.Device(device), into: &b)
        let (first, second) = (a.bytes, b.bytes)
        #expect(first == second)
        var c = ByteWriter(), d = ByteWriter()
        GPSDJSON.sky(SkyView(), device: device, into: &c)
        GPSDJSON.sky(SkyView(), device: GPSDJSON.Device(device), into: &d)
        let (third, fourth) = (c.bytes, d.bytes)
        #expect(third == fourth)
    }

    @Test("Reports append: several in one writer are one per line")
    func appends() throws {
        var w = ByteWriter()
        GPSDJSON.tpv(.dunedin, into: &w)
        GPSDJSON.sky(SkyView(), into: &w)
        let lines = String(decoding: w.bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any])
        }
    }
}

@Suite("GPSDJSON SKY")
struct SKYTests {
    @Test("nSat, uSat and one entry per satellite with gpsd's PRN, gnssid, svid and used")
    func satellites() throws {
        // Given
        let sky = SkyView(
            timestamp: FixTime(date: date(2019, 4, 12), time: TimeOfDay(hour: 0, minute: 39, second: 56)),
            satellites: [
                Satellite(id: SatelliteID(constellation: .gps, svid: 4), elevation: 45, azimuth: 120, snr: 40, used: true),
                Satellite(id: SatelliteID(constellation: .sbas, svid: 120), elevation: 30, azimuth: 200, snr: nil, used: false),
                Satellite(id: SatelliteID(constellation: .galileo, svid: 11), elevation: 60.5, azimuth: 300, snr: 42, used: true),
                Satellite(id: SatelliteID(constellation: .beidou, svid: 7), elevation: nil, azimuth: nil, snr: 18, used: false),
                Satellite(id: SatelliteID(constellation: .qzss, svid: 2), elevation: 10, azimuth: 5, snr: 30, used: true),
                Satellite(id: SatelliteID(constellation: .glonass, svid: 5), elevation: 70, azimuth: 10, snr: 45, used: true),
            ],
            dop: DilutionOfPrecision(position: 2.5, horizontal: 1.3, vertical: 2.1, time: 1.25))

        // When
        let report = try Report { GPSDJSON.sky(sky, device: "/dev/ttyACM0", into: &$0) }

        // Then
        #expect(report.string("class") == "SKY")
        #expect(report.string("device") == "/dev/ttyACM0")
        #expect(report.string("time") == "2019-04-12T00:39:56.000Z")
        #expect(report.int("nSat") == 6)
        #expect(report.int("uSat") == 4)
        #expect(report.text.contains(#""vdop":2.10,"tdop":1.25,"hdop":1.30,"pdop":2.50"#), "DOPs with 2 decimals")
        let satellites = try #require(report["satellites"] as? [[String: Any]])
        let number = { (s: [String: Any], key: String) in (s[key] as? NSNumber)?.intValue }
        #expect(satellites.map { number($0, "PRN") } == [4, 33, 311, 407, 194, 69])
        #expect(satellites.map { number($0, "gnssid") } == [0, 1, 2, 3, 5, 6])
        #expect(satellites.map { number($0, "svid") } == [4, 120, 11, 7, 2, 5])
        #expect(report.text.contains(#"{"PRN":4,"el":45.0,"az":120.0,"ss":40.0,"used":true,"gnssid":0,"svid":4}"#))
        #expect(report.text.contains(#"{"PRN":33,"el":30.0,"az":200.0,"used":false,"gnssid":1,"svid":120}"#))
        #expect(report.text.contains(#"{"PRN":407,"ss":18.0,"used":false,"gnssid":3,"svid":7}"#))
        #expect(satellites.map { ($0["used"] as? NSNumber)?.boolValue } == [true, false, true, false, true, true])
    }

    @Test("An empty sky is still a complete report")
    func emptySky() throws {
        let report = try Report { GPSDJSON.sky(SkyView(), into: &$0) }
        #expect(report.keys == ["class", "nSat", "uSat", "satellites"])
        #expect(report.int("nSat") == 0)
        #expect(report.int("uSat") == 0)
        #expect((report["satellites"] as? [Any])?.isEmpty == true)
    }

    @Test("No time key without a date")
    func noDate() throws {
        let sky = SkyView(timestamp: FixTime(date: nil, time: TimeOfDay(hour: 1, minute: 2, second: 3)))
        let report = try Report { GPSDJSON.sky(sky, into: &$0) }
        #expect(report["time"] == nil)
    }
}

@Suite("GPSDJSON.appendISO8601")
struct ISO8601Tests {
    private func iso(_ t: FixTime) -> String {
        var w = ByteWriter()
        GPSDJSON.appendISO8601(t, into: &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    @Test("Dates and times, zero-padded")
    func formats() {
        #expect(iso(FixTime(date: date(1999, 1, 2), time: TimeOfDay(hour: 3, minute: 4, second: 5, millisecond: 6)))
                == "1999-01-02T03:04:05.006Z")
        #expect(iso(FixTime(date: date(2024, 12, 31), time: TimeOfDay(hour: 23, minute: 59, second: 59, millisecond: 999)))
                == "2024-12-31T23:59:59.999Z")
        #expect(iso(FixTime(date: date(2016, 12, 31), time: TimeOfDay(milliseconds: 86_400_000)))
                == "2016-12-31T23:59:60.000Z")
    }

    @Test("Without a date, the time of day alone and no 'Z'")
    func timeOnly() {
        #expect(iso(FixTime(date: nil, time: TimeOfDay(hour: 12, minute: 0, second: 1, millisecond: 250))) == "12:00:01.250")
    }
}
