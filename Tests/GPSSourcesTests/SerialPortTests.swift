import Foundation
import Glibc
import GPSLocation
import GPSSystem
@testable import GPSSources
import GPSTestSupport
import Testing

@Suite("Serial port: termios, exclusive mode, errors")
struct SerialPortTests {
    // MARK: - Settings

    @Test("A port is opened raw 8N1, no flow control, VMIN 1 VTIME 0, and held exclusively until released")
    func rawExclusiveSettings() throws {
        // Given a pty standing in for a receiver
        let pty = try PseudoTerminal()

        // When the port is opened and set to 9600 baud
        var port: SerialPort? = try SerialPort.open(pty.path)
        try port?.setSpeed(9600)

        // Then the tty's settings, read through the master, are raw 8N1 at 9600 …
        let settings = try #require(pty.slaveSettings)
        let cflag = settings.c_cflag, lflag = settings.c_lflag, iflag = settings.c_iflag
        let size = tcflag_t(CSIZE), eightBits = tcflag_t(CS8)
        let local = tcflag_t(CLOCAL), receive = tcflag_t(CREAD)
        let parity = tcflag_t(PARENB), twoStops = tcflag_t(CSTOPB), hardwareFlow = tcflag_t(CRTSCTS)
        let canonical = tcflag_t(ICANON), echo = tcflag_t(ECHO), signals = tcflag_t(ISIG)
        let xon = tcflag_t(IXON), crToNl = tcflag_t(ICRNL)
        #expect(cflag & size == eightBits)
        #expect(cflag & local != 0)
        #expect(cflag & receive != 0)
        #expect(cflag & (parity | twoStops | hardwareFlow) == 0)
        #expect(lflag & (canonical | echo | signals) == 0)
        #expect(iflag & (xon | crToNl) == 0)
        var cc = settings.c_cc
        let (vmin, vtime) = withUnsafeBytes(of: &cc) { ($0[Int(VMIN)], $0[Int(VTIME)]) }
        #expect(vmin == 1)
        #expect(vtime == 0)
        #expect(pty.slaveSpeed == 9600)
        #expect(port?.speed == 9600)
        // … held exclusively, and released with the port
        #expect(pty.isExclusive)
        port = nil
        #expect(!pty.isExclusive, "a closed port must not leave the tty exclusive for the next open")
    }

    @Test("A pty slave's device number gives its /dev/pts index; a USB serial port's gives none")
    func ptyIndex() throws {
        let pty = try PseudoTerminal()
        var info = stat()
        try #require(fstat(pty.slave, &info) == 0)
        let index = try #require(UInt64(pty.path.split(separator: "/").last ?? ""))
        #expect(TTYHolders.ptyIndex(UInt64(info.st_rdev)) == index)
        // major 137 minor 4: /dev/pts/260; major 188 minor 0: /dev/ttyUSB0
        #expect(TTYHolders.ptyIndex(137 << 8 | 4) == 260)
        #expect(TTYHolders.ptyIndex(188 << 8) == nil)
    }

    @Test("Every autobaud rate has a termios speed and back; an odd rate has none")
    func baudTable() {
        for rate in Autobaud.rates {
            let speed = BaudRate.speed(for: rate)
            #expect(speed != nil, "\(rate)")
            #expect(speed.flatMap(BaudRate.rate(for:)) == rate)
        }
        #expect(BaudRate.speed(for: 12345) == nil)
        #expect(BaudRate.speed(for: 9600)?.rawValue == speed_t(B9600))
    }

    // MARK: - Errors a person can act on

    @Test("EACCES names the group that owns the device (through a symlink, as udev's links are)")
    func permissionDeniedNamesGroup() throws {
        // Root is never refused by mode bits (chmod 000 on a pty would not stop this test), so
        // the mapping from the errno open gives is tested directly, on a real stat'd path.
        // Given a file owned by group dialout, and a link to it like /dev/gps0
        let dir = try TemporaryDirectory()
        let node = try dir.write("ttyUSB9", "")
        let link = dir.path + "/gps0"
        #expect(symlink(node, link) == 0)
        let dialout = try #require(getgrnam("dialout")?.pointee.gr_gid, "no dialout group here")
        try #require(chown(node, uid_t.max, dialout) == 0, "cannot chown: \(String(cString: strerror(errno)))")

        // When open fails with EACCES (or EPERM)
        let denied = DeviceAccess.error(opening: link, SystemError(rawValue: EACCES))
        let notPermitted = DeviceAccess.error(opening: link, SystemError(rawValue: EPERM))

        // Then the error names the group, and its message the fix
        #expect(denied == .permissionDenied(path: link, group: "dialout"))
        #expect(notPermitted == .permissionDenied(path: link, group: "dialout"))
        #expect(denied.description.contains("usermod -aG dialout"))
    }

    @Test("A device owned by root's group gets no advice to join it; a missing one no group at all")
    func permissionDeniedRootGroup() throws {
        let dir = try TemporaryDirectory()
        let node = try dir.write("ttyS9", "")
        try #require(chown(node, uid_t.max, 0) == 0)
        #expect(DeviceAccess.error(opening: node, SystemError(rawValue: EACCES)) == .permissionDenied(path: node, group: nil))
        #expect(DeviceAccess.owningGroup(of: dir.path + "/missing") == nil)
    }

