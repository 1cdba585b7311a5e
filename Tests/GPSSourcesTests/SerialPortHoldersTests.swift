import Foundation
import Glibc
import GPSLocation
@testable import GPSSources
import GPSTestSupport
import Synchronization
import Testing

/// One reader per port: a tty another process has open is refused naming it, whether or not
/// it set the exclusive mode; the pty's maker is no reader; a path that can never be a receiver
/// fails at once; the mode a reader holds is set again if something clears it.
@Suite("Serial ports: one reader per port", .serialized, .timeLimit(.minutes(1)),
       .enabled(if: access(SocatPair.executable, X_OK) == 0, "skipped: needs /usr/bin/socat (apt-get install socat)"))
struct SerialPortHoldersTests {

    /// The device number of `path`.
    func device(_ path: String) throws -> UInt64 {
        var info = stat()
        try #require(stat(path, &info) == 0)
        return UInt64(info.st_rdev)
    }

    /// Starts `args` and waits until it has the tty at `path` open.
    func holding(_ path: String, _ args: [String]) async throws -> pid_t {
        let pid = try spawnQuietly(args)
        let device = try device(path)
        let seen = await waitUntil(.seconds(5)) { TTYHolders.scan(device: device).readers.contains { $0.pid == pid } }
        if !seen { kill(pid, SIGKILL); waitpid(pid, nil, 0) }
        try #require(seen, "\(args[0]) never opened \(path)")
        return pid
    }

    func end(_ pid: pid_t) {
        kill(pid, SIGKILL)
        waitpid(pid, nil, 0)
    }

    @Test("A reader that sets no exclusive mode (as gpsd 3.22) is refused by PID and name, and the port is left as it was")
    func plainReaderIsNamed() async throws {
        // Given a pty another process reads without TIOCEXCL
        let pty = try PseudoTerminal()
        let reader = try await holding(pty.path, [SocatPair.executable, "-u", "OPEN:\(pty.path)", "OPEN:/dev/null"])
        defer { end(reader) }
        #expect(!pty.isExclusive)

        // When the manager starts on it
        let refused = await start(SerialNMEAManager(path: pty.path, options: .init(baud: 9600)))

        // Then it is refused, naming the reader, and neither reads nor takes the port
        #expect(refused.errors == [.deviceBusy(path: pty.path, holder: PortHolder(pid: reader, name: "socat"))])
        #expect(refused.statuses.isEmpty)
        #expect(!pty.isExclusive)
    }

    @Test("A reader's name is its own to set: shown with its control characters escaped",
          .enabled(if: access("/usr/bin/python3", X_OK) == 0, "needs python3"))
    func hostileNameIsEscaped() async throws {
        let pty = try PseudoTerminal()
        let script = "import os, time; open('/proc/self/comm', 'w').write('gps\\x1b[2Jd'); os.open('\(pty.path)', os.O_RDONLY | os.O_NOCTTY); time.sleep(60)"
        let reader = try await holding(pty.path, ["/usr/bin/python3", "-c", script])
        defer { end(reader) }

        let refused = await start(SerialNMEAManager(path: pty.path, options: .init(baud: 9600)))

        #expect(refused.errors == [.deviceBusy(path: pty.path, holder: PortHolder(pid: reader, name: "gps\u{1B}[2Jd"))])
        let text = try #require(refused.errors.first?.description)
        #expect(!text.unicodeScalars.contains("\u{1B}"), "\(text)")
        #expect(text.contains("gps\\u{1B}[2Jd (PID \(reader))"), "\(text)")
    }

    @Test("After a SIGKILL left the mode set, a feeder holding the slave is named; once it is gone the port is taken")
    func feederAfterKillIsNamed() async throws {
        // Given a pty whose mode a killed reader left set (this process set it through its own
        // slave descriptor, as a gpsfix killed mid-read leaves it), and a fake receiver's feeder
        // that holds the slave
        let pty = try PseudoTerminal()
        try #require(ioctl(pty.slave, UInt(TIOCEXCL)) == 0)
        defer { _ = ioctl(pty.slave, UInt(TIOCNXCL)) }
        let feeder = try await holding(pty.path, ["/bin/sh", "-c", "exec sleep 60 <>\(pty.path)"])
        var feederAlive = true
        defer { if feederAlive { end(feeder) } }

        // When the manager starts on it
        let refused = await start(SerialNMEAManager(path: pty.path, options: .init(baud: 9600)))

        // Then the refusal names the feeder, not "another process"
        #expect(refused.errors == [.deviceBusy(path: pty.path, holder: PortHolder(pid: feeder, name: "sleep"))])
        #expect(refused.errors.first?.description.contains("sleep (PID \(feeder))") == true)

        // When the feeder is gone too, the mode is left behind with nobody holding the port
        end(feeder)
        feederAlive = false
        let manager = SerialNMEAManager(path: pty.path, options: .init(baud: 9600))
        let taken = await start(manager)
        manager.stopUpdatingLocation()
        #expect(taken.statuses == [.started])
        #expect(taken.errors.isEmpty)
    }

