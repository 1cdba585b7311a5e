@testable import GPSMQTT
import Foundation
import GPSOutput
import NMEA
import Testing

/// Issue 17: what one gpsfix publishes and another reads back over MQTT stays in range, and a
/// SKY cannot name a satellite outside its constellation's numbering.
@Suite("gpsd JSON read back at the edges (issue 17)")
struct GpsdJSONReportsEdgeTests {
    private func report(_ text: String) -> GpsdJSONReports.Report? { GpsdJSONReports.report(Array(text.utf8)) }

    private func sky(_ satellites: String) -> [SatelliteID]? {
        guard case .sky(let sky)? = report(#"{"class":"SKY","satellites":[\#(satellites)]}"#) else { return nil }
        return sky.satellites.map(\.id)
    }

    @Test("satellite numbers are checked per constellation: GPS 65 or QZSS 11 is no satellite, not a PRN collision")
    func numbersPerConstellation() {
        // Given entries naming numbers their constellations do not have, beside good ones
        let ids = sky(#"""
            {"PRN":65,"gnssid":0,"svid":65},{"PRN":1,"gnssid":0,"svid":1},{"PRN":203,"gnssid":5,"svid":11},
            {"PRN":65,"gnssid":6,"svid":1},{"PRN":300,"gnssid":6,"svid":255},{"PRN":9,"gnssid":9,"svid":9}
            """#)
        // Then only GPS 1 and GLONASS 1 are listed
        #expect(ids == [SatelliteID(constellation: .gps, svid: 1), SatelliteID(constellation: .glonass, svid: 1)])
    }

    @Test("a PRN alone is read as gpsd numbers a SKY: 201 is QZSS 9, 401 BeiDou 1, 801 NavIC 1; one named twice is listed once")
    func prnAlone() {
        let ids = sky(#"{"PRN":201},{"PRN":401},{"PRN":801},{"PRN":33},{"PRN":97},{"PRN":1},{"PRN":1,"gnssid":0,"svid":1}"#)
        #expect(ids == [
            SatelliteID(constellation: .gps, svid: 1), SatelliteID(constellation: .sbas, svid: 120),
            SatelliteID(constellation: .beidou, svid: 1), SatelliteID(constellation: .qzss, svid: 9),
            SatelliteID(constellation: .navic, svid: 1),
        ])
    }

    @Test("a SKY listing more than 140 satellites is read as its first 140")
    func satellitesBounded() {
        let entries = (1...63).map { #"{"gnssid":3,"svid":\#($0)}"# } + (1...36).map { #"{"gnssid":2,"svid":\#($0)}"# }
            + (1...32).map { #"{"gnssid":0,"svid":\#($0)}"# } + (1...32).map { #"{"gnssid":6,"svid":\#($0)}"# }
        #expect(entries.count == 163)
        #expect(sky(entries.joined(separator: ","))?.count == 140)
    }

    @Test("what gpsfix printed before issue 17 (track 360.0000) is refused; what it prints now (0.0000) is read")
    func trackAtTheEdge() {
        guard case .fix(let old)? = report(#"{"class":"TPV","mode":2,"lat":1,"lon":2,"track":360.0000}"#),
              case .fix(let new)? = report(#"{"class":"TPV","mode":2,"lat":1,"lon":2,"track":0.0000}"#) else {
            Issue.record("TPVs not read")
            return
        }
        #expect(old.course == nil)
        #expect(new.course == 0)
    }

    @Test("datum: gpsd's names and plain codes are read; anything else is no datum")
    func datum() {
        let read = [#""WGS84""#, #""PE90""#, #""User Defined""#, #""EUR""#, #""W 84""#, #""ABCDE""#, "84"].map { member -> Datum? in
            guard case .fix(let fix)? = report(#"{"class":"TPV","mode":2,"lat":1,"lon":2,"datum":\#(member)}"#) else { return nil }
            return fix.datum
        }
        #expect(read == [.wgs84, .pe90, .userDefined, Datum(code: "EUR"), nil, nil, nil])
    }

    @Test("times: second 60 only at 23:59, a fraction all digits", arguments: [
        ("2024-06-15T03:12:07.000Z", true), ("2024-12-31T23:59:60.000Z", true), ("2024-06-15T12:59:60.000Z", false),
        ("2024-06-15T03:12:07.0a0Z", false), ("2024-06-15T03:12:07.000123Z", true), ("2024-06-15T03:12:07.12x4Z", false),
        ("2180-01-01T00:00:00.000Z", false),
    ])
    func times(_ text: String, _ read: Bool) {
        #expect((GpsdJSONReports.time(text) != nil) == read)
    }

    @Test("every fix and sky view of the project's captures, printed and read back, is the same within printed precision")
    func capturesRoundTrip() throws {
        let captures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Captures").standardized
        let names = try FileManager.default.contentsOfDirectory(atPath: captures.path).filter { $0.hasSuffix(".nmea") }
        #expect(names.count >= 6)
        var fixes = 0, skies = 0
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: captures.appendingPathComponent(name)))
            for event in NMEAParser.events(of: bytes) {
                var w = ByteWriter()
                switch event {
                case .fix(let fix):
                    GPSDJSON.tpv(fix, into: &w)
                    guard case .fix(let read)? = GpsdJSONReports.report(Array(w.bytes.dropLast())) else {
                        Issue.record("\(name): TPV not read back: \(String(decoding: w.bytes, as: UTF8.self))")
                        continue
                    }
                    fixes += 1
                    #expect(read.mode == fix.mode, "\(name)")
                    guard fix.mode >= .twoD else { continue }
                    #expect(near(read.coordinate?.latitude, fix.coordinate?.latitude, 9) && near(read.coordinate?.longitude, fix.coordinate?.longitude, 9), "\(name)")
                    #expect(near(read.altitude, fix.altitude, 3) && near(read.speed, fix.speed, 3) && near(read.climb, fix.climb, 3), "\(name)")
                    #expect(near(read.course, fix.course, 4, bearing: true), "\(name): \(String(describing: fix.course))")
                case .sky(let sky):
                    GPSDJSON.sky(sky, into: &w)
                    guard case .sky(let read)? = GpsdJSONReports.report(w.bytes) else {
                        Issue.record("\(name): SKY not read back")
                        continue
                    }
                    skies += 1
                    #expect(read.satellites.map(\.id) == sky.satellites.map(\.id), "\(name)")
                    for (r, s) in zip(read.satellites, sky.satellites) {
                        #expect(near(r.azimuth, s.azimuth, 1, bearing: true) && near(r.elevation, s.elevation, 1) && r.used == s.used, "\(name) \(s.id)")
                    }
                case .note:
                    // gpsd's JSON has no report for a receiver's TXT.
                    break
                }
            }
        }
        #expect(fixes > 100 && skies > 10)
    }

    @Test("every satellite gpsd's table numbers is printed in a SKY and read back as itself")
    func everySatelliteRoundTrips() {
        let all = Constellation.allCases.flatMap { c in SatelliteID.svids(of: c).map { SatelliteID(constellation: c, svid: $0) } }
        for chunk in stride(from: 0, to: all.count, by: 140).map({ Array(all[$0..<min(all.count, $0 + 140)]) }) {
            var w = ByteWriter()
            GPSDJSON.sky(SkyView(satellites: chunk.map { Satellite(id: $0, azimuth: 359.96) }), into: &w)
            guard case .sky(let read)? = GpsdJSONReports.report(w.bytes) else { Issue.record("SKY not read back"); continue }
            #expect(read.satellites.map(\.id) == chunk)
            #expect(read.satellites.allSatisfy { $0.azimuth == 0 })
        }
    }

    /// Equal within half a unit of the last printed digit (going round 360 for a bearing); both unknown is equal.
    private func near(_ read: Double?, _ value: Double?, _ decimals: Int, bearing: Bool = false) -> Bool {
        guard let read, let value else { return read == nil && value == nil }
        var d = abs(read - value)
        if bearing { d = min(d, 360 - d) }
        return d <= 0.5 * pow(10, -Double(decimals)) + 1e-9
    }
}