    @Test("errno from open maps to the error a person can act on", arguments: [
        (ENOENT, "missing"), (ENOTDIR, "missing"), (ENXIO, "missing"), (ENODEV, "missing"),
        (EBUSY, "busy"), (ENOTTY, "not a tty"), (EIO, "io"),
    ])
    func errnoMapping(code: Int32, kind: String) {
        let path = "/dev/ttyUSB7"
        let error = DeviceAccess.error(opening: path, SystemError(rawValue: code)) { _ in "dialout" }
        switch kind {
        case "missing": #expect(error == .deviceNotFound(searched: [path]))
        case "busy":
            #expect(error == .deviceBusy(path: path, holder: nil))
            #expect(error.description.contains("held by another process"))
        case "not a tty": #expect(error.description.contains("not a serial port"))
        default: #expect(error == .io("\(path): \(String(cString: strerror(code)))"))
        }
    }

    @Test("EINTR is retried, other failures carry their errno")
    func retriesInterrupts() {
        var calls = 0
        let result = try? retryingInterrupts { () -> Int32 in
            calls += 1
            if calls < 3 { errno = EINTR; return -1 }
            return 7
        }
        #expect(result == 7)
        #expect(calls == 3)
        #expect(throws: SystemError.busy) { try retryingInterrupts { () -> Int32 in errno = EBUSY; return -1 } }
    }

    // MARK: - Autobaud's plan

    @Test("The hunt tries the last rate that worked first, then the rest in order")
    func huntOrder() {
        #expect(Autobaud.rates == [4800, 9600, 38400, 57600, 115_200, 230_400, 460_800, 921_600])
        #expect(Autobaud.order(preferring: nil) == Autobaud.rates)
        #expect(Autobaud.order(preferring: 115_200) == [115_200, 4800, 9600, 38400, 57600, 230_400, 460_800, 921_600])
        #expect(Autobaud.order(preferring: 12345) == Autobaud.rates)
    }

    @Test("A rate's window is two longest sentences at that rate plus a small margin")
    func windows() {
        #expect(abs(Autobaud.window(for: 9600) - (2 * 82 * 10 / 9600.0 + Autobaud.margin)) < 1e-12)
        #expect(Autobaud.window(for: 4800) < 0.4)
        #expect(Autobaud.window(for: 115_200) < 0.05)
        // Every wrong rate together costs about a second at most.
        #expect(Autobaud.rates.map(Autobaud.window(for:)).reduce(0, +) < 1.0)
    }

    @Test("A hunt moves through the rates and gives up after its rounds")
    func huntAdvances() {
        var hunt = BaudHunt(preferring: 57600)
        #expect(hunt.rate == 57600)
        #expect(hunt.deadline == nil, "no window before a byte arrives")
        hunt.heard(at: 10)
        hunt.heard(at: 11)
        #expect(hunt.deadline == 10 + Autobaud.window(for: 57600))
        var visited = [hunt.rate]
        while hunt.advance() { visited.append(hunt.rate) }
        #expect(visited.count == Autobaud.rates.count * Autobaud.rounds)
        #expect(Array(visited.prefix(3)) == [57600, 4800, 9600])
    }

    @Test("A device's stable by-id names are the links that lead to its node")
    func stableLinks() throws {
        let dir = try TemporaryDirectory()
        let node = try dir.write("ttyUSB4", "")
        let other = try dir.write("ttyUSB5", "")
        let byID = try dir.makeDirectory("by-id")
        #expect(symlink(node, byID + "/usb-Prolific_GPS-if00-port0") == 0)
        #expect(symlink(other, byID + "/usb-FTDI_FT232R-if00-port0") == 0)
        #expect(symlink(dir.path + "/gone", byID + "/usb-dangling") == 0)
        let gps0 = dir.path + "/gps0"
        #expect(symlink(node, gps0) == 0)

        #expect(DeviceKind.stableLinks(to: node, in: byID) == [byID + "/usb-Prolific_GPS-if00-port0"])
        #expect(DeviceKind.stableLinks(to: gps0, in: byID) == [byID + "/usb-Prolific_GPS-if00-port0"])
        #expect(DeviceKind.stableLinks(to: byID + "/usb-Prolific_GPS-if00-port0", in: byID) == [], "already stable")
        #expect(DeviceKind.stableLinks(to: dir.path + "/missing", in: byID) == [])
        #expect(DeviceKind.stableLinks(to: node, in: dir.path + "/no-such-dir") == [])
    }

    @Test("USB CDC-ACM devices are recognised by the node their links lead to")
    func cdcACM() throws {
        let dir = try TemporaryDirectory()
        let node = try dir.write("ttyACM9", "")
        let link = dir.path + "/usb-u-blox_GNSS_receiver-if00"
        #expect(symlink(node, link) == 0)
        #expect(DeviceKind.isCDCACM("/dev/ttyACM0"))
        #expect(DeviceKind.isCDCACM(link))
        #expect(!DeviceKind.isCDCACM("/dev/ttyUSB0"))
        #expect(!DeviceKind.isCDCACM(try dir.write("ttyUSB3", "")))
    }
}
