import NMEA
import Foundation
import GPSLocation
import GPSSources
import GPSGpsd
import GPSTestSupport
import Synchronization
import Testing

/// `gpsfix serve` read by gpsd's own clients: gpspipe, Python's gps module, libgps (through
/// gpsfix's GpsdManager) and cgps. If they read it, the tools written for gpsd do too.
@Suite("gpsfix serve with gpsd's clients", .enabled(if: GPSFixBinary.isAvailable), .timeLimit(.minutes(1)))
struct ServeCommandTests {
    @Test("gpspipe -w -n 12 prints VERSION, DEVICES, WATCH and TPV lines", .enabled(if: ServeTools.has(ServeTools.gpspipe)))
    func gpspipe() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 60)
        let serve = try await ServeProcess(["--replay", capture, "--speed", "10"])

        // When
        let result = try await runTool(ServeTools.gpspipe, ["-w", "-n", "12", "127.0.0.1:\(serve.port)"])

        // Then
        #expect(result.status == 0, "\(result.err)")
        // gpspipe keeps gpsd's CR LF, which Swift reads as one Character.
        let lines = result.out.split(whereSeparator: \.isNewline).map(String.init)
        #expect(lines.count == 12, "\(lines)")
        let classes = lines.compactMap { jsonObject($0)?["class"] as? String }
        #expect(classes.count == 12, "every line is JSON")
        #expect(Array(classes.prefix(3)) == ["VERSION", "DEVICES", "WATCH"])
        #expect(classes.contains("TPV") && classes.contains("SKY"))
        let tpv = try #require(lines.compactMap(jsonObject).first { $0["class"] as? String == "TPV" })
        #expect((tpv["lat"] as? NSNumber)?.doubleValue == 48.1173)
        #expect((tpv["lon"] as? NSNumber)?.doubleValue == 11.5166667 || abs(((tpv["lon"] as? NSNumber)?.doubleValue ?? 0) - 11.516666667) < 1e-9)
        #expect(tpv["device"] as? String == capture)
        let devices = try #require(jsonObject(lines[1])?["devices"] as? [[String: Any]])
        #expect(devices.first?["path"] as? String == capture, "\(lines[1])")
        #expect(await serve.stop() == 0)
    }

    @Test("gpspipe -r gets the sentences through a raw/nmea watch", .enabled(if: ServeTools.has(ServeTools.gpspipe)))
    func gpspipeRaw() async throws {
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 60)
        let serve = try await ServeProcess(["--replay", capture, "--speed", "10"])

        let result = try await runTool(ServeTools.gpspipe, ["-r", "-n", "12", "127.0.0.1:\(serve.port)"])

        #expect(result.status == 0, "\(result.err)")
        let sentences = result.out.split(separator: "\r\n").filter { $0.hasPrefix("$") }
        #expect(sentences.count >= 8, "\(result.out)")
        // Lines, not "\r\n"-pieces: the header's lines end in "\n" alone, and cutting on "\r\n"
        // glued the first sentence to it, so a client that caught the replay's very first
        // sentence (a fast connect) found it "not in the capture".
        let written = Set(try String(contentsOfFile: capture, encoding: .utf8).components(separatedBy: .newlines))
        let strangers = sentences.filter { !written.contains(String($0)) }
        #expect(strangers.isEmpty, "sentences pass through unchanged; not in the capture: \(strangers), in: \(result.out.debugDescription)")
        #expect(await serve.stop() == 0)
    }

    @Test("Python's gps module gets a fix with gps.gps(host, port) and stream(WATCH_ENABLE|WATCH_JSON)",
          .enabled(if: ServeTools.pythonGPS, "Debian's python3-gps is not installed"))
    func pythonGPS() async throws {
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 60)
        let serve = try await ServeProcess(["--replay", capture, "--speed", "10"])
        let script = """
            import gps
            session = gps.gps(host="127.0.0.1", port="\(serve.port)")
            session.stream(gps.WATCH_ENABLE | gps.WATCH_JSON)
            for report in session:
                if report["class"] == "TPV" and report.get("mode", 0) >= 2:
                    print(session.fix.mode, "%.7f" % session.fix.latitude, "%.7f" % session.fix.longitude, session.fix.altMSL)
                    break
            """

        let result = try await runTool(ServeTools.python, ["-c", script])

        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "3 48.1173000 11.5166667 545.4\n")
        #expect(await serve.stop() == 0)
    }

    @Test("gpsfix's own GpsdManager (libgps) reads gpsfix serve: the same fixes as the engine")
    func gpsdManager() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 40)
        let serve = try await ServeProcess(["--replay", capture, "--speed", "10"])
        let manager = GpsdManager(host: "127.0.0.1", port: serve.port, reconnect: false)
        let recorder = FixRecorder()
        manager.delegate = recorder

        // When
        manager.startUpdatingLocation()
        let enough = await waitUntil(.seconds(10)) { recorder.fixes.withLock { $0.count } >= 5 }
        manager.stopUpdatingLocation()

        // Then
        #expect(enough, "\(serve.stderr)")
        let fixes = recorder.fixes.withLock { $0 }
        for fix in fixes {
            #expect(fix.mode == .threeD)
            #expect(abs((fix.coordinate?.latitude ?? 0) - 48.1173) < 1e-7)
            #expect(abs((fix.coordinate?.longitude ?? 0) - 11.516666667) < 1e-7)
            #expect(fix.altitude == 545.4)
            #expect(fix.timestamp?.date?.year == 2019)
        }
        let seconds = fixes.compactMap { $0.timestamp?.time.second }
        #expect(zip(seconds, seconds.dropFirst()).allSatisfy { $1 == $0 + 1 }, "one fix per epoch, in order: \(seconds)")
        #expect(recorder.errors.withLock { $0.isEmpty }, "\(recorder.errors.withLock { $0 })")
        _ = await serve.stop()
    }

    @Test("cgps, run in tmux against gpsfix serve, shows the fix and the satellites",
          .enabled(if: ServeTools.has(ServeTools.cgps) && ServeTools.has(ServeTools.tmux)))
    func cgps() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 60)
        let serve = try await ServeProcess(["--replay", capture, "--speed", "5", "--loop"])
        let socket = "gpsfix-cgps-\(getpid())"
        defer { _ = try? Process.run(URL(fileURLWithPath: ServeTools.tmux), arguments: ["-L", socket, "kill-server"]).waitUntilExit() }

        // When
        // tmux's server lives on after this and runs on signals: it must not inherit the test
        // thread's blocked signal mask, which Process would pass on.
        let tmux = try spawnQuietly([ServeTools.tmux, "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30",
                                     "\(ServeTools.cgps) 127.0.0.1:\(serve.port)"])
        var status: Int32 = 0
        waitpid(tmux, &status, 0)
        var screen = ""
        let shown = await waitUntil(.seconds(10)) {
            guard let captured = try? runProgramBlocking([ServeTools.tmux, "-L", socket, "capture-pane", "-p"]) else { return false }
            screen = captured.out
            // The TPV and the SKY are two reports, drawn as each arrives: a screen caught
            // between them shows the fix without its satellites, so wait for both.
            return screen.contains("48.11730000 N") && screen.contains("3D FIX") && screen.contains("Seen  5/Used  5")
        }

        // Then
        #expect(status == 0)
        #expect(shown, "cgps screen:\n\(screen)\nserver:\n\(serve.stderr)")
        #expect(screen.contains("11.51666667 E"))
        #expect(screen.contains("Seen  5/Used  5"), "the sky: 5 satellites seen and used\n\(screen)")
        #expect(await serve.stop() == 0)
    }
}

