import Foundation
import GPSTestSupport
import Synchronization
import Testing

/// `serve --nmea-listen` and `--nmea-udp` read by the programs people point at NMEA feeds:
/// gpsd itself (tcp:// and udp:// sources) and socat. gpsd must see the fixes `gpsfix watch`
/// sees in the same capture; socat must get the capture's bytes.
@Suite("gpsfix serve's NMEA over TCP and UDP, read by gpsd and socat", .enabled(if: GPSFixBinary.isAvailable),
       .timeLimit(.minutes(1)))
struct ServeNMEAFeedTests {
    static let gpsd = "/usr/sbin/gpsd"
    static let socat = "/usr/bin/socat"
    static var hasGpsd: Bool { ServeTools.has(gpsd) && ServeTools.has(ServeTools.gpspipe) }

    @Test("socat on --nmea-listen gets the capture's sentences byte for byte, each with CR LF",
          .enabled(if: ServeTools.has(socat)))
    func socatGetsTheBytes() async throws {
        // Given serve replaying a capture at fifty times its pace (3.6 s), with an NMEA port
        let capture = projectCapture("drive-1hz.nmea")
        let serve = try await ServeProcess(["--replay", capture, "--speed", "50", "--nmea-listen", "127.0.0.1:0"])
        let port = try #require(Self.nmeaPort(serve.stderr), "\(serve.stderr)")

        // When socat reads it until three seconds pass without a byte (-T): the replay has ended
        let result = try await runTool(Self.socat, ["-u", "-T", "3", "TCP:127.0.0.1:\(port)", "-"], within: .seconds(30))
        #expect(await serve.stop() == 0)

        // Then what it got is whole sentences, the capture's own, in order with their CR LF:
        // the capture from the moment socat joined
        let got = result.out
        let sentences = try Self.sentences(capture)
        let all = sentences.joined()
        #expect(result.status == 0, "\(result.err)")
        #expect(got.hasPrefix("$") && got.hasSuffix("\r\n"), "\(got.prefix(80))")
        #expect(all.hasSuffix(got), "the received bytes are the capture's last \(got.utf8.count) bytes of sentences")
        #expect(got.utf8.count > 10_000, "most of the capture came: \(got.utf8.count) bytes")
    }

    @Test("gpsd reading tcp:// from --nmea-listen reports the fixes gpsfix watch reports from the capture",
          .enabled(if: hasGpsd))
    func gpsdOverTCP() async throws {
        // Given serve with an NMEA port, and a gpsd reading it as a network receiver
        let capture = projectCapture("drive-1hz.nmea")
        let serve = try await ServeProcess(["--replay", capture, "--speed", "10", "--nmea-listen", "127.0.0.1:0"])
        let nmeaPort = try #require(Self.nmeaPort(serve.stderr), "\(serve.stderr)")
        let gpsdPort = try freeLoopbackPort()
        let gpsd = try DaemonProcess([Self.gpsd, "-N", "-n", "-S", String(gpsdPort), "tcp://127.0.0.1:\(nmeaPort)"])
        try #require(await waitUntil(.seconds(5)) { Self.accepts(gpsdPort) }, "gpsd did not start")

        // When gpspipe watches gpsd for four seconds (about 40 epochs)
        try await Self.compareWithWatch(capture: capture, gpsdPort: gpsdPort)
        gpsd.kill()
        #expect(await serve.stop() == 0)
    }

    @Test("gpsd reading udp:// from --nmea-udp reports the fixes gpsfix watch reports from the capture",
          .enabled(if: hasGpsd))
    func gpsdOverUDP() async throws {
        // Given a gpsd listening for NMEA datagrams, and serve sending them there
        let capture = projectCapture("drive-1hz.nmea")
        let udpPort = try freeLoopbackPort()
        let gpsdPort = try freeLoopbackPort()
        let gpsd = try DaemonProcess([Self.gpsd, "-N", "-n", "-S", String(gpsdPort), "udp://127.0.0.1:\(udpPort)"])
        try #require(await waitUntil(.seconds(5)) { Self.accepts(gpsdPort) }, "gpsd did not start")
        let serve = try await ServeProcess(["--replay", capture, "--speed", "10", "--nmea-udp", "127.0.0.1:\(udpPort)"])
        #expect(serve.stderr.contains("sending NMEA sentences to 127.0.0.1:\(udpPort) (UDP"))

        try await Self.compareWithWatch(capture: capture, gpsdPort: gpsdPort)
        gpsd.kill()
        #expect(await serve.stop() == 0)
    }

    @Test("--nmea-listen and --nmea-udp need a port; a malformed one is a usage error")
    func usage() async throws {
        for bad in [["--nmea-listen", "127.0.0.1"], ["--nmea-listen", "x:y"], ["--nmea-udp", "127.0.0.1"], ["--nmea-udp", "127.0.0.1:0"]] {
            let result = try #require(await runGPSFix(["serve"] + bad + ["--replay", "/nonexistent"]))
            #expect(result.status == 64, "\(bad): \(result.stderr)")
            #expect(result.stderr.contains(bad[0]), "\(result.stderr)")
        }
    }

