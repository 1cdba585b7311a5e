import NMEA
import Testing

/// Streams that lost sentences or began mid-cycle: each epoch is still reported once, with
/// what belongs to it.
@Suite("Damaged streams")
struct DamagedStreamTests {
    /// A receiver's cycle: RMC VTG GGA GSA, second `s`, with `knots` in both RMC and VTG.
    private func cycle(_ s: Int, knots: Double, rmc: Bool = true, vtg: Bool = true) -> [String] {
        let t = "1200\(s < 10 ? "0" : "")\(s)"
        var lines: [String] = []
        if rmc { lines.append("GPRMC,\(t),A,4807.038,N,01131.000,E,\(knots),54.7,150624,,,A") }
        if vtg { lines.append("GPVTG,54.7,T,,M,\(knots),N,,K,A") }
        lines.append("GPGGA,\(t),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        lines.append("GPGSA,A,3,04,05,09,12,24,25,29,31,,,,,2.5,1.3,2.1")
        return lines
    }

    @Test("a VTG after a lost RMC is the next second's, not a second report of the last")
    func vtgAfterLostRMC() {
        // Given three whole cycles, one that lost its VTG, then one that lost its RMC (its VTG
        // says 9 knots), then a whole one
        let lines = cycle(0, knots: 1) + cycle(1, knots: 1) + cycle(2, knots: 2, vtg: false)
            + cycle(3, knots: 9, rmc: false) + cycle(4, knots: 4)
        // When parsed
        let fixes = events(nmea(lines)).fixes
        // Then each second is reported once, each with its own speed
        #expect(fixes.map { $0.timestamp?.time.second } == [0, 1, 2, 3, 4])
        #expect(fixes.map { ($0.speed ?? 0) / (1852.0 / 3600) }.map { ($0 * 10).rounded() / 10 } == [1, 1, 2, 9, 4])
    }

    @Test("sentences after an end that came early still belong to their epoch")
    func earlyEnd() {
        // Given a receiver whose GSA once ended a cycle (its VTG was lost), then whole cycles
        // in which a GSV and an RMC follow the GSA
        var lines = ["GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", "GPGSA,A,3,04,05,09,,,,,,,,,,2.5,1.3,2.1"]
        for s in 1...3 {
            let t = "12000\(s)"
            lines += ["GPGGA,\(t),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
                      "GPGSA,A,3,04,05,09,,,,,,,,,,2.5,1.3,2.1",
                      "GPGSV,1,1,03,04,45,120,40,05,30,200,38,09,12,310,33",
                      "GPRMC,\(t),A,4807.038,N,01131.000,E,\(s).0,54.7,150624,,,A"]
        }
        // When parsed
        let out = events(nmea(lines))
        // Then each second is one epoch: its sky view and its RMC's speed are its own
        #expect(Set(out.fixes.map { $0.timestamp?.time.second }) == [0, 1, 2, 3])
        let last = out.fixes.last { $0.timestamp?.time.second == 3 }
        #expect(((last?.speed ?? 0) / (1852.0 / 3600) * 10).rounded() / 10 == 3)
        #expect(out.skies.count == 3)
    }

    @Test("a stream that begins mid-cycle marks its first epoch cut; one that begins at a cycle's start does not")
    func cutFirstEpoch() {
        // Given the same receiver joined at its GGA (mid-cycle), and at its RMC (the start)
        let joinedLate = Array((cycle(0, knots: 1) + cycle(1, knots: 1) + cycle(2, knots: 1)).dropFirst(2))
        let joinedAtStart = cycle(0, knots: 1) + cycle(1, knots: 1) + cycle(2, knots: 1)
        // When parsed; Then only the late join's first fix is marked, and only that one
        #expect(events(nmea(joinedLate)).fixes.map(\.isPartialEpoch) == [true, false, false])
        #expect(events(nmea(joinedAtStart)).fixes.map(\.isPartialEpoch) == [false, false, false])
    }

    @Test("a receiver in demo mode gives no fix, and the stream counts its simulated sentences")
    func demoMode() {
        // Given a receiver's simulator: GGA quality 8, RMC mode S, GSA 3D
        let lines = ["GPRMC,120000,A,4807.038,N,01131.000,E,1.0,54.7,150624,,,S",
                     "GPGGA,120000,4807.038,N,01131.000,E,8,08,0.9,545.4,M,46.9,M,,",
                     "GPGSA,A,3,04,05,09,12,24,25,29,31,,,,,2.5,1.3,2.1"]
        let (parser, out) = parsed(bytes(nmea(lines)))
        // Then its epoch is no fix, with no position, and both sentences are counted
        #expect(out.fixes.map(\.mode) == [.noFix])
        #expect(out.fixes.first?.coordinate == nil)
        #expect(parser.assembler.statistics.simulated == 2)
    }
}
