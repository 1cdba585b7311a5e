import Foundation
import Glibc
import GPSTestSupport
import Synchronization
import Testing

/// `gpsfix serve` as systemd runs it: its socket handed over by systemd-socket-activate
/// (systemd's own stand-in for a socket unit), read by gpspipe; READY=1, STATUS=, WATCHDOG=1 and
/// STOPPING=1 heard on a notify socket the test binds, as systemd binds its own; and the
/// units as systemd-analyze judges them.
@Suite("gpsfix serve under systemd", .enabled(if: GPSFixBinary.isAvailable), .timeLimit(.minutes(1)))
struct ServeSystemdTests {
    static var canActivate: Bool { ServeTools.has(ServeTools.socketActivate) }

    @Test("gpspipe -w reads TPVs from serve through the socket systemd-socket-activate passed it",
          .enabled(if: canActivate && ServeTools.has(ServeTools.gpspipe)))
    func gpspipeThroughActivation() async throws {
        // Given a socket held for serve, as gpsfix.socket holds one
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 60)
        let serve = try await ActivatedServe(["--replay", capture, "--speed", "10"], in: dir)
        let port = serve.port

        // When gpspipe connects: its connection starts gpsfix
        let result = try await runTool(ServeTools.gpspipe, ["-w", "-n", "12", "127.0.0.1:\(port)"])