    @Test("--nmea-listen with a port alone listens on loopback")
    func portAlone() async throws {
        let port = try freeLoopbackPort()
        let dir = try TemporaryDirectory()
        let serve = try await ServeProcess(["--replay", try dir.drive(epochs: 60), "--speed", "10", "--nmea-listen", String(port)])
        #expect(Self.nmeaPort(serve.stderr) == port, "\(serve.stderr)")
        #expect(serve.stderr.contains("serving NMEA sentences on 127.0.0.1:\(port)"))
        let client = try LineClient(port: port)
        #expect(client.readLine()?.hasPrefix("$GP") == true)
        #expect(await serve.stop() == 0)
    }

    // MARK: -

    /// gpspipe's TPVs from gpsd, each matched by time against `gpsfix watch --json` of the
    /// same capture: the same position for the same second.
    static func compareWithWatch(capture: String, gpsdPort: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let piped = try await runTool(ServeTools.gpspipe, ["-w", "-x", "4", "127.0.0.1:\(gpsdPort)"], within: .seconds(20))
        let watched = try #require(await runGPSFix(["watch", "--replay", capture, "--json", "--speed", "max"]))
        #expect(watched.status == 0)

        let ours = Dictionary(tpvs(watched.stdout).map { ($0.time, $0) }, uniquingKeysWith: { first, _ in first })
        let theirs = tpvs(piped.out)
        #expect(theirs.count >= 20, "gpsd reported \(theirs.count) fixes in 4 s at 10 epochs a second: \(piped.out.prefix(2000))",
                sourceLocation: sourceLocation)
        for tpv in theirs {
            guard let mine = ours[tpv.time] else {
                Issue.record("gpsd reported a fix at \(tpv.time), gpsfix watch none", sourceLocation: sourceLocation)
                continue
            }
            // gpsd prints nine decimals, gpsfix what the sentence had: the same to a millimetre.
            #expect(abs(mine.lat - tpv.lat) < 1e-8 && abs(mine.lon - tpv.lon) < 1e-8,
                    "\(tpv.time): gpsd \(tpv.lat), \(tpv.lon); gpsfix \(mine.lat), \(mine.lon)", sourceLocation: sourceLocation)
        }
    }

    struct TPV { let time: String, lat: Double, lon: Double }

    /// The TPVs with a position.
    static func tpvs(_ text: String) -> [TPV] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            guard let object = jsonObject(String(line)), object["class"] as? String == "TPV",
                  let time = object["time"] as? String,
                  let lat = (object["lat"] as? NSNumber)?.doubleValue,
                  let lon = (object["lon"] as? NSNumber)?.doubleValue else { return nil }
            return TPV(time: time, lat: lat, lon: lon)
        }
    }

    /// The capture's sentences, each with CR LF, as a receiver sent them.
    static func sentences(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline)
            .filter { $0.hasPrefix("$") }.map { $0 + "\r\n" }
    }

    /// The port from "serving NMEA sentences on 127.0.0.1:PORT (TCP)".
    static func nmeaPort(_ stderr: String) -> Int? {
        guard let range = stderr.range(of: "serving NMEA sentences on "),
              let address = stderr[range.upperBound...].split(separator: " ").first else { return nil }
        return address.split(separator: ":").last.flatMap { Int($0) }
    }

    static func accepts(_ port: Int) -> Bool { (try? LineClient(port: port)) != nil }
}

/// A daemon started by a test (gpsd), with an empty signal mask, stopped by its PID.
final class DaemonProcess: Sendable {
    let pid: pid_t
    private let reaped = Atomic<Bool>(false)

    init(_ args: [String]) throws { pid = try spawnQuietly(args) }

    /// SIGKILL, then reaped.
    func kill() {
        guard reaped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    deinit { kill() }
}

@Suite("gpsfix serve's NMEA feeds: what a failed start says", .enabled(if: GPSFixBinary.isAvailable), .timeLimit(.minutes(1)))
struct ServeNMEAFeedStartTests {
    @Test("An NMEA port in use: exit 1, naming --nmea-listen, not --listen")
    func nmeaPortInUse() async throws {
        let dir = try TemporaryDirectory()
        let capture = try dir.drive()
        let first = try await ServeProcess(["--replay", capture, "--loop"])

        let second = try #require(await runGPSFix(["serve", "--replay", capture, "--listen", "127.0.0.1:0",
                                                   "--nmea-listen", "127.0.0.1:\(first.port)"]))

        #expect(second.status == 1)
        #expect(second.stderr.contains("--nmea-listen: 127.0.0.1:\(first.port) is already in use."), "\(second.stderr)")
        #expect(await first.stop() == 0)
    }

    @Test("A datagram host that does not resolve: exit 1, naming --nmea-udp")
    func unresolvableDatagramHost() async throws {
        let dir = try TemporaryDirectory()
        let result = try #require(await runGPSFix(["serve", "--replay", try dir.drive(), "--listen", "127.0.0.1:0",
                                                   "--nmea-udp", "no.such.host.invalid:10110"]))

        #expect(result.status == 1)
        #expect(result.stderr.contains("--nmea-udp: cannot resolve 'no.such.host.invalid'"), "\(result.stderr)")
    }
}