/// The fixes and errors a manager delivers.
final class FixRecorder: LocationManagerDelegate {
    let fixes = Mutex<[Fix]>([])
    let errors = Mutex<[LocationError]>([])

    func locationManager(_ manager: any LocationManagerInterface, didUpdateFix fix: Fix) {
        if fix.hasFix { fixes.withLock { $0.append(fix) } }
    }

    func locationManager(_ manager: any LocationManagerInterface, didFailWithError error: LocationError) {
        errors.withLock { $0.append(error) }
    }
}

@Suite("gpsfix serve: starting and stopping", .enabled(if: GPSFixBinary.isAvailable), .timeLimit(.minutes(1)))
struct ServeLifecycleTests {
    @Test("SIGTERM and SIGINT stop it cleanly: exit 0, clients closed", arguments: [SIGTERM, SIGINT])
    func stops(_ signal: Int32) async throws {
        let dir = try TemporaryDirectory()
        let serve = try await ServeProcess(["--replay", try dir.drive(epochs: 60), "--speed", "2"])
        let client = try LineClient(port: serve.port)
        client.send("?WATCH={\"enable\":true};")
        #expect(client.readLines(3).count == 3)

        let status = await serve.stop(signal)

        #expect(status == 0, "\(serve.stderr)")
        #expect(client.waitForClose(within: 2))
    }

    @Test("A port in use: exit 1, saying so and what to do")
    func portInUse() async throws {
        let dir = try TemporaryDirectory()
        let capture = try dir.drive()
        let first = try await ServeProcess(["--replay", capture, "--loop"])

        let second = try #require(await gpsfix("serve", "--replay", capture, "--listen", "127.0.0.1:\(first.port)"))

        #expect(second.status == 1)
        #expect(second.stderr.contains("127.0.0.1:\(first.port) is already in use."), "\(second.stderr)")
        #expect(second.stderr.contains("--listen"))
        #expect(await first.stop() == 0)
    }

