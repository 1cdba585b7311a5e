import Foundation
import GPSTestSupport
import Glibc
import Testing

/// `serve --pps` against a real chronyd: a kernel PPS device stood in for by a preloaded
/// library whose edges come a known phase after the system clock's seconds, and a receiver
/// on a TCP port whose epochs name those seconds, written 100 ms after them.
///
/// The sign, as in `ChronyTests`: chronyc shows the system clock's offset from the source,
/// positive when the system clock is ahead. A second that begins at system time T + phase
/// says the system clock is ahead by the phase.
@Suite("gpsfix serve's pulses for chronyd", .serialized, .timeLimit(.minutes(3)),
       .enabled(if: ChronyDaemon.isAvailable && ServeTools.has(ServeTools.python) && GPSFixBinary.isAvailable && PPSStandIn.isAvailable,
                "skipped: needs chronyd and chronyc (apt-get install chrony), python3, cc and the built gpsfix"))
struct PPSTests {
    @Test("chronyd's PPS refclocks (SOCK, pulse set, locked to the NMEA; SHM on the next unit) see the injected phase within 10 µs")
    func kernelPulsesToChrony() async throws {
        let directory = try TemporaryDirectory()
        let standIn = try await PPSStandIn(in: directory.path)
        let phase = 250_000 // ns: the system clock is 250 µs ahead of the pulses
        try standIn.writeEdges(count: 120, phase: phase)
        let unit = try ChronyDaemon.freeUnit(pair: true)
        let chronyd = try await ChronyDaemon(in: directory.path, unit: unit, extra: [
            "refclock SOCK \(directory.path)/pps.sock refid PPS poll 1 filter 1 lock GPS noselect",
            "refclock SHM \(unit + 1) refid SPPS poll 0 noselect",
        ])
        defer { chronyd.stop() }
        let receiver = try await TimedNMEAServer(late: 0.1)
        defer { receiver.stop() }

        let serve = try await ServeProcess(["--nmea-tcp", "127.0.0.1:\(receiver.port)", "--chrony-sock", chronyd.socketPath,
                                            "--ntp-shm", "\(unit)", "--pps", "/dev/pps0", "--chrony-pps-sock", directory.path + "/pps.sock"],
                                           environment: standIn.environment(device: "/dev/pps0"))
        defer { _ = serve.process.isRunning ? kill(serve.pid, SIGKILL) : 0 }

        let sources = try await chronyd.heard(["GPS", "PPS", "SPPS"], within: .seconds(40))
        print("chronyc sources: \(sources)")
        for name in ["PPS", "SPPS"] {
            let source = try #require(sources.first { $0.name == name }, "\(sources); gpsfix: \(serve.stderr)")
            #expect(source.reach & 3 == 3, "\(name) not heard in two polls: \(sources); gpsfix: \(serve.stderr)")
            #expect(abs(source.offset - Double(phase) / 1e9) < 10e-6, "\(name): \(source.offset) s, expected \(Double(phase) / 1e9): \(sources)")
        }
        let gps = try #require(sources.first { $0.name == "GPS" })
        #expect(abs(gps.offset - 0.1) < 0.05, "\(sources)")
        #expect(serve.stderr.contains("pairing /dev/pps0's pulses with 127.0.0.1:\(receiver.port)'s NMEA"), "\(serve.stderr)")
        #expect(serve.stderr.contains("gpsfix: chrony: sending /dev/pps0's pulses to \(directory.path)/pps.sock"), "\(serve.stderr)")
        #expect(await serve.stop() == 0)
    }

    @Test("Not root: a gpsfix as nobody feeds a root chronyd through segments chronyd made for anyone (perm=0666)",
          .enabled(if: getuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0, "needs root to start chronyd and setpriv to become nobody"))
    func notRoot() async throws {
        let directory = try TemporaryDirectory()
        // The stand-in and its edges where nobody may read them (chronyd's directory is 0700).
        let shared = try TemporaryDirectory()
        chmod(shared.path, 0o755)
        let standIn = try await PPSStandIn(in: shared.path)
        try standIn.writeEdges(count: 120, phase: 250_000)
        chmod(standIn.edges, 0o644)
        let unit = try ChronyDaemon.freeUnit(pair: true)
        let chronyd = try await ChronyDaemon(in: directory.path, unit: unit, shared: true, extra: [
            "refclock SHM \(unit + 1):perm=0666 refid SPPS poll 0 noselect",
        ])
        defer { chronyd.stop() }
        let receiver = try await TimedNMEAServer(late: 0.1)
        defer { receiver.stop() }
        let serve = try await GPSFixProcess(["serve", "--no-listen", "--nmea-tcp", "127.0.0.1:\(receiver.port)", "--ntp-shm", "\(unit)", "--pps", "/dev/pps0"],
                                            launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"],
                                            environment: standIn.environment(device: "/dev/pps0"), announcement: "Ctrl-C to stop")
        defer { _ = serve.process.isRunning ? kill(serve.pid, SIGKILL) : 0 }
        let sources = try await chronyd.heard(["SHM", "SPPS"], within: .seconds(30))
        let pulses = try #require(sources.first { $0.name == "SPPS" }, "\(sources); gpsfix: \(serve.stderr)")
        #expect(pulses.reach & 3 == 3 && abs(pulses.offset - 0.00025) < 10e-6, "\(sources); gpsfix: \(serve.stderr)")
        #expect(await serve.stop() == 0)
    }
}

