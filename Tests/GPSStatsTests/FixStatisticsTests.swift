import GPSStats
import NMEA
import Testing

@Suite("A run's figures (gpsfix stats)")
struct FixStatisticsTests {
    private func fix(_ latitude: Double, _ longitude: Double, at ms: Int? = nil, mode: FixMode = .threeD,
                     altitude: Double? = nil, hdop: Double? = nil) -> Fix {
        Fix(coordinate: .init(latitude: latitude, longitude: longitude), ellipsoidalAltitude: altitude,
            dop: DilutionOfPrecision(horizontal: hdop), timestamp: ms.map { FixTime(date: nil, time: TimeOfDay(milliseconds: $0)) },
            mode: mode)
    }

    @Test("Fixes on a circle of known radius: the mean is its centre, CEP50 and CEP95 its radius, σ its radius/√2")
    func circle() throws {
        // 360 fixes 10 m from a point, one a degree: every distance is 10 m, the mean is the
        // centre, and each axis's deviation is 10/√2 (× √(n/(n−1)) for the sample's n − 1).
        let centre = (latitude: 48.1173, longitude: 11.5167)
        let scale = LocalOffsets(latitude: centre.latitude)
        var collector = FixStatistics.Collector()
        for degree in 0..<360 {
            let angle = Double(degree) * .pi / 180
            let north = 10 * cosine(angle), east = 10 * sine(angle)
            collector.add(fix(centre.latitude + north / scale.metresPerDegreeNorth, centre.longitude + east / scale.metresPerDegreeEast))
        }
        let scatter = try #require(collector.statistics.scatter)
        #expect(abs(scatter.latitude - centre.latitude) < 1e-10 && abs(scatter.longitude - centre.longitude) < 1e-10)
        #expect(abs(scatter.cep50 - 10) < 1e-3 && abs(scatter.cep95 - 10) < 1e-3 && abs(scatter.maximum - 10) < 1e-3, "\(scatter.cep50) \(scatter.cep95)")
        let sigma = 10 / 2.0.squareRoot() * (360.0 / 359).squareRoot()
        #expect(abs(scatter.sigmaNorth - sigma) < 1e-3 && abs(scatter.sigmaEast - sigma) < 1e-3, "\(scatter.sigmaNorth) \(scatter.sigmaEast)")
        #expect(abs(scatter.drms2 - 2 * (2 * sigma * sigma).squareRoot()) < 1e-9)
        #expect(abs(scatter.cepFromSigma - 0.5887 * 2 * sigma) < 1e-9 && abs(scatter.r95 - 1.2239 * 2 * sigma) < 1e-9)
        #expect(scatter.altitude == nil && scatter.sigmaUp == nil)
    }

    @Test("CEP50 and CEP95 are counted at rank ⌊n·p⌋ of the distances, as gpsprof counts them")
    func counted() throws {
        // 100 fixes due north of the first at 0, 1, …, 99 cm: the mean is 49.5 cm north.
        let scale = LocalOffsets(latitude: 40)
        var collector = FixStatistics.Collector()
        for cm in 0..<100 { collector.add(fix(40 + Double(cm) / 100 / scale.metresPerDegreeNorth, -105)) }
        let scatter = try #require(collector.statistics.scatter)
        let distances = (0..<100).map { abs(Double($0) / 100 - 0.495) }.sorted()
        #expect(abs(scatter.cep50 - distances[50]) < 1e-6 && abs(scatter.cep95 - distances[95]) < 1e-6, "\(scatter.cep50) \(scatter.cep95)")
        #expect(abs(scatter.sigmaEast) < 1e-9)
    }

    @Test("Either side of the antimeridian, fixes are metres apart and the mean is on it")
    func antimeridian() throws {
        var collector = FixStatistics.Collector()
        for longitude in [179.99999, -179.99999, 179.99999, -179.99999] { collector.add(fix(-17, longitude)) }
        let scatter = try #require(collector.statistics.scatter)
        #expect(abs(abs(scatter.longitude) - 180) < 1e-9, "\(scatter.longitude)")
        #expect(scatter.maximum < 2 && scatter.sigmaEast < 2, "\(scatter.maximum) \(scatter.sigmaEast)")
    }