    @Test("The maker of a pty (socat, holding its master) is no reader: the port is read")
    func makerIsNoReader() async throws {
        let dir = try TemporaryDirectory()
        let socat = SocatPair(deviceLink: dir.path + "/gps0", feedLink: dir.path + "/feed")
        try socat.start()
        defer { socat.stop() }

        #expect(TTYHolders.scan(device: try device(socat.deviceLink)).readers == [])
        let manager = SerialNMEAManager(path: socat.deviceLink, options: .init(baud: 9600))
        let delegate = await start(manager)
        manager.stopUpdatingLocation()
        #expect(delegate.statuses == [.started])
        #expect(delegate.errors.isEmpty)
    }

    @Test("A port waited for that appears with another reader is refused naming it, not waited on in silence")
    func appearsBusyIsRefused() async throws {
        // Given a run waiting for a device that is not there yet
        let pty = try PseudoTerminal()
        let reader = try await holding(pty.path, [SocatPair.executable, "-u", "OPEN:\(pty.path)", "OPEN:/dev/null"])
        defer { end(reader) }
        let dir = try TemporaryDirectory()
        let link = dir.path + "/gps0"
        let manager = SerialNMEAManager(path: link, options: .init(baud: 9600, waitsForDevice: true))
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        manager.startUpdatingLocation()
        defer { manager.stopUpdatingLocation() }
        #expect(await waitUntil(.seconds(5)) { delegate.statuses.contains { if case .waiting = $0 { true } else { false } } })

        // When it appears, and another process reads it
        try #require(symlink(pty.path, link) == 0)

        // Then the wait ends in the refusal a start would have given, naming the reader
        #expect(await waitUntil(.seconds(10)) { !delegate.errors.isEmpty }, "\(delegate.events)")
        #expect(delegate.errors == [.deviceBusy(path: link, holder: PortHolder(pid: reader, name: "socat"))])
        #expect(!delegate.statuses.contains(.started))
        #expect(!pty.isExclusive)
    }

    @Test("A directory, a regular file or a FIFO is refused at once, even by a run told to wait for its device",
          arguments: ["directory", "file", "fifo"])
    func neverAReceiver(kind: String) async throws {
        let dir = try TemporaryDirectory()
        let path: String
        switch kind {
        case "directory": path = try dir.makeDirectory("ttyUSB0")
        case "file": path = try dir.write("ttyUSB0", "$GPGGA\r\n")
        default:
            path = dir.path + "/ttyUSB0"
            try #require(mkfifo(path, 0o600) == 0)
        }

        let delegate = await start(SerialNMEAManager(path: path, options: .init(waitsForDevice: true)))

        #expect(delegate.errors.count == 1)
        guard case .notADevice(path, let what)? = delegate.errors.first else {
            Issue.record("\(kind): \(delegate.events)")
            return
        }
        #expect(what.hasPrefix(kind == "file" ? "a regular file" : kind == "fifo" ? "a FIFO" : "a directory"))
        #expect(!delegate.events.contains { if case .status(.waiting) = $0 { true } else { false } }, "never waited for")
        #expect(delegate.errors.first?.description.contains("not a serial port") == true)
    }

    @Test("An exclusive mode cleared under a reader (a root process opening and closing the port) is set again while it reads")
    func lostModeIsSetAgain() async throws {
        // Given a manager reading a pty, holding it exclusively
        let pty = try PseudoTerminal()
        let manager = SerialNMEAManager(path: pty.path, options: .init(baud: 115_200))
        let delegate = await start(manager)
        defer { manager.stopUpdatingLocation() }
        try #require(delegate.statuses == [.started])
        #expect(pty.isExclusive)

        // When something clears the mode, and sentences keep arriving
        try #require(ioctl(pty.slave, UInt(TIOCNXCL)) == 0)
        #expect(!pty.isExclusive)
        let stop = Atomic<Bool>(false)
        let writer = WriterThread {
            var epoch = 0
            while !stop.load(ordering: .relaxed) {
                pty.write(SerialCapture.bytes(epochs: 1, from: epoch))
                epoch += 1
                usleep(100_000)
            }
        }
        defer { stop.store(true, ordering: .relaxed); _ = writer.join(within: 5) }

        // Then the reader sets it again within its check interval
        #expect(await waitUntil(.seconds(3)) { pty.isExclusive })
    }

    @Test("An unplug's reason does not repeat the port's name, which every line already leads with")
    func hangUpReasonNamesNoPort() async throws {
        let dir = try TemporaryDirectory()
        let socat = SocatPair(deviceLink: dir.path + "/gps0", feedLink: dir.path + "/feed")
        try socat.start()
        let manager = SerialNMEAManager(path: socat.deviceLink, options: .init(baud: 9600))
        let delegate = await start(manager)
        defer { manager.stopUpdatingLocation() }
        try #require(delegate.statuses == [.started])
        let device = try #require(DeviceKind.resolved(socat.deviceLink))

        socat.stop()

        var reason: String?
        #expect(await waitUntil(.seconds(5)) {
            reason = delegate.statuses.lazy.compactMap { if case .disconnected(let r) = $0 { r } else { nil } }.first
            return reason != nil
        })
        #expect(reason?.contains(socat.deviceLink) == false, "\(reason ?? "")")
        #expect(reason?.contains(device) == false, "\(reason ?? "")")
    }
}
