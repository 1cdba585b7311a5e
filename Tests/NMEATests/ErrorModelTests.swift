import Foundation
import NMEA
import Testing

/// One cycle of a receiver at Munich: RMC, GGA (quality `quality`), GSA with the DOPs given,
/// and the five satellites of `sky` when `listed`.
private func cycle(_ second: Int, north: Double = 0, quality: Int = 1, dops: String? = "2.5,1.3,2.1",
                   listed: Bool = true, variation: String = "", gbs: String? = nil, gst: String? = nil,
                   date: Bool = true) -> [String] {
    let t = String(format2(second))
    let lat = String(4807.038 + north)
    var out = [
        "GPRMC,1200\(t),A,\(lat),N,01131.000,E,10.0,054.7,\(date ? "120419" : ""),\(variation),A",
        "GPGGA,1200\(t),\(lat),N,01131.000,E,\(quality),08,0.9,545.4,M,46.9,M,,",
    ]
    if let dops { out.append("GPGSA,A,3,04,05,09,12,24,,,,,,,,\(dops)") }
    if listed { out += sky }
    if let gbs { out.append("GPGBS,1200\(t),\(gbs),,,,,") }
    if let gst { out.append("GPGST,1200\(t),\(gst)") }
    return out
}

private func format2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

/// Elevation and azimuth of satellites 4, 5, 9, 12 and 24.
private let sky = [
    "GPGSV,2,1,05,04,45,120,40,05,30,200,35,09,60,300,42,12,10,050,20",
    "GPGSV,2,2,05,24,70,010,45",
]

private func run(_ cycles: [[String]]) -> [EngineEvent] { events(nmea(cycles.flatMap { $0 })) }

/// gpsd's error model and DOP geometry (its `gpsd_error_model` and `fill_dop`), as the engine
/// reproduces them: the numbers a gpsd client reads.
@Suite("Error model")
struct ErrorModelTests {
    // numpy's inverse of GᵀG for the five satellites above (independent of the engine's).
    static let x = 1.1844571737018363, y = 0.914993581330588, v = 1.923746033059772
    static let t = 1.3943814024368584, g = 2.80806879285122

    @Test("The DOPs a receiver does not state come from the used satellites' geometry; stated ones win")
    func geometry() throws {
        let out = run([cycle(0, dops: ",,")])
        let sky = try #require(out.skies.first)
        #expect(abs((sky.dop.longitude ?? 0) - Self.x) < 1e-9 && abs((sky.dop.latitude ?? 0) - Self.y) < 1e-9)
        #expect(abs((sky.dop.vertical ?? 0) - Self.v) < 1e-9 && abs((sky.dop.time ?? 0) - Self.t) < 1e-9)
        #expect(abs((sky.dop.geometric ?? 0) - Self.g) < 1e-9)
        #expect(sky.dop.horizontal == 0.9, "the GGA's HDOP is a statement too")
        // A receiver's own DOPs stand, the geometry fills the rest.
        let stated = try #require(run([cycle(0)]).skies.first)
        #expect(stated.dop.position == 2.5 && stated.dop.horizontal == 1.3 && stated.dop.vertical == 2.1)
        #expect(abs((stated.dop.longitude ?? 0) - Self.x) < 1e-9)
    }

    @Test("Fewer than four usable satellites, or all in one direction, give no computed DOP")
    func tooFew() throws {
        func computed(_ gsa: String, _ gsv: [String]) throws -> Double? {
            let lines = ["GPRMC,120000,A,4807.038,N,01131.000,E,0.0,054.7,120419,,,A", gsa] + gsv
            return try #require(events(nmea(lines)).skies.first).dop.longitude
        }
        #expect(try computed("GPGSA,A,3,04,05,09,,,,,,,,,,2.5,1.3,2.1", sky) == nil, "three used")
        // Satellites gpsd leaves out: azimuth 360, elevation missing.
        let odd = ["GPGSV,2,1,05,04,45,120,40,05,30,200,35,09,60,300,42,12,10,360,20", "GPGSV,2,2,05,24,,010,45"]
        #expect(try computed("GPGSA,A,3,04,05,09,12,24,,,,,,,,2.5,1.3,2.1", odd) == nil)
        let oneWay = ["GPGSV,2,1,05,04,45,120,40,05,45,120,35,09,45,120,42,12,45,120,20", "GPGSV,2,2,05,24,45,120,45"]
        #expect(try computed("GPGSA,A,3,04,05,09,12,24,,,,,,,,2.5,1.3,2.1", oneWay) == nil, "one direction: singular")
        #expect(try computed("GPGSA,A,3,04,05,09,12,24,,,,,,,,2.5,1.3,2.1", sky).map { abs($0 - Self.x) < 1e-9 } == true)
    }