/// What gpsd's time tools read from `serve --pps`: `ntpshmmon` the NMEA's and the pulses'
/// shared memory units, `gpspipe -w -P` (and any watcher asking `"pps":true`) gpsd's TOFF and
/// PPS reports.
@Suite("gpsd's time tools against serve --pps", .serialized, .timeLimit(.minutes(2)),
       .enabled(if: ServeTools.has(ServeTools.python) && GPSFixBinary.isAvailable && PPSStandIn.isAvailable
                && ServeTools.has(ServeTools.gpspipe) && ServeTools.has("/usr/bin/ntpshmmon"),
                "skipped: needs python3, cc, gpsd-clients (gpspipe, ntpshmmon) and the built gpsfix"))
struct PPSReportTests {
    @Test("ntpshmmon reads NMEA on the even unit and the pulses on the next; gpspipe -w -P gets TOFF and PPS; a plain watch gets neither")
    func tools() async throws {
        let directory = try TemporaryDirectory()
        let standIn = try await PPSStandIn(in: directory.path)
        try standIn.writeEdges(count: 90, phase: 250_000)
        let unit = try ChronyDaemon.freeUnit(pair: true, in: 2...9)
        defer { ChronyDaemon.removeSegment(unit: unit); ChronyDaemon.removeSegment(unit: unit + 1) }
        let receiver = try await TimedNMEAServer(late: 0.1)
        defer { receiver.stop() }
        let serve = try await ServeProcess(["--nmea-tcp", "127.0.0.1:\(receiver.port)", "--pps", "/dev/pps0", "--ntp-shm", "\(unit)"],
                                           environment: standIn.environment(device: "/dev/pps0"))
        defer { _ = serve.process.isRunning ? kill(serve.pid, SIGKILL) : 0 }

        // ntpshmmon: "sample NTPu Seen@ Clock Real Leap Precision"
        let monitored = try await runTool("/usr/bin/ntpshmmon", ["-t", "6"], within: .seconds(15))
        let rows = monitored.out.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        let nmea = rows.filter { $0.count >= 7 && $0[1] == "NTP\(unit)" }
        let pulses = rows.filter { $0.count >= 7 && $0[1] == "NTP\(unit + 1)" }
        #expect(nmea.count >= 3 && pulses.count >= 3, "\(monitored.out)\n\(serve.stderr)")
        for row in pulses {
            // Clock: the edge, 250 µs after the second; Real: the second; precision -20.
            #expect(row[3].hasSuffix(".000250000") && row[4].hasSuffix(".000000000") && row[6] == "-20", "\(row)")
            #expect(row[3].prefix { $0 != "." } == row[4].prefix { $0 != "." }, "\(row)")
        }
        for row in nmea {
            let clock = try #require(Double(row[3])), real = try #require(Double(row[4]))
            #expect(abs(clock - real - 0.1) < 0.05 && row[6] == "-1", "\(row)")
        }

        let piped = try await runTool(ServeTools.gpspipe, ["-w", "-P", "-n", "30", "127.0.0.1:\(serve.port)"])
        let reports = piped.out.components(separatedBy: .newlines).compactMap { jsonObject($0) }
        let pps = reports.filter { $0["class"] as? String == "PPS" }
        let toff = reports.filter { $0["class"] as? String == "TOFF" }
        #expect(pps.count >= 2 && toff.count >= 2, "\(piped.out)")
        for report in pps {
            #expect(report["device"] as? String == "127.0.0.1:\(receiver.port)")
            #expect(report["real_nsec"] as? Int == 0 && report["clock_nsec"] as? Int == 250_000, "\(report)")
            #expect(report["real_sec"] as? Int == report["clock_sec"] as? Int && report["precision"] as? Int == -20, "\(report)")
            #expect(report["shm"] as? String == "NTP\(unit + 1)")
        }
        for report in toff {
            let nanoseconds = try #require(report["clock_nsec"] as? Int)
            #expect(abs(nanoseconds - 100_000_000) < 50_000_000 && report["real_nsec"] as? Int == 0, "\(report)")
            #expect(report["shm"] as? String == "NTP\(unit)" && report["precision"] as? Int == -1)
        }

        // A watcher that did not ask for them gets neither.
        let plain = try LineClient(port: serve.port)
        _ = plain.readLine()
        plain.send("?WATCH={\"enable\":true,\"json\":true};")
        let lines = plain.readLines(12, within: 6)
        #expect(lines.contains { $0.contains("\"class\":\"TPV\"") }, "\(lines)")
        #expect(!lines.contains { $0.contains("\"class\":\"PPS\"") || $0.contains("\"class\":\"TOFF\"") }, "\(lines)")
        #expect(lines.contains { $0.contains("\"pps\":false") }, "the WATCH says pps false: \(lines)")
        #expect(await serve.stop() == 0)
    }
}

