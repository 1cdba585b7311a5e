@testable import GPSMQTT
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

    @Test("times: second 60 only at 23:59, a fraction all digits", arguments: [
        ("2024-06-15T03:12:07.000Z", true), ("2024-12-31T23:59:60.000Z", true), ("2024-06-15T12:59:60.000Z", false),
        ("2024-06-15T03:12:07.0a0Z", false), ("2024-06-15T03:12:07.000123Z", true), ("2024-06-15T03:12:07.12x4Z", false),
        ("2180-01-01T00:00:00.000Z", false),
    ])
    func times(_ text: String, _ read: Bool) {
        #expect((GpsdJSONReports.time(text) != nil) == read)
    }
}
