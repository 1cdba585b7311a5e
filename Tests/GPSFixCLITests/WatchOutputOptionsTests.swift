import GPSTestSupport
import Foundation
import Testing

/// gpspipe's output choices on `watch`: `-n N` stops after N reports, `-t` stamps each line.
@Suite("gpsfix watch -n and -t", .enabled(if: GPSFixBinary.isAvailable), .timeLimit(.minutes(1)))
struct WatchOutputOptionsTests {
    @Test("-n N stops after N reports, counting TPV and SKY lines alike")
    func countLimit() async throws {
        // Given a capture with 10 epochs (20 reports in JSON)
        let dir = try TemporaryDirectory()
        let path = try dir.drive(epochs: 10)

        // When
        let json = try #require(await gpsfix("watch", "--replay", path, "--json", "--speed", "max", "-n", "3"))
        let text = try #require(await gpsfix("watch", "--replay", path, "--speed", "max", "-n", "4"))
        let nmea = try #require(await gpsfix("watch", "--replay", path, "--nmea", "--speed", "max", "-n", "7"))

        // Then
        #expect(json.status == 0, "\(json)")
        #expect(json.stdoutLines.compactMap { jsonObject($0)?["class"] as? String } == ["TPV", "SKY", "TPV"])
        #expect(text.status == 0)
        #expect(text.stdoutLines == (0..<4).map(GPSFixBinaryTests.line))
        // Sentences keep their CR LF, which Swift reads as one Character.
        let sentences = nmea.stdout.split(separator: "\r\n")
        #expect(sentences.count == 7, "\(nmea)")
        #expect(sentences.first?.hasPrefix("$GPRMC,120000.00,") == true)
    }

    @Test("-n on a looping replay ends it, which nothing else but Ctrl-C would")
    func countEndsLoop() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.drive(epochs: 2)

        let result = try #require(await gpsfix("watch", "--replay", path, "--loop", "--speed", "max", "--json", "-n", "50"))

        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.count == 50)
    }

    @Test("-n takes a whole number above zero", arguments: ["0", "-1", "x", "1.5"])
    func badCount(_ value: String) async throws {
        let result = try #require(await gpsfix("watch", "--replay", "x.nmea", "-n", value))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix("gpsfix: watch: -n takes a whole number above 0, not '\(value)'"))
    }

    @Test("-t prefixes each line with the UTC time of writing; the line itself is unchanged")
    func timestamps() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.drive()
        let before = Date()

        let plain = try #require(await gpsfix("watch", "--replay", path, "--json", "--speed", "max"))
        // In a zone far from UTC, to see that the stamp is local time as gpspipe's is.
        let stamped = try #require(await runGPSFix(["watch", "--replay", path, "--json", "--speed", "max", "-t"],
                                                   launcher: ["/usr/bin/env", "TZ=Asia/Kolkata"]))

        #expect(stamped.status == 0)
        #expect(stamped.stdoutLines.count == plain.stdoutLines.count)
        // gpspipe -t's "%F %T": 2026-11-30 12:40:00
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "Asia/Kolkata")
        format.dateFormat = "yyyy-MM-dd HH:mm:ss"
        for (line, original) in zip(stamped.stdoutLines, plain.stdoutLines) {
            let parts = line.split(separator: ": ", maxSplits: 1).map(String.init)
            #expect(parts.count == 2 && parts[1] == original, "\(line)")
            #expect(parts[0].count == 19, "\(parts[0])")
            let when = try #require(format.date(from: parts[0]), "not gpspipe's stamp: \(parts[0])")
            #expect(when.timeIntervalSince(before) > -2 && when.timeIntervalSinceNow < 2, "\(parts[0]) is not now, in local time")
        }
    }
}

@Suite("gpsfix watch: output combinations", .enabled(if: GPSFixBinary.isAvailable), .timeLimit(.minutes(1)))
struct WatchOutputCombinationTests {
    @Test("-t applies to lines only: with --gpx or --view it is a usage error", arguments: ["--gpx", "--view"])
    func timestampsNeedLines(_ output: String) async throws {
        let dir = try TemporaryDirectory()
        let result = try #require(await gpsfix("watch", "--replay", try dir.drive(), output, "-t"))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("-t stamps lines"))
    }
}
