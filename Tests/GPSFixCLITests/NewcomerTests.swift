import Foundation
import GPSTestSupport
import Glibc
import Testing
@testable import GPSFixCLI

/// What a newcomer met and should not: -V, options accepted and ignored, --no-listen refused
/// though there was something to serve, chrony's socket refusing a user without advice, the
/// prefix twice, a location history readable by everyone.
@Suite("gpsfix: a newcomer's small things", .timeLimit(.minutes(1)), .enabled(if: GPSFixBinary.isAvailable, "needs the built gpsfix"))
struct NewcomerTests {
    @Test("-V prints the version, as --version and gpsd's tools' -V do")
    func versionFlag() async throws {
        let short = try #require(await gpsfix("-V"))
        let long = try #require(await gpsfix("--version"))
        #expect(short.status == 0)
        #expect(short.stdout == "gpsfix \(GPSFixCLI.version)\n")
        #expect(short.stdout == long.stdout)
    }

    @Test("An option no source named would use is a usage error saying why", arguments: [
        (["watch", "--speed", "2"], "--speed paces or repeats a capture: it needs --replay FILE"),
        (["watch", "--device", "/dev/ttyUSB9", "--loop"], "--loop paces or repeats a capture: it needs --replay FILE (--device is read"),
        (["watch", "--gpsd", "--speed", "max"], "--speed paces or repeats a capture: it needs --replay FILE (--gpsd is read"),
        (["serve", "--nmea-tcp", "127.0.0.1:1", "--loop"], "--loop paces or repeats a capture"),
        (["watch", "--replay", "CAPTURE", "--baud", "4800"], "--baud 4800 sets a serial port's rate: it needs --device PATH (--replay has no line rate)"),
        (["fix", "--gpsd", "--baud", "9600"], "--baud 9600 sets a serial port's rate: it needs --device PATH"),
        (["fix", "--replay", "CAPTURE", "--loop"], "--loop has nothing to do for fix, which ends at the first fix"),
    ])
    func idleOptions(_ arguments: [String], _ message: String) async throws {
        let dir = try TemporaryDirectory()
        let capture = try dir.drive()
        let result = try #require(await runGPSFix(arguments.map { $0 == "CAPTURE" ? capture : $0 }, limit: .seconds(10)))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("gpsfix: \(arguments[0]): \(message)"), "\(result)")
    }

    @Test("Options that apply to one source of several are accepted when that source is named")
    func optionsOfOneSourceOfSeveral() throws {
        let parsed = try ArgumentParser.parse(["--device", "/dev/ttyUSB9", "--baud", "4800", "--replay", "c.nmea", "--speed", "max", "--loop"],
                                              options: Commands.watch.options, positionals: 0)
        try SourceOptions.refuseIdleOptions(parsed)
        let discovered = try ArgumentParser.parse(["--baud", "4800"], options: Commands.watch.options, positionals: 0)
        try SourceOptions.refuseIdleOptions(discovered)
    }