/// A pulse device that cannot be read is said before serving or timing begins, with what to do.
@Suite("PPS devices that cannot be read", .timeLimit(.minutes(1)),
       .enabled(if: ServeTools.has(ServeTools.python) && GPSFixBinary.isAvailable && PPSStandIn.isAvailable, "skipped: needs python3, cc and the built gpsfix"))
struct PPSRefusalTests {
    @Test("A missing device: exit 1 before serving, naming what makes one")
    func missing() async throws {
        let receiver = try await TimedNMEAServer(late: 0.1)
        defer { receiver.stop() }
        let result = try #require(await runGPSFix(["serve", "--listen", "127.0.0.1:0", "--nmea-tcp", "127.0.0.1:\(receiver.port)", "--pps", "/dev/pps-none"]))
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("gpsfix: serve: /dev/pps-none does not exist: load the PPS client (a pps-gpio overlay, 'ldattach pps /dev/ttyS0' for a serial port's DCD)"), "\(result.stderr)")
        #expect(!result.stderr.contains("Ctrl-C to stop"), "\(result.stderr)")
    }

    @Test("A device whose mode must be set, without CAP_SYS_TIME: the capability, or chronyd reading it itself")
    func notPermitted() async throws {
        let directory = try TemporaryDirectory()
        let standIn = try await PPSStandIn(in: directory.path)
        try standIn.writeEdges(count: 30, phase: 0)
        let receiver = try await TimedNMEAServer(late: 0.1)
        defer { receiver.stop() }
        let result = try #require(await runGPSFix(["timing", "--nmea-tcp", "127.0.0.1:\(receiver.port)", "--pps", "/dev/pps0", "--seconds", "2"],
                                                  environment: standIn.environment(device: "/dev/pps0", extra: ["GPSFIX_STANDIN_PPS_MODE": "none", "GPSFIX_STANDIN_PPS_NOPERM": "1"])))
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("/dev/pps0 must be told to stamp assert edges, which needs CAP_SYS_TIME: run gpsfix as root or with AmbientCapabilities=CAP_SYS_TIME, or let chronyd read /dev/pps0 itself ('refclock PPS /dev/pps0 lock NMEA')"), "\(result.stderr)")
        #expect(!result.stderr.contains("Ctrl-C to stop"), "\(result.stderr)")
    }

    @Test("Usage errors (64): a PPS outlet without --pps, an odd SHM unit with it, --pps-epoch alone, a bad --pps or --reference", arguments: [
        (["serve", "--nmea-tcp", "127.0.0.1:9", "--chrony-pps-sock", "/tmp/p.sock"], "--chrony-pps-sock sends the pulses of --pps: add --pps"),
        (["serve", "--nmea-tcp", "127.0.0.1:9", "--pps", "/dev/pps0", "--ntp-shm", "3"], "with --pps, --ntp-shm takes an even unit from 0 to 252"),
        (["serve", "--nmea-tcp", "127.0.0.1:9", "--pps-epoch", "after", "--ntp-shm", "2"], "--pps-epoch says how --pps's pulses pair: add --pps"),
        (["timing", "--nmea-tcp", "127.0.0.1:9", "--pps", "pps0"], "--pps takes a PPS device (/dev/pps0), auto, or a modem line (dcd, cts, ri), not 'pps0'"),
        (["timing", "--nmea-tcp", "127.0.0.1:9", "--reference", "pps"], "--reference pps needs the receiver's pulse: add --pps"),
        (["timing", "--replay", "x.nmea"], "timing measures a live receiver: a replay's epochs carry no time of arrival"),
        (["timing", "--gpsd", "localhost", "--pps", "dcd"], "--pps reads a pulse here; through gpsd, gpsd reads the receiver's pulse itself"),
    ])
    func usage(_ arguments: [String], _ message: String) async throws {
        let result = try #require(await runGPSFix(arguments))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
