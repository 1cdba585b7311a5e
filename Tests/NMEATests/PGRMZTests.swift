import NMEA
import Testing

/// Garmin's altitude sentence, the first added through the sentence table alone.
@Suite("PGRMZ")
struct PGRMZTests {
    @Test("altitude in feet and the fix's dimension", arguments: [
        ("PGRMZ,48,f,3", 14.6304, FixMode.threeD), ("PGRMZ,-1200,f,2", -365.76, .twoD), ("PGRMZ,,f,1", nil, .noFix),
        ("PGRMZ,48,m,3", nil, .threeD), ("PGRMZ,9999999,f,3", nil, .threeD),
    ] as [(String, Double?, FixMode?)])
    func decode(body: String, metres: Double?, mode: FixMode?) throws {
        // Given a PGRMZ; When it is decoded
        let x = try #require(decoded(body) as? PGRMZ)
        // Then the altitude is in metres (only feet are defined, and it stays within range)
        if let metres { #expect(near(x.altitude, metres, within: 1e-9)) } else { #expect(x.altitude == nil) }
        #expect(x.mode == mode)
    }

    @Test("a Garmin epoch without a GGA takes its altitude and its 3D from PGRMZ")
    func garminEpoch() {
        // Given (gpsd's garmin48 capture) a whole second, then a second of GLL and PGRMZ only
        let fixes = events(nmea([
            "GPRMC,225308,A,4527.458,S,16709.165,E,000.0,094.5,060601,024.1,E",
            "GPGGA,225308,4527.458,S,16709.165,E,1,05,2.1,14.7,M,1.1,M,,",
            "GPGSA,A,3,01,,,,13,20,22,,,,28,,3.1,2.1,2.0",
            "GPGLL,4527.458,S,16709.165,E,225309,A",
            "PGRMZ,48,f,3",
        ])).fixes
        // Then the second fix is 3D at 48 feet, and the GGA's own altitude wins in its epoch
        #expect(fixes.map(\.mode) == [.threeD, .threeD])
        #expect(fixes.first?.altitude == 14.7)
        #expect(near(fixes.last?.altitude, 14.6304, within: 1e-9))
    }

    @Test("a user-entered altitude (dimension 2) is no measurement: a 2D fix without one")
    func enteredAltitude() {
        let fixes = events(nmea(["GPGLL,4527.458,S,16709.165,E,225309,A", "PGRMZ,48,f,2"])).fixes
        #expect(fixes.map(\.mode) == [.twoD])
        #expect(fixes.first?.altitude == nil)
    }
}
