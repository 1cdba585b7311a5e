import Foundation
import GPSTestSupport
import Glibc
import Testing

/// `gpsfix timing` against a stream written a known time after each second, and against the
/// stood-in kernel PPS device.
@Suite("gpsfix timing", .serialized, .timeLimit(.minutes(3)),
       .enabled(if: ServeTools.has(ServeTools.python) && GPSFixBinary.isAvailable, "skipped: needs python3 and the built gpsfix"))
struct TimingTests {
    @Test("A stream written 137 ms late measures 137 ± 2 ms against the system clock, with the lines to use")
    func nmeaOffset() async throws {
        let receiver = try await TimedNMEAServer(late: 0.137)
        defer { receiver.stop() }
        let text = try #require(await runGPSFix(["timing", "--nmea-tcp", "127.0.0.1:\(receiver.port)", "--seconds", "30"], limit: .seconds(60)))
        print(text.stdout)
        #expect(text.status == 0, "\(text)")
        let line = try #require(text.stdout.split(separator: "\n").first { $0.hasPrefix("NMEA offset: ") })
        let figure = try #require(Double(line.dropFirst("NMEA offset: ".count).prefix { $0 != " " }))
        #expect(abs(figure - 137) <= 2, "\(line)")
        #expect(text.stdout.contains("--time-offset 0.13"), "\(text.stdout)")
        #expect(text.stdout.contains("refclock SOCK /run/chrony/gpsfix.sock refid NMEA offset 0.13"), "\(text.stdout)")
        #expect(text.stderr.contains("timing 127.0.0.1:\(receiver.port)'s NMEA against the system clock for 30 s"), "\(text.stderr)")
    }

    @Test("--json: offset_ms, jitter_ms, samples and reference for scripts")
    func json() async throws {
        let receiver = try await TimedNMEAServer(late: 0.137)
        defer { receiver.stop() }
        let result = try #require(await runGPSFix(["timing", "--nmea-tcp", "127.0.0.1:\(receiver.port)", "--seconds", "6", "--json"], limit: .seconds(30)))
        #expect(result.status == 0, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        #expect(object["reference"] as? String == "system")
        let samples = try #require(object["samples"] as? Int)
        #expect(samples >= 3 && samples <= 6, "\(object)")
        let offset = try #require(object["offset_ms"] as? Double)
        #expect(abs(offset - 137) <= 2, "\(object)")
        let jitter = try #require(object["jitter_ms"] as? Double)
        #expect(jitter >= 0 && jitter < 5, "\(object)")
        #expect((object["chrony"] as? [String])?.isEmpty == false)
    }

    @Test("Through gpsd: its TOFF reports, a receiver on a pty written 137 ms late measured 137 ms plus gpsd's reading, with the lines for gpsd's SHM",
          .enabled(if: GpsdOnPty.missing == nil, "needs gpsd and socat"))
    func throughGpsd() async throws {
        let directory = try TemporaryDirectory()
        let device = directory.path + "/gps0", feed = directory.path + "/feed"
        let socat = try PtyPair(device: device, feed: feed)
        defer { socat.stop() }
        let receiver = try TimedNMEAServer(late: 0.137, writing: feed)
        defer { receiver.stop() }
        let port = try freeLoopbackPort()
        let gpsd = try DaemonProcess([GpsdOnPty.gpsd, "-N", "-n", "-S", String(port), device])
        defer { gpsd.kill() }
        try #require(await waitUntil(.seconds(5)) { ServeNMEAFeedTests.accepts(port) })
        let result = try #require(await runGPSFix(["timing", "--gpsd", "127.0.0.1:\(port)", "--seconds", "15", "--json"], limit: .seconds(40)))
        #expect(result.status == 0, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        #expect(object["source"] as? String == "gpsd at 127.0.0.1:\(port) (\(device))")
        #expect((object["samples"] as? Int ?? 0) >= 5, "\(object)")
        // gpsd stamps an epoch when it has read it: a few ms after the writer's 137.
        let offset = try #require(object["offset_ms"] as? Double)
        #expect(offset >= 136 && offset < 145, "\(object)")
        #expect((object["chrony"] as? [String])?.first?.hasPrefix("refclock SHM 0 refid NMEA offset 0.1") == true, "\(object)")
    }