    @Test("eph, epx, epy, epv and sep are the DOPs times gpsd's range errors, a quarter with DGPS")
    func estimates() throws {
        let fix = try #require(run([cycle(0)]).fixes.first)
        let e = fix.estimatedErrors
        #expect(e.horizontal.map { abs($0 - 1.3 * 19) < 1e-9 } == true)
        #expect(e.vertical.map { abs($0 - 2.1 * 23) < 1e-9 } == true)
        #expect(e.spherical.map { abs($0 - 2.5 * 19) < 1e-9 } == true)
        #expect(e.longitude.map { abs($0 - Self.x * 15) < 1e-9 } == true)
        #expect(e.latitude.map { abs($0 - Self.y * 15) < 1e-9 } == true)
        #expect(e.time == 0.005)
        #expect(fix.horizontalAccuracy == e.horizontal && fix.accuracyIsEstimated)
        #expect(fix.verticalAccuracy == e.vertical)
        let dgps = try #require(run([cycle(0, quality: 2)]).fixes.first)
        #expect(dgps.estimatedErrors.horizontal.map { abs($0 - 1.3 * 4.75) < 1e-9 } == true)
        #expect(dgps.estimatedErrors.vertical.map { abs($0 - 2.1 * 5.75) < 1e-9 } == true)
        // Without a date there is no time to be in error.
        #expect(try #require(run([cycle(0, date: false)]).fixes.first).estimatedErrors.time == nil)
    }

    @Test("The receiver's own errors are its accuracies; gpsd's TPV keeps its estimates, and a GBS's")
    func receiverWins() throws {
        let gst = try #require(run([cycle(0, gst: "1.5,,,,0.3,0.4,0.9")]).fixes.first)
        #expect(gst.horizontalAccuracy.map { abs($0 - 0.5) < 1e-9 } == true && !gst.accuracyIsEstimated)
        #expect(gst.verticalAccuracy == 0.9)
        #expect(gst.estimatedErrors.horizontal.map { abs($0 - 1.3 * 19) < 1e-9 } == true, "gpsd leaves GST out of its TPV")
        let gbs = try #require(run([cycle(0, gbs: "2.0,3.0,4.5")]).fixes.first)
        #expect(gbs.estimatedErrors.latitude == 2.0 && gbs.estimatedErrors.longitude == 3.0)
        #expect(gbs.estimatedErrors.vertical == 4.5, "gpsd puts a GBS's errors in its TPV")
    }

    @Test("eps, epc and epd from the last epoch's fix, as gpsd derives them")
    func rates() throws {
        // Two cycles a second apart, 0.1' (185 m) north.
        let fixes = run([cycle(0), cycle(1, north: 0.1)]).fixes
        #expect(fixes.count == 2)
        #expect(fixes[0].speedAccuracy == nil && fixes[0].estimatedErrors.climb == nil, "nothing before the first")
        let e = fixes[1].estimatedErrors
        let larger = max(Self.x, Self.y) * 15
        #expect(e.speed.map { abs($0 - 2 * larger) < 1e-9 } == true)
        #expect(e.climb.map { abs($0 - 2 * 2.1 * 23) < 1e-9 } == true)
        let distance = try #require(fixes[0].coordinate?.distance(to: fixes[1].coordinate!))
        let expected = 2 * atanDegrees(larger / distance)
        #expect(e.course.map { abs($0 - expected) < 1e-6 } == true)
        #expect(fixes[1].speedAccuracy == e.speed && fixes[1].courseAccuracy == e.course)
        // Standing still: the error circle holds the last position, no course error is known.
        let still = run([cycle(0), cycle(1)]).fixes
        #expect(still[1].courseAccuracy == nil)
        // Two seconds apart: per second, half.
        let gap = run([cycle(0), cycle(2)]).fixes
        #expect(gap[1].estimatedErrors.climb.map { abs($0 - 2.1 * 23) < 1e-9 } == true)
    }

    @Test("The rates start from gpsd's old fix: the last one with another time, a cycle's PGRME and GBS in it")
    func ratesFromGpsdsOldFix() throws {
        let larger = max(Self.x, Self.y) * 15
        // A cycle that says nothing of the fix (a ZDA sent twice) does not lose it.
        let zda = run([cycle(0), ["GPZDA,120000,12,04,2019,00,00", "GPZDA,120000,12,04,2019,00,00"], cycle(1)]).fixes
        #expect(zda.last?.estimatedErrors.speed.map { abs($0 - 2 * larger) < 1e-9 } == true)
        // A cycle sent twice with one time: the repeat's rates are against the second before.
        let twice = run([cycle(0), cycle(1), cycle(1)]).fixes
        #expect(twice.count == 3 && twice[2].estimatedErrors.speed == twice[1].estimatedErrors.speed)
        #expect(twice[2].estimatedErrors.climb.map { abs($0 - 2 * 2.1 * 23) < 1e-9 } == true)
        // Garmin's PGRME, scaled to gpsd's 95 % (2.45 / 1.18), is the old fix's vertical error.
        let garmin = run([cycle(0) + ["PGRME,19.9,M,50.0,M,53.8,M"], cycle(1)]).fixes
        let climb = (50.0 * 2.45 / 1.18 + 2.1 * 23) / 1
        #expect(garmin.last?.estimatedErrors.climb.map { abs($0 - climb) < 1e-9 } == true)
        // A GBS's errors are the old fix's; this fix's own come from its DOPs.
        let gbs = run([cycle(0, gbs: "2.0,3.0,4.5"), cycle(1, gbs: "2.0,3.0,4.5")]).fixes
        #expect(gbs.last?.estimatedErrors.speed.map { abs($0 - (3.0 + larger)) < 1e-9 } == true)
        #expect(gbs.last?.estimatedErrors.climb.map { abs($0 - (4.5 + 2.1 * 23)) < 1e-9 } == true)
        #expect(gbs.last?.estimatedErrors.longitude == 3.0, "the TPV still carries the GBS's")
        // A receiver without DOPs has only its GBS's.
        let bare = run([cycle(0, dops: nil, listed: false, gbs: "2.0,3.0,4.5"),
                        cycle(1, dops: nil, listed: false, gbs: "2.0,3.0,4.5")]).fixes
        #expect(bare.last?.estimatedErrors.speed == 6.0)
    }

