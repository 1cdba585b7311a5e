import Foundation
import GPSTestSupport
import Glibc
import Testing

/// The port is given back: on a pty the exclusive mode (TIOCEXCL) outlives the process that set
/// it, and a run that left it set had the next one refused as "held by another process".
@Suite("gpsfix gives the port back", .serialized, .timeLimit(.minutes(2)),
       .enabled(if: RecordTests.socatAvailable && GPSFixBinary.isAvailable, "needs /usr/bin/socat and the built gpsfix"))
struct PortReleaseTests {
    /// A receiver's pty (socat), sending an epoch every 100 ms unless told to be silent.
    final class Receiver: Sendable {
        let directory: TemporaryDirectory
        let device: String
        private let socat: PtyPair
        private let feeding: Task<Void, Never>?

        init(sending: Bool = true) throws {
            directory = try TemporaryDirectory()
            device = directory.path + "/gps"
            let feed = directory.path + "/feed"
            socat = try PtyPair(device: device, feed: feed)
            feeding = sending ? ServeDeviceTests.feeding(feed, from: 0) : nil
        }

        deinit {
            feeding?.cancel()
            socat.stop()
        }

        /// Whether the tty is in exclusive mode now (TIOCGEXCL); nil when it cannot be opened.
        /// Root opens an exclusive tty all the same, which is what lets the test look.
        var isExclusive: Bool? {
            let fd = open(device, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var held: Int32 = 0
            guard ioctl(fd, 0x8004_5440, &held) == 0 else { return nil }
            return held != 0
        }
    }

    /// The arguments of `command` reading `device`; `run` keeps record's files apart.
    static func arguments(_ command: String, device: String, directory: String, run: Int) -> [String] {
        switch command {
        case "serve": ["serve", "--listen", "127.0.0.1:0", "--device", device]
        case "record": ["record", directory + "/run\(run).nmea", "--device", device]
        default: [command, "--device", device]
        }
    }

    @Test("Stopped by a signal, serve, record and watch give the port back; the next run is not refused",
          arguments: ["serve", "record", "watch"], [SIGINT, SIGTERM, SIGHUP])
    func signalledTwice(command: String, signal: Int32) async throws {
        // Given a receiver on a pty
        let receiver = try Receiver()

        for run in 1...2 {
            // When gpsfix has the port open, and is sent the signal
            let gpsfix = try await GPSFixProcess(
                Self.arguments(command, device: receiver.device, directory: receiver.directory.path, run: run),
                announcement: "open, waiting for a fix")
            #expect(receiver.isExclusive == true, "run \(run) holds the port while it runs")
            // Reading epochs, not idle: the reader is busy when the signal comes.
            try await Task.sleep(for: .milliseconds(300))
            let status = await gpsfix.stop(signal)

            // Then it ended cleanly, and left the port as it found it
            #expect(status == 0, "run \(run): \(gpsfix.stderr)")
            #expect(receiver.isExclusive == false, "run \(run) of \(command) left the port exclusive")
            #expect(!gpsfix.stderr.contains("held by another process"), "run \(run): \(gpsfix.stderr)")
        }
    }

    @Test("A fix that ends the run gives the port back at once", arguments: 1...3)
    func fixTwice(run: Int) async throws {
        // Given a receiver on a pty
        let receiver = try Receiver()

        // When fix runs to its end
        let result = try #require(await gpsfix("fix", "--device", receiver.device, "--timeout", "10"))

        // Then it printed a fix, and left the port as it found it
        #expect(result.status == 0, "\(result)")
        #expect(receiver.isExclusive == false)
    }

    @Test("A port left exclusive by a gpsfix killed with SIGKILL is not reported busy")
    func killedHolder() async throws {
        // Given a port a killed gpsfix left in exclusive mode, nobody holding it
        let receiver = try Receiver()
        let killed = try await GPSFixProcess(["watch", "--device", receiver.device], announcement: "open, waiting for a fix")
        _ = await killed.stop(SIGKILL)
        try #require(receiver.isExclusive == true, "SIGKILL leaves the mode set: the case under test")

        // When gpsfix is asked for a fix from it
        let result = try #require(await gpsfix("fix", "--device", receiver.device, "--timeout", "10"))

        // Then it reads it, and gives it back
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("48.117"), "\(result)")
        #expect(receiver.isExclusive == false)
    }