    @Test("Against the pulses: the NMEA's delay after each pulse, and the system clock's phase, as injected",
          .enabled(if: PPSStandIn.isAvailable))
    func againstPulses() async throws {
        let directory = try TemporaryDirectory()
        let standIn = try await PPSStandIn(in: directory.path)
        // The pulses come 20 ms after the system clock's seconds; the stream 137 ms after them,
        // so 117 ms after the pulses.
        try standIn.writeEdges(count: 60, phase: 20_000_000)
        let receiver = try await TimedNMEAServer(late: 0.137)
        defer { receiver.stop() }
        let result = try #require(await runGPSFix(["timing", "--nmea-tcp", "127.0.0.1:\(receiver.port)", "--pps", "/dev/pps0", "--seconds", "8", "--json"],
                                                  environment: standIn.environment(device: "/dev/pps0"), limit: .seconds(30)))
        #expect(result.status == 0, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        #expect(object["reference"] as? String == "pps")
        let offset = try #require(object["offset_ms"] as? Double)
        #expect(abs(offset - 117) <= 2, "\(object)")
        let pps = try #require(object["pps"] as? [String: Any])
        let phase = try #require(pps["phase_ms"] as? Double)
        #expect(abs(phase - 20) < 0.001, "\(pps)")
        #expect((pps["paired"] as? Int ?? 0) >= 4, "\(pps)")
        #expect(pps["disagreed"] as? Int == 0 && pps["doubled"] as? Int == 0, "\(pps)")
    }

    @Test("A wrong NMEA second, a missing pulse and a doubled one are counted, and never sent to chronyd's pulse socket",
          .enabled(if: PPSStandIn.isAvailable))
    func rejected() async throws {
        let directory = try TemporaryDirectory()
        let standIn = try await PPSStandIn(in: directory.path)
        // A bounce 40 ms after the tenth pulse, before its epoch: which edge was the pulse?
        let first = try standIn.writeEdges(count: 60, phase: 1_000_000, skip: [7], double: [10], doubleAfter: 40_000_000)
        // The sixth epoch of the connection names a second 2 s off.
        let receiver = try await TimedNMEAServer(late: 0.1, lieAt: [5])
        defer { receiver.stop() }
        let socket = try UnixDatagramSink(path: directory.path + "/pps.sock")
        let serve = try await ServeProcess(["--nmea-tcp", "127.0.0.1:\(receiver.port)", "--pps", "/dev/pps0", "--chrony-pps-sock", socket.path],
                                           environment: standIn.environment(device: "/dev/pps0"))
        defer { _ = serve.process.isRunning ? kill(serve.pid, SIGKILL) : 0 }
        #expect(await waitUntil(.seconds(30)) { serve.stderr.contains("PPS: two pulses came less than 0.9 s apart") }, "\(serve.stderr)")
        try await Task.sleep(for: .seconds(2))
        #expect(await serve.stop() == 0)
        let samples = socket.drain()
        let stderr = serve.stderr
        print(stderr)
        #expect(stderr.contains("PPS: a pulse was not sent: the second its NMEA named did not step with the pulses"), "\(stderr)")
        #expect(stderr.contains("PPS: an epoch had no pulse within 990 ms of it"), "\(stderr)")
        #expect(samples.count >= 5, "\(samples)")
        // Every pulse sent is one injected, paired with its own second: the system clock 1 ms
        // ahead of it. None from the doubled second, none named by the lie.
        for sample in samples {
            #expect(sample.pulse == 1 && sample.usec == 1000, "\(sample)")
            #expect(abs(sample.offset - 0.001) < 1e-9, "\(sample)")
            #expect(sample.seconds >= first && sample.seconds != first + 10 && sample.seconds != first + 7, "\(sample) (first edge \(first))")
        }
    }
}

/// A Unix datagram socket bound where chronyd's would be, keeping chrony's SOCK samples.
final class UnixDatagramSink: Sendable {
    let path: String
    let descriptor: Int32

    struct Sample: CustomStringConvertible {
        let seconds: Int64
        let usec: Int64
        let offset: Double
        let pulse: Int32
        var description: String { "\(seconds).\(usec) offset \(offset) pulse \(pulse)" }
    }

    init(path: String) throws {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard descriptor >= 0, bound == 0 else { throw SpawnError(description: "cannot bind \(path): \(errno)") }
    }

    /// Every datagram waiting, as chrony reads them.
    func drain() -> [Sample] {
        var samples: [Sample] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, 64, 0) }
            guard count == 40 else { break }
            buffer.withUnsafeBytes { raw in
                samples.append(Sample(seconds: raw.loadUnaligned(fromByteOffset: 0, as: Int64.self),
                                      usec: raw.loadUnaligned(fromByteOffset: 8, as: Int64.self),
                                      offset: raw.loadUnaligned(fromByteOffset: 16, as: Double.self),
                                      pulse: raw.loadUnaligned(fromByteOffset: 24, as: Int32.self)))
            }
        }
        return samples
    }

    deinit {
        close(descriptor)
        unlink(path)
    }
}