        // Then
        #expect(result.status == 0, "\(result.err)")
        let reports = result.out.split(whereSeparator: \.isNewline).compactMap { jsonObject(String($0)) }
        #expect(reports.count == 12, "\(result.out)")
        #expect(reports.prefix(3).compactMap { $0["class"] as? String } == ["VERSION", "DEVICES", "WATCH"])
        let tpvs = reports.filter { $0["class"] as? String == "TPV" }
        #expect(!tpvs.isEmpty)
        #expect(tpvs.allSatisfy { ($0["lat"] as? NSNumber)?.doubleValue == 48.1173 && $0["device"] as? String == capture })
        #expect(serve.stderr.contains("serving gpsd's protocol on 127.0.0.1:\(port) (sockets passed by the service manager)"), "\(serve.stderr)")
        // systemd-socket-activate ran gpsfix in its own place: the signal reaches serve itself.
        #expect(await serve.stop() == 0, "\(serve.stderr)")
    }

    @Test("The notify socket hears READY=1 with a status, the fix in STATUS=, WATCHDOG=1 while it runs, then STOPPING=1",
          .enabled(if: canActivate))
    func notifyWithWatchdog() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 60)
        let manager = try NotifyListener(address: dir.path + "/notify")
        let serve = try await ActivatedServe(["--replay", capture, "--speed", "10"], in: dir,
                                             setenv: ["NOTIFY_SOCKET": manager.address, "WATCHDOG_USEC": "200000"])

        // When a client starts it, and it runs a while
        let client = try LineClient(port: serve.port)
        let greeted = client.readLine()
        let ready = manager.waitFor { $0.contains("READY=1") }
        let fixed = manager.waitFor { $0.contains("STATUS=\(capture): 3D fix, ") }
        let pinged = manager.waitFor { _ in manager.lines.filter { $0 == "WATCHDOG=1" }.count >= 3 }
        let status = await serve.stop()
        let stopped = manager.waitFor { $0.hasPrefix("STOPPING=1") }

        // Then
        #expect(greeted?.hasPrefix("{\"class\":\"VERSION\"") == true)
        #expect(ready && fixed && pinged && stopped, "\(manager.messages)\n\(serve.stderr)")
        #expect(status == 0)
        let lines = manager.lines
        let readyAt = try #require(lines.firstIndex(of: "READY=1"))
        #expect(lines[readyAt + 1].hasPrefix("STATUS=\(capture): "), "READY=1 comes with a status: \(lines)")
        let fixAt = try #require(lines.firstIndex { $0.contains("3D fix") })
        #expect(readyAt < fixAt)
        #expect(lines[fixAt].hasSuffix("satellites used"), "\(lines[fixAt])")
        #expect(lines.filter { $0 == "READY=1" }.count == 1)
        #expect(lines.last == "STATUS=stopping" && lines.dropLast().last == "STOPPING=1", "\(lines)")
    }

    @Test("A watchdog meant for another process (WATCHDOG_PID) is not fed", .enabled(if: canActivate))
    func watchdogForAnotherProcess() async throws {
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 60)
        let manager = try NotifyListener(address: dir.path + "/notify")
        let serve = try await ActivatedServe(["--replay", capture, "--speed", "10"], in: dir,
                                             setenv: ["NOTIFY_SOCKET": manager.address, "WATCHDOG_USEC": "100000", "WATCHDOG_PID": "1"])

        let client = try LineClient(port: serve.port)
        _ = client.readLine()
        // Its loop beats each second to send held-back statuses: long enough for a fix's status
        // and, were the watchdog fed, ten pings.
        let fixed = manager.waitFor { $0.contains("3D fix") }
        #expect(await serve.stop() == 0)
        let stopped = manager.waitFor { $0.hasPrefix("STOPPING=1") }

        #expect(fixed && stopped, "\(manager.messages)")
        #expect(!manager.lines.contains("WATCHDOG=1"), "\(manager.lines)")
    }

    @Test("Without socket activation, serve binds its own port and still tells an abstract notify socket ('@…') it is ready")
    func abstractNotifySocket() async throws {
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 60)
        let manager = try NotifyListener(address: "@gpsfix-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")

        let serve = try await ServeProcess(["--replay", capture, "--speed", "10"], environment: ["NOTIFY_SOCKET": manager.address])
        let ready = manager.waitFor { $0.contains("READY=1") }

        #expect(ready, "\(manager.messages)\n\(serve.stderr)")
        #expect(!serve.stderr.contains("passed by the service manager"))
        #expect(await serve.stop() == 0)
    }

    @Test("A source that fails says why in STATUS=, is never READY, and exits 1")
    func failureStatus() async throws {
        let dir = try TemporaryDirectory()
        let manager = try NotifyListener(address: dir.path + "/notify")
        let missing = dir.path + "/no-such-capture.nmea"

        let serve = try await GPSFixProcess(["serve", "--listen", "127.0.0.1:0", "--replay", missing],
                                            environment: ["NOTIFY_SOCKET": manager.address], announcement: nil)
        let status = await serve.exitStatus(within: .seconds(10))
        let stopped = manager.waitFor { $0.hasPrefix("STOPPING=1") }

        #expect(status == 1, "\(serve.stderr)")
        #expect(stopped, "\(manager.messages)")
        let failed = try #require(manager.lines.first, "\(manager.lines)")
        #expect(failed.hasPrefix("STATUS=failed: \(missing): no such file."), "\(manager.lines)")
        #expect(serve.stderr.contains(String(failed.dropFirst("STATUS=failed: ".count))), "the same words as the log: \(serve.stderr)")
        #expect(!manager.lines.contains("READY=1"))
    }

    @Test("Waiting for a receiver that is not plugged in, serve is READY=1 and its STATUS= says what it waits for")
    func readyWhileWaiting() async throws {
        let dir = try TemporaryDirectory()
        let manager = try NotifyListener(address: dir.path + "/notify")
        let absent = dir.path + "/gps0"

        let serve = try await ServeProcess(["--device", absent], environment: ["NOTIFY_SOCKET": manager.address])
        let ready = manager.waitFor { $0.contains("READY=1") }

        #expect(ready, "\(manager.messages)\n\(serve.stderr)")
        let status = manager.lines.first { $0.hasPrefix("STATUS=") }
        #expect(status?.hasPrefix("STATUS=\(absent): ") == true && status?.hasSuffix("waiting for it to appear") == true, "\(manager.lines)")
        #expect(await serve.stop() == 0)
    }

    @Test("--listen beside a socket systemd passed is a usage error (64) that says where the address is set, in STATUS= too",
          .enabled(if: canActivate))
    func listenBesidePassedSocket() async throws {
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 3)
        let manager = try NotifyListener(address: dir.path + "/notify")
        let serve = try await ActivatedServe(["--listen", "127.0.0.1:0", "--replay", capture], in: dir,
                                             setenv: ["NOTIFY_SOCKET": manager.address])

        let client = try LineClient(port: serve.port)
        let status = await serve.exitStatus(within: .seconds(10))
        let told = manager.waitFor { $0.hasPrefix("STATUS=failed: ") }

        #expect(status == 64, "\(serve.stderr)")
        #expect(serve.stderr.contains("ListenStream= in gpsfix.socket"), "\(serve.stderr)")
        #expect(told && manager.lines.last?.contains("ListenStream= in gpsfix.socket") == true, "\(manager.lines)")
        #expect(!manager.lines.contains("READY=1"))
        #expect(client.waitForClose(within: 5))
    }

    @Test("A datagram socket passed to serve is refused, naming it, exit 1", .enabled(if: canActivate))
    func datagramSocketRefused() async throws {
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 3)
        let serve = try await ActivatedServe(["--replay", capture], in: dir, datagram: true)

        // A datagram on the port is what starts it.
        let udp = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(udp) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(serve.port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let sent = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(udp, "?", 1, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let status = await serve.exitStatus(within: .seconds(10))

        #expect(sent == 1)
        #expect(status == 1, "\(serve.stderr)")
        #expect(serve.stderr.contains("descriptor 3, passed to listen on, is not a listening TCP socket: a datagram (UDP) socket, not TCP."), "\(serve.stderr)")
        #expect(serve.stderr.contains("ListenStream="), "\(serve.stderr)")
    }

    // MARK: - The units

    /// The units as shipped, copied beside each other with ExecStart pointing at the built
    /// binary: systemd-analyze checks that the command exists and is executable.
    func unitsForAnalysis() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        let binary = try #require(GPSFixBinary.url).path
        for name in ["gpsfix.service", "gpsfix.socket"] {
            var text = try String(contentsOfFile: Self.repository + "/systemd/" + name, encoding: .utf8)
            if name == "gpsfix.service" {
                #expect(text.contains("ExecStart=/usr/local/bin/gpsfix serve "), "where make install puts the binary")
                text = text.replacingOccurrences(of: "ExecStart=/usr/local/bin/gpsfix ", with: "ExecStart=\(binary) ")
            }
            _ = try dir.write(name, text)
        }
        return dir
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test("systemd-analyze verify finds nothing to say about gpsfix.service and gpsfix.socket",
          .enabled(if: ServeTools.has(ServeTools.systemdAnalyze)))
    func verify() async throws {
        let dir = try unitsForAnalysis()

        let result = try await runTool(ServeTools.systemdAnalyze, ["verify", "--man=no", dir.path + "/gpsfix.socket", dir.path + "/gpsfix.service"])

        // Unknown keys and bad values are only warnings: any word at all is a failure.
        #expect(result.status == 0 && result.err.isEmpty && result.out.isEmpty, "\(result.out)\(result.err)")
    }

    @Test("systemd-analyze security rates gpsfix.service's sandbox below 2.0 of 10 (gpsd.service rates 9.6)",
          .enabled(if: ServeTools.has(ServeTools.systemdAnalyze)))
    func sandbox() async throws {
        let dir = try unitsForAnalysis()

        // The threshold counts tenths.
        let result = try await runTool(ServeTools.systemdAnalyze, ["security", "--offline=yes", "--threshold=20", "--no-pager",
                                                                   dir.path + "/gpsfix.service"])

        #expect(result.status == 0, "\(result.out)\(result.err)")
        #expect(result.out.contains("Overall exposure level for gpsfix.service"), "\(result.out)")
    }
}