    @Test("Listening beyond loopback is said loudly; loopback is not")
    func warnsOffLoopback() async throws {
        let dir = try TemporaryDirectory()
        let capture = try dir.drive()

        let open = try await ServeProcess(["--replay", capture], listen: "0.0.0.0:0")
        let loopback = try await ServeProcess(["--replay", capture])

        #expect(open.stderr.contains("WARNING: 0.0.0.0:\(open.port) is not loopback: anyone who can reach this machine"), "\(open.stderr)")
        #expect(!loopback.stderr.contains("WARNING"))
        #expect(await open.stop() == 0)
        #expect(await loopback.stop() == 0)
    }

    @Test("Out of file descriptors: it says so, does not spin, and takes the waiting clients once others leave",
          .enabled(if: ServeTools.has("/usr/bin/prlimit")))
    func outOfDescriptors() async throws {
        // Given a server allowed 16 descriptors, and 30 clients connecting
        let dir = try TemporaryDirectory()
        let serve = try await ServeProcess(["--replay", try dir.drive(epochs: 3), "--loop", "--speed", "5"],
                                           launcher: ["/usr/bin/prlimit", "--nofile=16:16"])
        // The replay opens its capture on its own thread: wait until it reports, so that the
        // clients below take the descriptors left, not the one the capture needs.
        do {
            let probe = try LineClient(port: serve.port)
            probe.send("?WATCH={\"enable\":true,\"json\":true};")
            var sawTPV = false
            while let line = probe.readLine(within: 5), !sawTPV { sawTPV = line.contains("\"class\":\"TPV\"") }
            try #require(sawTPV, "\(serve.stderr)")
        }
        var clients = try (0..<30).map { _ in try LineClient(port: serve.port) }
        #expect(await waitUntil(.seconds(5)) { serve.stderr.contains("cannot take a new client") }, "\(serve.stderr)")

        // When a second passes with clients still waiting
        let cpuBefore = try #require(serve.cpuSeconds)
        try await Task.sleep(for: .seconds(1))
        let cpu = try #require(serve.cpuSeconds) - cpuBefore

        // Then it was not spinning; and once the first clients leave, the waiting ones are served
        #expect(cpu < 0.5, "\(cpu) s of CPU in a second")
        let greeted = clients.prefix(3).map { $0.readLine(within: 2) }
        #expect(greeted.allSatisfy { $0?.hasPrefix("{\"class\":\"VERSION\"") == true })
        clients.removeFirst(10)
        let waiting = try #require(clients.first)
        #expect(waiting.readLine(within: 5)?.hasPrefix("{\"class\":\"VERSION\"") == true, "a waiting client is taken in the end")
        let status = await serve.stop()
        #expect(status == 0, "status \(String(describing: status)): \(serve.stderr)")
    }

    @Test("A malformed --listen is a usage error, before anything is opened", arguments: [
        "127.0.0.1:99999", "nonsense:port", "::1:2947", "300.1.1.1:2947", "1.2.3:2947", "70000", "2950:", "a_b:1",
    ])
    func badListen(_ address: String) async throws {
        let result = try #require(await gpsfix("serve", "--replay", "x.nmea", "--listen", address))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--listen takes [ADDR:]PORT"), "\(result)")
    }

    @Test("--listen with a port alone listens on loopback at that port")
    func listenPortAlone() async throws {
        // Given: a port the kernel chose, asked for as digits alone
        let dir = try TemporaryDirectory()
        let capture = try dir.drive()
        let chosen = try await ServeProcess(["--replay", capture], listen: "0")
        #expect(chosen.stderr.contains("on 127.0.0.1:\(chosen.port) "), "\(chosen.stderr)")
        #expect(chosen.port != 0 && chosen.port != 2947)
        #expect(await chosen.stop() == 0)

        // When: that port again, by number
        let serve = try await ServeProcess(["--replay", capture], listen: "\(chosen.port)")

        // Then: loopback, that port, gpsd's greeting, and no warning
        #expect(serve.port == chosen.port)
        #expect(serve.stderr.contains("on 127.0.0.1:\(chosen.port) "), "\(serve.stderr)")
        #expect(!serve.stderr.contains("WARNING"))
        let client = try LineClient(port: serve.port)
        #expect(client.readLine(within: 5)?.hasPrefix("{\"class\":\"VERSION\"") == true)
        #expect(await serve.stop() == 0)
    }

    @Test("A source that cannot start ends serve with its message and exit 1")
    func sourceFails() async throws {
        let result = try #require(await gpsfix("serve", "--replay", "/nonexistent/capture.nmea", "--listen", "127.0.0.1:0"))
        #expect(result.status == 1)
        #expect(result.stderr.contains("/nonexistent/capture.nmea"), "\(result.stderr)")
    }
}