    @Test("Epochs by mode, the first fix's delay, and the update interval across midnight")
    func timing() throws {
        var collector = FixStatistics.Collector()
        let day = 86_400_000
        collector.add(Fix(timestamp: FixTime(date: nil, time: TimeOfDay(milliseconds: day - 3000))))
        collector.add(Fix(timestamp: FixTime(date: nil, time: TimeOfDay(milliseconds: day - 2000))))
        collector.add(fix(1, 1, at: day - 1000, mode: .twoD, hdop: 2))
        collector.add(fix(1, 1, at: day - 1000, mode: .twoD, hdop: 2))   // the same time again: no update
        collector.add(fix(1, 1, at: 0, altitude: 10, hdop: 1))
        collector.add(fix(1, 1, at: 2000, altitude: 12, hdop: 1))
        let s = collector.statistics
        #expect(s.epochs == 6 && s.noFix == 2 && s.twoD == 2 && s.threeD == 2 && s.fixes == 4)
        #expect(s.timeToFirstFix == 2)
        let interval = try #require(s.interval)
        #expect(interval.count == 4 && interval.median == 1 && interval.maximum == 2, "\(interval)")
        let scatter = try #require(s.scatter)
        #expect(scatter.altitude == 11 && scatter.sigmaUp.map { abs($0 - 2.0.squareRoot()) < 1e-12 } == true)
        let hdop = try #require(s.hdop)
        #expect(hdop.count == 4 && hdop.minimum == 1 && hdop.maximum == 2)
    }

    @Test("No fix, no figures: nil, never zeros")
    func empty() {
        var collector = FixStatistics.Collector()
        collector.add(Fix())
        let s = collector.statistics
        #expect(s.epochs == 1 && s.fixes == 0 && s.scatter == nil && s.timeToFirstFix == nil && s.interval == nil && s.hdop == nil)
    }

    @Test("Positions past the limit are counted, not kept")
    func limit() throws {
        var collector = FixStatistics.Collector(limit: 10)
        for i in 0..<25 { collector.add(fix(10 + Double(i) * 1e-6, 10, at: i * 1000)) }
        let s = collector.statistics
        #expect(s.fixes == 25 && s.scatter?.count == 10 && s.positionsLeftOut == 15 && s.interval?.count == 10)
    }

    @Test("Satellites per constellation: seen and used per sky view, SNR over those heard")
    func sky() throws {
        var collector = FixStatistics.Collector()
        func satellite(_ constellation: Constellation, _ svid: Int, snr: Double?, used: Bool) -> Satellite {
            Satellite(id: SatelliteID(constellation: constellation, svid: svid), snr: snr, used: used)
        }
        collector.add(SkyView(satellites: [satellite(.gps, 1, snr: 40, used: true), satellite(.gps, 2, snr: 30, used: false),
                                           satellite(.glonass, 65, snr: nil, used: false)]))
        collector.add(SkyView(satellites: [satellite(.gps, 1, snr: 44, used: true), satellite(.gps, 2, snr: 0, used: true)]))
        collector.add(SkyView())
        let s = collector.statistics
        #expect(s.skyViews == 2)
        let gps = try #require(s.constellations.first { $0.constellation == .gps })
        #expect(gps.meanSeen == 2 && gps.meanUsed == 1.5 && gps.maximumUsed == 2 && gps.meanSNR == 38 && gps.maximumSNR == 44, "\(gps)")
        let glonass = try #require(s.constellations.first { $0.constellation == .glonass })
        #expect(glonass.meanSeen == 0.5 && glonass.meanUsed == 0 && glonass.meanSNR == nil)
    }

    @Test("Hostile numbers: non-finite values are left out, and a pole stays a pole")
    func hostile() throws {
        #expect(Distribution([.nan, .infinity]) == nil)
        #expect(Distribution([1, .nan, 3])?.mean == 2)
        var collector = FixStatistics.Collector()
        collector.add(fix(90, 0))
        collector.add(fix(90, 180))
        let scatter = try #require(collector.statistics.scatter)
        #expect(scatter.latitude == 90 && scatter.maximum.isFinite && scatter.sigmaNorth.isFinite)
    }

    private func sine(_ x: Double) -> Double { cosine(x - .pi / 2) }
    private func cosine(_ x: Double) -> Double {
        // Enough terms of the series for 1e-12 over a turn, without importing the C library.
        var r = x.truncatingRemainder(dividingBy: 2 * .pi)
        if r > .pi { r -= 2 * .pi } else if r < -.pi { r += 2 * .pi }
        var term = 1.0, sum = 1.0
        for k in stride(from: 2, through: 40, by: 2) {
            term *= -r * r / Double((k - 1) * k)
            sum += term
        }
        return sum
    }
}
