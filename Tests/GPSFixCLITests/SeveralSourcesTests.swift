import Foundation
import GPSTestSupport
import Testing

/// `watch` with several sources at once: each source's reports, told apart.
@Suite("gpsfix watch with several sources", .enabled(if: GPSFixBinary.isAvailable, "needs the built gpsfix"),
       .timeLimit(.minutes(1)))
struct SeveralSourcesTests {
    func twoCaptures() throws -> (TemporaryDirectory, String, String) {
        let dir = try TemporaryDirectory()
        let a = try dir.write("a.nmea", TestCapture.text((0..<4).map(TestCapture.epoch)))
        let b = try dir.write("b.nmea", TestCapture.text((10..<13).map(TestCapture.epoch)))
        return (dir, a, b)
    }

    @Test("Text lines begin with their source's name; each source's lines are those it gives alone")
    func labelledText() async throws {
        let (dir, a, b) = try twoCaptures()
        defer { withExtendedLifetime(dir) {} }
        let both = try #require(await gpsfix("watch", "--replay", a, "--replay", b, "--speed", "max"))
        let aloneA = try #require(await gpsfix("watch", "--replay", a, "--speed", "max"))
        let aloneB = try #require(await gpsfix("watch", "--replay", b, "--speed", "max"))

        #expect(both.status == 0, "\(both)")
        let fromA = both.stdoutLines.filter { $0.hasPrefix(a + ": ") }.map { String($0.dropFirst(a.count + 2)) }
        let fromB = both.stdoutLines.filter { $0.hasPrefix(b + ": ") }.map { String($0.dropFirst(b.count + 2)) }
        #expect(fromA == aloneA.stdoutLines)
        #expect(fromB == aloneB.stdoutLines)
        #expect(fromA.count + fromB.count == both.stdoutLines.count, "every line is labelled")
        #expect(both.stderr.contains("\(a): 20 sentences decoded, 4 epochs") && both.stderr.contains("\(b): 15 sentences decoded, 3 epochs"),
                "\(both.stderr)")
    }

    @Test("JSON lines are not labelled: their \"device\" says the source, as gpsd's do")
    func json() async throws {
        let (dir, a, b) = try twoCaptures()
        defer { withExtendedLifetime(dir) {} }
        let both = try #require(await gpsfix("watch", "--replay", a, "--replay", b, "--speed", "max", "--json"))
        #expect(both.status == 0)
        let devices = both.stdoutLines.compactMap { jsonObject($0)?["device"] as? String }
        #expect(devices.count == both.stdoutLines.count, "every line is JSON")
        #expect(devices.filter { $0 == a }.count == 8 && devices.filter { $0 == b }.count == 6, "\(devices)")
    }

    @Test("One source that fails is said at once, the others go on, and the exit is 1")
    func oneFails() async throws {
        let (dir, a, _) = try twoCaptures()
        defer { withExtendedLifetime(dir) {} }
        let words = try dir.write("words.txt", String(repeating: "no sentences here\n", count: 20))
        let result = try #require(await gpsfix("watch", "--replay", a, "--replay", words, "--speed", "max"))
        #expect(result.status == 1)
        #expect(result.stdoutLines.count == 4)
        #expect(result.stderr.contains("\(words)"), "\(result.stderr)")
        #expect(result.stderr.contains("1 of 2 sources failed"))
    }

    @Test("What shows one source refuses several; one source named twice, or fix with two, is a usage error")
    func refusals() async throws {
        let (dir, a, b) = try twoCaptures()
        defer { withExtendedLifetime(dir) {} }
        // Whatever the terminal: a TERM that cannot redraw falls back to lines only once what
        // was asked has been judged.
        for term in ["xterm-256color", "dumb"] {
            for output in ["--gpx", "--view"] {
                let result = try #require(await runGPSFix(["watch", "--replay", a, "--replay", b, output], launcher: ["/usr/bin/env", "TERM=\(term)"]))
                #expect(result.status == 64, "TERM=\(term) \(output): \(result)")
                #expect(result.stderr.contains("\(output) shows one source; with several, watch prints text, --json, --nmea"))
            }
        }
        let twice = try #require(await gpsfix("watch", "--replay", a, "--replay", a))
        #expect(twice.status == 64 && twice.stderr.contains("\(a) is named twice"))
        let fix = try #require(await gpsfix("fix", "--replay", a, "--replay", b))
        #expect(fix.status == 64 && fix.stderr.contains("--replay given twice"))
        let mixed = try #require(await gpsfix("fix", "--replay", a, "--gpsd"))
        #expect(mixed.status == 64 && mixed.stderr.contains("are different sources: choose one"))
    }
}
