import Foundation
import GPSTestSupport
import Glibc
import Testing

/// `--nmea-tcp` from the command line, against socat serving bytes on a loopback port as a
/// receiver or a phone app serving NMEA does.
@Suite("gpsfix --nmea-tcp", .serialized, .timeLimit(.minutes(1)),
       .enabled(if: ServeTools.has("/usr/bin/socat") && GPSFixBinary.isAvailable, "needs /usr/bin/socat and the built gpsfix"))
struct NetworkSourceTests {
    /// socat serving `file` to one client on a free port, then exiting; stopped by PID.
    func serve(_ file: String) async throws -> (port: Int, pid: pid_t) {
        let port = try freeLoopbackPort()
        let pid = try spawnQuietly(["/usr/bin/socat", "-u", "FILE:\(file)", "TCP-LISTEN:\(port),reuseaddr,bind=127.0.0.1"])
        // Listening, seen without connecting (a connection would be the one socat serves).
        _ = await waitUntil(.seconds(5)) {
            (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8))?.contains(String(format: ":%04X 00000000:0000 0A", port)) ?? false
        }
        return (port, pid)
    }

    func stop(_ pid: pid_t) {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    @Test("watch --nmea-tcp --json prints the TPVs a replay of the same bytes prints")
    func watchStream() async throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("six.nmea", TestCapture.text((0..<6).map(TestCapture.epoch)))
        let (port, socat) = try await serve(file)
        defer { stop(socat) }
        let streamed = try #require(await gpsfix("watch", "--nmea-tcp", "127.0.0.1:\(port)", "--json", "-n", "12"))
        let replayed = try #require(await gpsfix("watch", "--replay", file, "--json", "--speed", "max", "-n", "12"))
        #expect(streamed.status == 0, "\(streamed)")
        let device = "\"device\":\"127.0.0.1:\(port)\""
        let tpvs = streamed.stdoutLines.filter { $0.contains("\"class\":\"TPV\"") }
        #expect(tpvs.count == 6)
        #expect(tpvs.allSatisfy { $0.contains(device) })
        #expect(tpvs.map { $0.replacingOccurrences(of: device, with: "\"device\":\"\(file)\"") }
                == replayed.stdoutLines.filter { $0.contains("\"class\":\"TPV\"") })
        #expect(streamed.stderr.contains("gpsfix: 127.0.0.1:\(port): open, waiting for a fix"))
    }

    @Test("record FILE --nmea-tcp keeps every byte as received, noise included, through a dropped stream")
    func recordStream() async throws {
        let dir = try TemporaryDirectory()
        // Bytes as a receiver might send them: a line of noise, a sentence cut by a reset.
        let served = "garbage \u{01}\u{02}\r\n" + TestCapture.text((0..<3).map(TestCapture.epoch)) + "$GPGGA,1200"
        let file = try dir.write("served.nmea", served)
        let (port, socat) = try await serve(file)
        defer { stop(socat) }
        let out = dir.path + "/rec.nmea"
        let recorder = try await GPSFixProcess(["record", out, "--nmea-tcp", "127.0.0.1:\(port)"],
                                               announcement: "closed by the other end")
        // The drop is a gap to wait through, not the end of the recording.
        #expect(await waitUntil(.seconds(5)) { recorder.stderr.contains("reconnecting (attempt 1)") }, "\(recorder.stderr)")
        #expect(await recorder.stop(SIGINT) == 0, "\(recorder.stderr)")
        let recorded = try String(contentsOfFile: out, encoding: .utf8)
        let header = recorded.split(separator: "\n").prefix { $0.hasPrefix("#") }
        #expect(header.contains("# Source: tcp://127.0.0.1:\(port)"))
        #expect(String(recorded.dropFirst(header.map { $0.count + 1 }.reduce(0, +))) == served)
        #expect(recorder.stderr.contains("bytes recorded in \(out)"))
    }

    @Test("A peer that does not answer is a clear error (exit 1); a malformed address a usage error (64)")
    func failures() async throws {
        let port = try freeLoopbackPort()
        let refused = try #require(await gpsfix("fix", "--nmea-tcp", "127.0.0.1:\(port)"))
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Cannot connect to 127.0.0.1:\(port): connection refused"))
        for bad in ["nohost", "host:0", "host:x", ":10110", "[::1]10110"] {
            let result = try #require(await gpsfix("watch", "--nmea-tcp", bad))
            #expect(result.status == 64, "\(bad): \(result)")
        }
        let both = try #require(await gpsfix("fix", "--nmea-tcp", "127.0.0.1:\(port)", "--gpsd"))
        #expect(both.status == 64)
    }
}