    @Test("A cycle that states no dimension keeps the last stated 3D for epv, as gpsd's merged fix does")
    func lastStatedDimension() throws {
        // An eTrex: RMC alone every other second, GGA and GSA in between (185 m on, so that
        // the GGA's altitude is not carried to it).
        let rmc = ["GPRMC,120001,A,4807.138,N,01131.000,E,10.0,054.7,120419,,,A"]
        let fixes = run([cycle(0), rmc]).fixes
        #expect(fixes.count == 2 && fixes[1].mode == .twoD, "the receiver's own dimension stays")
        #expect(fixes[1].estimatedErrors.vertical.map { abs($0 - 2.1 * 23) < 1e-9 } == true)
        // Said 2D last: no vertical error.
        let twoD = run([cycle(0).map { $0.replacingOccurrences(of: "GPGSA,A,3", with: "GPGSA,A,2") }, rmc]).fixes
        #expect(twoD.last?.estimatedErrors.vertical == nil)
    }

    @Test("A GSA alone naming other satellites leaves the geometry until a sky listing, as gpsd's fill_dop")
    func geometryOnListing() throws {
        let other = "GPGSA,A,3,04,05,09,12,,,,,,,,,2.5,1.3,2.1"
        let fixes = run([cycle(0, dops: ",,"), cycle(1, dops: nil, listed: false) + [other.replacingOccurrences(of: "2.5,1.3,2.1", with: ",,")],
                         cycle(2, dops: nil) + [other.replacingOccurrences(of: "2.5,1.3,2.1", with: ",,")]]).fixes
        #expect(fixes.count == 3)
        #expect(fixes[1].dop.longitude.map { abs($0 - Self.x) < 1e-9 } == true, "no GSV: the last geometry")
        #expect(fixes[2].dop.longitude.map { abs($0 - Self.x) > 1e-6 } == true, "listed: four satellites now")
    }

    @Test("A receiver's stated DOPs stand until it states them again, as gpsd keeps them")
    func statedDOPsPersist() throws {
        let fixes = run([cycle(0), cycle(1, dops: nil, listed: false)]).fixes
        #expect(fixes[1].dop.position == 2.5 && fixes[1].dop.vertical == 2.1)
        #expect(fixes[1].dop.horizontal == 0.9, "restated by the GGA")
        #expect(fixes[1].estimatedErrors.longitude.map { abs($0 - Self.x * 15) < 1e-9 } == true, "and the last sky")
    }

    @Test("Magnetic variation from the WMM where the receiver sends none or 0.0; the compass's course")
    func magnetic() throws {
        let none = try #require(run([cycle(0)]).fixes.first)
        let here = try #require(none.coordinate)
        let model = try #require(MagneticModel.declination(latitude: here.latitude, longitude: here.longitude))
        #expect(abs(model - 3.3) < 0.1, "Munich, WMM2015 at 2020.0")
        #expect(none.magneticVariation == model)
        let zero = try #require(run([cycle(0, variation: "0.0,E")]).fixes.first)
        #expect(zero.magneticVariation == model, "0.0 is a receiver's blank")
        let stated = try #require(run([cycle(0, variation: "3.1,W")]).fixes.first)
        #expect(stated.magneticVariation == -3.1)
        // Course 54.7° true with 3.1° west: a compass reads 57.8°; gpsd's magtrack is 51.6°.
        #expect(stated.magneticCourse.map { abs($0 - 57.8) < 1e-9 } == true)
        #expect(stated.gpsdMagneticTrack.map { abs($0 - 51.6) < 1e-9 } == true)
        // A VTG's magnetic course is the receiver's word, for both.
        let vtg = events(nmea(cycle(0, variation: "3.1,W") + ["GPVTG,054.7,T,057.9,M,10.0,N,18.5,K,A"])).fixes
        #expect(vtg.last?.magneticTrack == 57.9 && vtg.last?.magneticCourse == 57.9 && vtg.last?.gpsdMagneticTrack == 57.9)
    }
}

/// atan in degrees, for the expected course error (the test's own, from the C library).
private func atanDegrees(_ x: Double) -> Double {
    atan(x) * 180 / Double.pi
}