    @Test("serve --no-listen serves NMEA over TCP alone, without gpsd's listener")
    func noListenNMEA() async throws {
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 3)
        let serve = try await GPSFixProcess(["serve", "--no-listen", "--nmea-listen", "127.0.0.1:0", "--replay", capture, "--loop"],
                                            announcement: "Ctrl-C to stop")
        let text = serve.stderr
        #expect(text.contains("as NMEA only (--no-listen)"), "\(text)")
        #expect(!text.contains("gpsd's protocol"), "\(text)")
        let range = try #require(text.range(of: "serving NMEA sentences on 127.0.0.1:"))
        let port = try #require(Int(text[range.upperBound...].prefix { $0.isNumber }))
        let client = try LineClient(port: port)
        let line = try #require(client.readLine(within: 5), "\(serve.stderr)")
        #expect(line.hasPrefix("$GP"), "\(line)")
        #expect(await serve.stop() == 0, "\(serve.stderr)")
    }

    @Test("serve --no-listen feeds chrony alone; with nothing to serve it is still refused")
    func noListenChrony() async throws {
        let dir = try TemporaryDirectory()
        let capture = try dir.drive()
        let serve = try await GPSFixProcess(["serve", "--no-listen", "--chrony-sock", dir.path + "/chrony.sock", "--replay", capture, "--loop"],
                                            announcement: "Ctrl-C to stop")
        #expect(serve.stderr.contains("to chronyd at \(dir.path)/chrony.sock only; Ctrl-C to stop"), "\(serve.stderr)")
        #expect(await serve.stop() == 0, "\(serve.stderr)")

        let refused = try #require(await gpsfix("serve", "--no-listen", "--replay", capture))
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--no-listen leaves nothing to serve: add one of --nmea-listen, --nmea-udp, --http, --chrony-sock, --ntp-shm, --chrony-pps-sock, --mqtt"), "\(refused)")
    }

    @Test("A time feed that cannot start is told once prefixed, with one full stop")
    func prefixOnce() async throws {
        // Given a segment under an NTP unit's key with another size than an NTP segment's
        let unit = try ChronyDaemon.freeUnit()
        let identifier = shmget(ChronyDaemon.key(unit: unit), 16, IPC_CREAT | 0o600)
        try #require(identifier >= 0)
        defer { ChronyDaemon.removeSegment(unit: unit) }
        let dir = try TemporaryDirectory()

        let result = try #require(await gpsfix("serve", "--ntp-shm", "\(unit)", "--listen", "127.0.0.1:0", "--replay", try dir.drive()))

        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("gpsfix: serve: a shared memory segment with NTP unit \(unit)'s key"), "\(result)")
        #expect(!result.stderr.contains("gpsfix: gpsfix:"), "\(result)")
        #expect(!result.stderr.contains(".."), "\(result)")
    }

    @Test("record's captures and GPX tracks are created 0600, and a track overwritten with --force is made 0600")
    func locationHistoryIsPrivate() async throws {
        let dir = try TemporaryDirectory()
        let capture = try dir.drive()
        let track = dir.path + "/track.gpx"
        let made = try #require(await gpsfix("record", "--gpx", track, "--replay", capture, "--speed", "max"))
        #expect(made.status == 0, "\(made)")
        #expect(Self.mode(track) == 0o600)

        let old = try dir.write("old.gpx", "")
        chmod(old, 0o644)
        let forced = try #require(await gpsfix("record", "--gpx", old, "--force", "--replay", capture, "--speed", "max"))
        #expect(forced.status == 0, "\(forced)")
        #expect(Self.mode(old) == 0o600)
    }

    @Test("A raw capture from a receiver is created 0600", .enabled(if: RecordTests.socatAvailable))
    func captureIsPrivate() async throws {
        let receiver = try PortReleaseTests.Receiver()
        let file = receiver.directory.path + "/run.nmea"
        let record = try await GPSFixProcess(["record", file, "--device", receiver.device], announcement: "Ctrl-C to stop")
        #expect(await record.stop(SIGINT) == 0, "\(record.stderr)")
        #expect(Self.mode(file) == 0o600)
    }

    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }
}

/// chrony's socket, as a user who is not root meets it: chronyd makes it 0755 in a directory
/// Debian keeps 0750, so the send fails with EACCES; serve says what to do instead.
@Suite("gpsfix serve --chrony-sock as a user who is not root", .timeLimit(.minutes(1)),
       .enabled(if: getuid() == 0 && ServeTools.has("/usr/bin/setpriv") && ServeTools.has(ServeTools.python) && GPSFixBinary.isAvailable,
                "needs root (to drop to nobody with setpriv), python3 and the built gpsfix"))
struct ChronyNotRootTests {
    @Test("EACCES on chrony's socket comes with the advice: root, or --ntp-shm 2 with chrony's line")
    func permissionAdvice() async throws {
        // Given a datagram socket root made in a directory only root may enter, as chronyd's
        let dir = try TemporaryDirectory()
        chmod(dir.path, 0o755)
        let private_ = try dir.makeDirectory("chrony")
        chmod(private_, 0o700)
        let path = private_ + "/gpsfix.sock"
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(socket >= 0)
        defer { close(socket) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in Array(path.utf8).withUnsafeBytes { raw.copyMemory(from: $0) } }
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        try #require(bound == 0)
        let receiver = try await TimedNMEAServer(late: 0.1)
        defer { receiver.stop() }

        // When serve runs as nobody, feeding that socket from a live receiver
        let serve = try await ServeProcess(["--nmea-tcp", "127.0.0.1:\(receiver.port)", "--chrony-sock", path],
                                           launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
        defer { _ = serve.process.isRunning ? kill(serve.pid, SIGKILL) : 0 }

        // Then the refusal says what to do
        let advice = "run serve as root, or feed chrony through shared memory instead (--ntp-shm 2, with 'refclock SHM 2:perm=0666 refid NMEA' in chrony.conf)"
        #expect(await waitUntil(.seconds(10)) { serve.stderr.contains(advice) }, "\(serve.stderr)")
        #expect(serve.stderr.contains("gpsfix: chrony: sendto \(path) failed"), "\(serve.stderr)")
        #expect(!serve.stderr.contains(".."), "\(serve.stderr)")
        #expect(await serve.stop() == 0)
    }
}