    @Test("A port another program holds exclusively is still refused, naming it and what to do",
          arguments: ["gpsfix", "socat"])
    func heldByAnother(holder: String) async throws {
        // Given a port held exclusively by another gpsfix, or by socat with TIOCEXCL (as gpsd holds it)
        let receiver = try Receiver()
        var running: GPSFixProcess?
        var socat: pid_t = 0
        if holder == "gpsfix" {
            running = try await GPSFixProcess(["watch", "--device", receiver.device], announcement: "open, waiting for a fix")
        } else {
            socat = try spawnQuietly(["/usr/bin/socat", "-u", "OPEN:\(receiver.device),ioctl-void=0x540C", "OPEN:/dev/null"])
        }
        defer {
            if socat > 0 { kill(socat, SIGKILL); waitpid(socat, nil, 0) }
        }
        #expect(await waitUntil(.seconds(5)) { receiver.isExclusive == true })

        // When gpsfix is asked for a fix from it
        let result = try #require(await gpsfix("fix", "--device", receiver.device, "--timeout", "5"))

        // Then it is refused, naming the holder by name and PID, with what to do
        let pid = running?.process.processIdentifier ?? socat
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(receiver.device) is being read by \(holder) (PID \(pid)). Stop it (kill \(pid)) first"), "\(result)")
        if let running { #expect(await running.stop(SIGINT) == 0) }
    }

    // MARK: - devices

    /// Whether `devices` can be shown a pty as /dev/gps0: in a private mount namespace (root).
    static var canMountPrivately: Bool { getuid() == 0 && access("/usr/bin/unshare", X_OK) == 0 }

    /// Runs gpsfix in a mount namespace of its own where /dev holds only `gps0`, the pty behind
    /// `device`: discovery finds it there, and the machine's /dev is left alone.
    static func launcher(showing device: String, in directory: TemporaryDirectory) throws -> [String] {
        let dev = try directory.makeDirectory("dev")
        _ = try directory.write("dev/gps0", "")
        let pty = URL(fileURLWithPath: device).resolvingSymlinksInPath().path
        let script = "mount --bind \(pty) \(dev)/gps0 && mount --rbind \(dev) /dev && exec \"$0\" \"$@\""
        return ["/usr/bin/unshare", "-m", "/bin/sh", "-c", script]
    }

    @Test("devices probes the port and gives it back: twice in a row, the second finds NMEA too",
          .enabled(if: canMountPrivately, "needs root and unshare"))
    func devicesTwice() async throws {
        // Given a receiver on a pty that discovery sees as /dev/gps0
        let receiver = try Receiver()
        let launcher = try Self.launcher(showing: receiver.device, in: receiver.directory)
        let binary = try #require(GPSFixBinary.url)

        for run in 1...2 {
            // When devices probes it
            let result = try await runTool(launcher[0], Array(launcher.dropFirst()) + [binary.path, "devices"])

            // Then it heard NMEA, and left the port as it found it
            #expect(result.status == 0, "run \(run): \(result.err)")
            #expect(result.out.hasPrefix("/dev/gps0  answers with NMEA"), "run \(run): \(result.out)")
            #expect(receiver.isExclusive == false, "run \(run) left the port exclusive")
        }
    }

    @Test("devices stopped by a signal mid-probe gives the port back and says why it ended",
          .enabled(if: canMountPrivately, "needs root and unshare"), arguments: [SIGINT, SIGTERM])
    func devicesSignalled(signal: Int32) async throws {
        // Given a pty that sends nothing, so the probe listens its whole 3 s
        let receiver = try Receiver(sending: false)
        let launcher = try Self.launcher(showing: receiver.device, in: receiver.directory)
        let devices = try await GPSFixProcess(["devices"], launcher: launcher, announcement: nil)

        // When the signal comes while the probe holds the port
        #expect(await waitUntil(.seconds(5)) { receiver.isExclusive == true }, "the probe opened the port")
        let status = await devices.stop(signal)

        // Then it ends as a shell reports a signal, and the port is free
        #expect(status == 128 + signal, "\(devices.stderr)")
        #expect(receiver.isExclusive == false)
    }
}
