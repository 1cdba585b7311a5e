import Foundation
import GPSTestSupport
import Glibc
import Testing

/// One reader per port, as a person meets it: a pty gpsd reads is refused naming gpsd's PID
/// and how to stop it (gpsd 3.22 sets no exclusive mode, so before this each got half the
/// sentences); a directory is an error at once, not a wait; SIGHUP (a closed terminal, an ssh
/// drop) ends `record --gpx` with a document GPSBabel reads and the port given back.
@Suite("gpsfix: one reader per port", .serialized, .timeLimit(.minutes(1)),
       .enabled(if: RecordTests.socatAvailable && GPSFixBinary.isAvailable, "needs /usr/bin/socat and the built gpsfix"))
struct PortReadersTests {
    /// Whether process `pid` has the tty at `path` open (a descriptor leading to its node).
    static func holds(_ pid: pid_t, _ path: String) -> Bool {
        var tty = stat()
        guard stat(path, &tty) == 0, let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { return false }
        return entries.contains { entry in
            var file = stat()
            return stat("/proc/\(pid)/fd/\(entry)", &file) == 0 && file.st_rdev == tty.st_rdev && file.st_mode & S_IFMT == S_IFCHR
        }
    }

    @Test("watch --device on a pty that gpsd reads is refused, naming gpsd's PID, how to stop it and --gpsd",
          .enabled(if: access(GpsdOnPty.gpsd, X_OK) == 0, "needs /usr/sbin/gpsd (apt-get install gpsd)"))
    func gpsdIsNamed() async throws {
        // Given gpsd reading one end of a socat pty pair (socat is the maker, gpsd the reader)
        let dir = try TemporaryDirectory()
        let device = dir.path + "/gps0"
        let ptys = try PtyPair(device: device, feed: dir.path + "/feed")
        defer { ptys.stop() }
        let port = try freeLoopbackPort()
        let gpsd = try DaemonProcess([GpsdOnPty.gpsd, "-N", "-n", "-b", "-s", "4800", "-f", "8N1", "-S", String(port),
                                      "-F", dir.path + "/gpsd.sock", device])
        defer { gpsd.kill() }
        try #require(await waitUntil(.seconds(5)) { Self.holds(gpsd.pid, device) }, "gpsd never opened \(device)")

        // When watch is asked to read the same port
        let result = try #require(await gpsfix("watch", "--device", device, limit: .seconds(10)))

        // Then it is refused at once, naming gpsd and its PID, with the two ways on
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("\(device) is being read by gpsd (PID \(gpsd.pid))."), "\(result)")
        #expect(result.stderr.contains("sudo systemctl stop gpsd gpsd.socket"), "\(result)")
        #expect(result.stderr.contains("--gpsd"), "\(result)")
        #expect(Self.holds(gpsd.pid, device), "gpsd still reads it")
    }

    @Test("--device naming a directory or a regular file fails at once, for watch and for serve (which waits for devices)",
          arguments: ["watch", "serve"], ["directory", "file"])
    func neverAReceiver(command: String, kind: String) async throws {
        let dir = try TemporaryDirectory()
        let path = kind == "directory" ? try dir.makeDirectory("ttyUSB0") : try dir.write("ttyUSB0", "$GPGGA\r\n")
        let arguments = command == "serve" ? ["serve", "--listen", "127.0.0.1:0", "--device", path] : ["watch", "--device", path]

        let result = try #require(await runGPSFix(arguments, limit: .seconds(10)))

        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("\(path) is \(kind == "directory" ? "a directory" : "a regular file")"), "\(result)")
        #expect(result.stderr.contains("not a serial port"), "\(result)")
        #expect(!result.stderr.contains("appear"), "not waited for: \(result)")
    }

    @Test("SIGHUP during record --gpx leaves a complete GPX that GPSBabel reads, and the port given back",
          .enabled(if: GPXCommandTests.gpsbabelAvailable, "needs /usr/bin/gpsbabel (apt-get install gpsbabel)"))
    func hangUpDuringGPX() async throws {
        // Given record --gpx writing a receiver's fixes
        let receiver = try PortReleaseTests.Receiver()
        let file = receiver.directory.path + "/track.gpx"
        let record = try await GPSFixProcess(["record", "--gpx", file, "--device", receiver.device], announcement: "Ctrl-C to stop")
        #expect(await waitUntil(.seconds(10)) { ((try? GPXReader.trackpointLines(file)) ?? 0) >= 3 }, "\(record.stderr)")
        #expect(receiver.isExclusive == true, "held while it records")

        // When its terminal hangs up
        let status = await record.stop(SIGHUP)

        // Then it ended as on Ctrl-C: exit 0, the document closed, the port not exclusive
        #expect(status == 0, "\(record.stderr)")
        let points = try await GPXReader.gpsbabel(file)
        #expect(points.count >= 3)
        #expect(points.count == (try GPXReader.trackpointLines(file)), "every point written is read")
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasSuffix("</gpx>\n"))
        #expect(receiver.isExclusive == false, "the port was given back")
    }
}