/// The modem-line path: a receiver on a socat pty whose DCD (stood in for) carries the pulse.
/// The stamp is taken when the thread wakes, so this machine's wake-up latency is the jitter.
@Suite("Pulses from a serial port's DCD", .serialized, .timeLimit(.minutes(3)),
       .enabled(if: ServeTools.has(ServeTools.python) && GPSFixBinary.isAvailable && PPSStandIn.isAvailable && RecordTests.socatAvailable,
                "skipped: needs python3, cc, socat and the built gpsfix"))
struct ModemLinePulseTests {
    @Test("timing --pps dcd: every pulse paired, the phase as injected to within a few ms, and the jitter p50/p99 on this machine")
    func dcd() async throws {
        let directory = try TemporaryDirectory()
        let standIn = try await PPSStandIn(in: directory.path)
        let phase = 5_000_000 // ns
        try standIn.writeEdges(count: 90, phase: phase)
        let device = directory.path + "/gps0", feed = directory.path + "/feed"
        let socat = try PtyPair(device: device, feed: feed)
        defer { socat.stop() }
        let receiver = try TimedNMEAServer(late: 0.2, writing: feed)
        defer { receiver.stop() }
        let result = try #require(await runGPSFix(["timing", "--device", device, "--baud", "9600", "--pps", "dcd", "--seconds", "20", "--json"],
                                                  environment: standIn.environment(modem: "dcd"), limit: .seconds(40)))
        print(result.stdout, result.stderr)
        #expect(result.status == 0, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        let pps = try #require(object["pps"] as? [String: Any])
        #expect(pps["source"] as? String == "DCD of \(device)")
        #expect((pps["paired"] as? Int ?? 0) >= 15, "\(pps)")
        #expect(pps["disagreed"] as? Int == 0 && pps["doubled"] as? Int == 0, "\(pps)")
        // The stamp is late by the wake-up: never early, and by a few ms at most here.
        let measured = try #require(pps["phase_ms"] as? Double)
        let latency = measured - Double(phase) / 1e6
        #expect(latency >= 0 && latency < 5, "phase \(measured) ms, injected \(Double(phase) / 1e6) ms")
        let p50 = try #require(pps["jitter_p50_us"] as? Double), p99 = try #require(pps["jitter_p99_us"] as? Double)
        print("DCD: latency \(latency * 1000) µs, jitter p50 \(p50) µs, p99 \(p99) µs")
        #expect(p50 <= p99 && p99 < 5000, "\(pps)")
        let offset = try #require(object["offset_ms"] as? Double)
        #expect(abs(offset - 195) < 5, "the NMEA 200 ms after the second, 5 ms after the pulse: \(object)")
    }

    @Test("A line that never changes: the measuring still ends on time (the wait is signalled), and says no pulse paired")
    func stopWithoutPulses() async throws {
        let directory = try TemporaryDirectory()
        let standIn = try await PPSStandIn(in: directory.path)
        // One edge, an hour away: TIOCMIWAIT would wait that long.
        try "\(Int(Date().timeIntervalSince1970) + 3600).0\n".write(toFile: standIn.edges, atomically: true, encoding: .utf8)
        let device = directory.path + "/gps0", feed = directory.path + "/feed"
        let socat = try PtyPair(device: device, feed: feed)
        defer { socat.stop() }
        let receiver = try TimedNMEAServer(late: 0.2, writing: feed)
        defer { receiver.stop() }
        let started = ContinuousClock.now
        let result = try #require(await runGPSFix(["timing", "--device", device, "--baud", "9600", "--pps", "dcd", "--seconds", "3"],
                                                  environment: standIn.environment(modem: "dcd"), limit: .seconds(20)))
        let took = ContinuousClock.now - started
        #expect(took < .seconds(6), "\(took)")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("No epoch of \(device) could be measured against its pulses"), "\(result.stdout)")
        #expect(result.stdout.contains("Pulses (DCD of \(device)): 0 paired"), "\(result.stdout)")
    }

    @Test("--pps dcd needs a serial source: a usage error otherwise")
    func notSerial() async throws {
        let result = try #require(await runGPSFix(["timing", "--nmea-tcp", "127.0.0.1:9", "--pps", "dcd"]))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--pps dcd reads a serial port's modem line: the first source must be a receiver on a serial port (--device), not --nmea-tcp"), "\(result.stderr)")
    }
}
