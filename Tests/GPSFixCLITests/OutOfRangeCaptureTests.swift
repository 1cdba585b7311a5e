import Foundation
import GPSTestSupport
import Testing

/// Captures/out-of-range.nmea: a receiver whose sentences carry impossible values here and
/// there (satellites used 2140, course 857.7, SNR 521, year 20180 …; its header counts them).
@Suite("A capture full of impossible values", .enabled(if: GPSFixBinary.isAvailable, "gpsfix binary not found"),
       .timeLimit(.minutes(1)))
struct OutOfRangeCaptureTests {
    /// The count the capture's header states ("N values out of range in all.").
    private func statedCount(_ path: String) throws -> Int {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.contains("values out of range in all") })
        return try #require(Int(line.split(separator: " ").first { Int($0) != nil } ?? ""))
    }

    private func number(_ o: [String: Any], _ key: String) -> Double? { (o[key] as? NSNumber)?.doubleValue }

    @Test("replays with exit 0, no impossible value in any TPV or SKY, and the summary counts them")
    func replay() async throws {
        // Given the capture
        let capture = projectCapture("out-of-range.nmea")
        // When it is replayed as gpsd's JSON
        let result = try #require(await gpsfix("watch", "--replay", capture, "--json", "--speed", "max"))
        // Then it ends normally, with a fix for each of its six seconds
        #expect(result.status == 0, "\(result)")
        let reports = result.stdoutLines.compactMap(jsonObject)
        let tpvs = reports.filter { $0["class"] as? String == "TPV" }
        #expect(tpvs.count == 6)
        #expect(Set(tpvs.compactMap { $0["time"] as? String }).count == 6, "one report per second")
        #expect(tpvs.allSatisfy { $0["mode"] as? Int == 3 }, "what was good in each epoch is kept")
        // And nothing in them is out of its range
        for t in tpvs {
            if let lat = number(t, "lat") { #expect((-90...90).contains(lat)) }
            if let lon = number(t, "lon") { #expect((-180...180).contains(lon)) }
            if let track = number(t, "track") { #expect((0..<360).contains(track)) }
            if let speed = number(t, "speed") { #expect(speed >= 0) }
            if let time = t["time"] as? String { #expect(time.hasPrefix("2025-03-10T10:30:0")) }
        }
        for sky in reports.filter({ $0["class"] as? String == "SKY" }) {
            for key in ["hdop", "vdop", "pdop"] { if let d = number(sky, key) { #expect(d > 0) } }
            for s in sky["satellites"] as? [[String: Any]] ?? [] {
                if let el = number(s, "el") { #expect((-90...90).contains(el)) }
                if let az = number(s, "az") { #expect((0..<360).contains(az)) }
                if let ss = number(s, "ss") { #expect((0...99).contains(ss)) }
            }
            if let used = sky["uSat"] as? Int, let seen = sky["nSat"] as? Int { #expect(used <= seen) }
        }
        // And replayed as lines, the closing summary counts every impossible value the header lists
        let text = try #require(await gpsfix("watch", "--replay", capture, "--speed", "max"))
        #expect(text.status == 0, "\(text)")
        #expect(text.stdoutLines.count == 6)
        #expect(text.stderr.contains("\(try statedCount(capture)) values out of range"), "\(text.stderr)")
    }
}

/// A receiver left in its simulator (demo) mode.
@Suite("A receiver in demo mode", .enabled(if: GPSFixBinary.isAvailable, "gpsfix binary not found"),
       .timeLimit(.minutes(1)))
struct DemoModeTests {
    private func demoCapture(_ dir: TemporaryDirectory) throws -> String {
        var text = ""
        for s in 0..<3 {
            for body in ["GPRMC,12000\(s),A,4807.038,N,01131.000,E,1.0,54.7,150624,,,S",
                         "GPGGA,12000\(s),4807.038,N,01131.000,E,8,08,0.9,545.4,M,46.9,M,,",
                         "GPGSA,A,3,04,05,09,12,24,25,29,31,,,,,2.5,1.3,2.1"] {
                text += NMEASentence.framed(body) + "\r\n"
            }
        }
        return try dir.write("demo.nmea", text)
    }

    @Test("its positions are no fix, unless --simulated asks for them")
    func simulated() async throws {
        // Given a capture from a receiver in demo mode
        let dir = try TemporaryDirectory()
        let capture = try demoCapture(dir)
        // When the first fix is asked for; Then there is none
        let refused = try #require(await gpsfix("fix", "--replay", capture))
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("ended without a fix"), "\(refused.stderr)")
        // And with --simulated the demo track's position is a fix of quality 'simulated'
        let accepted = try #require(await gpsfix("fix", "--replay", capture, "--simulated", "--json"))
        #expect(accepted.status == 0, "\(accepted)")
        let tpv = try #require(accepted.stdoutLines.first.flatMap(jsonObject))
        #expect(tpv["mode"] as? Int == 3)
        #expect(tpv["status"] as? Int == 8)
        // And --simulated does not pretend to steer gpsd
        let gpsd = try #require(await gpsfix("fix", "--gpsd", "--simulated"))
        #expect(gpsd.status == 64, "\(gpsd)")
    }
}
