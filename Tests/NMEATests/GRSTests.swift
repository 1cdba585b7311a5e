import Foundation
import NMEA
import Testing

private let polarx2Path = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/captures/gpsd/polarx2.log")

/// Range residuals, for integrity: each on its satellite in the sky view, by the matching GSA's order.
@Suite("GRS")
struct GRSTests {
    @Test("a Septentrio PolarRx2's GRS: time, mode 1, three residuals of twelve fields")
    func polarx2() throws {
        let x = try #require(decoded("GPGRS,112257.00,1,-0.1,-0.3,-0.1,,,,,,,,,") as? GRS)
        #expect(x.time == TimeOfDay(hour: 11, minute: 22, second: 57))
        #expect(x.isRecomputed == true)
        #expect(x.residuals.count == 12)
        #expect(Array(x.residuals.prefix(4)) == [-0.1, -0.3, -0.1, nil])
        #expect(x.systemID == nil && x.signalID == nil && x.outOfRange == 0)
    }

    @Test("NMEA 4.10: system and signal IDs after the twelve residuals; mode 0")
    func nmea410() throws {
        let x = try #require(decoded("GNGRS,082632.00,0,0.54,0.83,1.00,1.02,-2.12,,,,,,,,3,7") as? GRS)
        #expect(x.isRecomputed == false)
        #expect(Array(x.residuals.prefix(6)) == [0.54, 0.83, 1.00, 1.02, -2.12, nil])
        #expect(x.systemID == 3 && x.signalID == 7)
    }

    @Test("a residual past ±1000 m, a mode other than 0 or 1: unknown, and counted")
    func hostile() throws {
        let x = try #require(decoded("GPGRS,112257.00,2,1000.5,-0.3,abc,,,,,,,,,") as? GRS)
        #expect(x.isRecomputed == nil)
        #expect(Array(x.residuals.prefix(3)) == [nil, -0.3, nil])
        #expect(x.outOfRange == 2)
    }

    @Test("each residual goes to the satellite at its place in the GSA, in the sky view")
    func onTheSky() throws {
        // Given a PolarRx2 cycle: GRS before its GSA, three satellites used
        let skies = events(nmea([
            "GPGGA,112257.00,3844.24011,N,00908.43828,W,1,03,10.5,,,,,,",
            "GPRMC,112257.00,A,3844.24011,N,00908.43828,W,0.1,339.1,220312,5.6,E,A",
            "GPGRS,112257.00,1,-0.1,-0.3,0.25,,,,,,,,,",
            "GPGSA,A,2,10,13,23,,,,,,,,,,10.5,10.5,",
            "GPGSV,2,1,05,02,46,305,,10,65,329,44,13,62,040,44,17,06,199,",
            "GPGSV,2,2,05,23,31,049,45",
        ])).skies
        // Then satellites 10, 13 and 23 carry the residuals in the GSA's order; the others none
        let sky = try #require(skies.first)
        let residuals = Dictionary(uniqueKeysWithValues: sky.satellites.map { ($0.id.svid, $0.rangeResidual) })
        #expect(residuals == [2: nil, 10: -0.1, 13: -0.3, 17: nil, 23: 0.25])
    }

    @Test("NMEA 4.10: each constellation's GRS goes with its own GSA, whatever their order")
    func perConstellation() throws {
        let skies = events(nmea([
            "GNRMC,082632.00,A,5132.0,N,00006.0,W,0.0,,010125,,,A,V",
            "GNGSA,A,3,05,07,,,,,,,,,,,1.5,0.9,1.2,1",
            "GNGSA,A,3,11,,,,,,,,,,,,1.5,0.9,1.2,3",
            "GNGRS,082632.00,1,2.5,,,,,,,,,,,,3,7",
            "GNGRS,082632.00,1,-1.25,0.75,,,,,,,,,,,1,1",
            "GPGSV,1,1,02,05,40,100,40,07,30,200,38,1",
            "GAGSV,1,1,01,11,50,300,42,7",
        ])).skies
        let sky = try #require(skies.first)
        let residual = { (c: Constellation, svid: Int) in sky.satellites.first { $0.id == SatelliteID(constellation: c, svid: svid) }?.rangeResidual }
        #expect(residual(.gps, 5) == -1.25 && residual(.gps, 7) == 0.75 && residual(.galileo, 11) == 2.5)
    }

    @Test("gpsd's polarx2 capture: every sky view's used satellites carry the cycle's residuals",
          .enabled(if: FileManager.default.fileExists(atPath: polarx2Path.path), "../shared/captures/gpsd is not beside the project"))
    func polarx2Capture() throws {
        // Given the PolarRx2's capture (GSA 10, 13, 23; the first GRS -0.1, -0.3, -0.1)
        let skies = parsed([UInt8](try Data(contentsOf: polarx2Path))).events.skies
        // Then each sky view's used satellites, and only they, have residuals
        #expect(skies.count >= 5)
        for sky in skies {
            #expect(sky.satellites.filter { $0.rangeResidual != nil }.map(\.id.svid) == sky.satellites.filter(\.used).map(\.id.svid))
        }
        #expect(skies.first?.satellites.filter(\.used).map(\.rangeResidual) == [-0.1, -0.3, -0.1])
    }

    @Test("a residual is kept to the centimetre, and a satellite's JSON leaves it out when unknown")
    func storage() throws {
        var satellite = Satellite(id: SatelliteID(constellation: .gps, svid: 5), rangeResidual: -0.333)
        #expect(satellite.rangeResidual == -0.33)
        satellite.rangeResidual = .nan
        #expect(satellite.rangeResidual == nil)
        let text = String(decoding: try JSONEncoder().encode(satellite), as: UTF8.self)
        #expect(!text.contains("rangeResidual"))
        satellite.rangeResidual = 12.5
        #expect(try JSONDecoder().decode(Satellite.self, from: JSONEncoder().encode(satellite)) == satellite)
    }
}
