import EngineCheck
import NMEA
import Testing

/// Inputs that once crashed gpsfix or let an impossible value through, each kept as it was
/// found (less the fuzz input's leading control byte, given here as `control`). They run
/// through the fuzz target's own body (`EngineCheck`), so a regression fails here as it would
/// under `make fuzz`.
@Suite("Crash regressions")
struct CrashRegressionTests {
    /// The input with its sentences framed and checksummed as a receiver would send them.
    private func stream(_ bodies: [String], control: UInt8 = 0) -> [UInt8] {
        var bytes: [UInt8] = [control]
        for body in bodies {
            let xor = body.utf8.reduce(0, ^)
            let hex = Array("0123456789ABCDEF".utf8)
            bytes += Array("$\(body)*".utf8) + [hex[Int(xor >> 4)], hex[Int(xor & 0xF)], 0x0D, 0x0A]
        }
        return bytes
    }

    @Test("fuzz 2026-12 #1: a coordinate with 17 decimals overflowed Int in the degrees split")
    func seventeenDecimals() {
        // Given the fuzzer's GLL, as it found it (no checksum) and framed; in one chunk and byte by byte
        for control: UInt8 in [0, 1] {
            let raw = [control] + Array("$GPGLL,.00000000000000000,N,0,E\r\n".utf8)
            // When the engine and every formatter run it; Then nothing traps and every invariant holds
            #expect(EngineCheck.run(raw) == [])
            #expect(EngineCheck.run(stream(["GPGLL,.00000000000000000,N,0,E"], control: control)) == [])
        }
        // And the position is read exactly: 0° 0.000…' N, 0° E
        let fixes = NMEAParser.events(of: Array("$GPGLL,.00000000000000000,N,0,E\r\n".utf8)).compactMap {
            if case .fix(let f) = $0 { f } else { nil }
        }
        #expect(fixes.first?.coordinate == Coordinate(latitude: 0, longitude: 0))
    }

    @Test("fuzz 2026-12 #2: a ZDA year near 2e9 overflowed epoch milliseconds in the climb")
    func hugeZDAYear() {
        // Given a ZDA of year 2018000000, then two GGAs with altitudes a second apart
        let input = stream([
            "GPZDA,,7,9,2018000000",
            "GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
            "GPGGA,120001,4807.038,N,01131.000,E,1,08,0.9,546.4,M,46.9,M,,",
        ])
        // When run; Then nothing traps, every invariant holds
        #expect(EngineCheck.run(input) == [])
        // And the year is out of range: counted, and no fix carries a date
        let parser = NMEAParser()
        var fixes: [Fix] = []
        parser.parse(Array(input.dropFirst())) { if case .fix(let f) = $0 { fixes.append(f) } }
        parser.finish { if case .fix(let f) = $0 { fixes.append(f) } }
        #expect(parser.statistics.sentences.outOfRange == 1)
        #expect(fixes.count == 2)
        #expect(fixes.allSatisfy { $0.timestamp?.date == nil })
        #expect(fixes.last?.climb == 1.0)
    }

    @Test("fuzz 2026-12 #3: PUBX's ellipsoidal height and a GGA's altitude 2.8 km apart made a geoid separation of -2771 m")
    func separationFromTwoSolutions() {
        // Given a GGA at 2835 m without a separation, then a PUBX,00 of the same second at 64 m
        // above the ellipsoid (the fuzzer's input held these among broken sentences)
        let input = stream([
            "GPGGA,120010.00,5332.70660,S,13916.20000,E,1,08,0.90,2835.0,M,,M,,",
            "PUBX,00,120010.00,5332.70660,S,13916.20000,E,64.0,G3,2.0,3.0,0.0,0.0,0.0,,0.9,1.0,0.8,8,0,0",
        ])
        // When run; Then every invariant holds: no separation the Earth does not have
        #expect(EngineCheck.run(input) == [])
        let fix = NMEAParser.events(of: input.dropFirst()).compactMap { if case .fix(let f) = $0 { f } else { nil } }.first
        #expect(fix?.geoidSeparation == nil)
        #expect(fix?.altitude == 2835)
        #expect(fix?.ellipsoidalAltitude == 64)
    }

    @Test("Digits past what any quantity needs are no overflow", arguments: [
        "GPGGA,123519.99999999999999999999,4807.03800000000000000000,N,01131.00000000000000000000,E,1,08,0.9,545.4,M,46.9,M,,",
        "GPGGA,123519,999999999999999999,N,01131.000,E,1,999999999999999999,0.9,999999999999999999.9,M,46.9,M,,",
        "GPRMC,123519,A,4807.038,N,01131.000,E,99999999999999999999999,084.4,230394,003.1,W",
        "GPZDA,123519,31,12,9223372036854775807,00,00",
        "GPGSV,99999999999999999,99999999999999999,99,99999,999,9999,99999",
    ])
    func longNumbers(body: String) {
        #expect(EngineCheck.run(stream([body])) == [])
        #expect(EngineCheck.run(stream([body], control: 3)) == [])
    }
}
