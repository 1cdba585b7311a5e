// A real gpsd on loopback for GpsdManager's tests: socat joins two ptys, gpsd reads one end
// (read-only, fixed speed), the test writes NMEA into the other. Every process is started
// here and stopped by its PID.
import GPSTestSupport
import Foundation
import Glibc
import GPSLocation
import Synchronization

enum GpsdTools {
    static let gpsd = "/usr/sbin/gpsd"
    static let socat = "/usr/bin/socat"
    /// Why the tests cannot run here, or nil.
    static var missing: String? {
        for tool in [gpsd, socat] where access(tool, X_OK) != 0 {
            return "\(tool) is not installed (apt-get install gpsd socat)"
        }
        return nil
    }
}

/// A child process stopped by its PID. Started with an empty signal mask and default
/// dispositions: children of the test runner would otherwise inherit blocked signals.
final class ChildProcess: Sendable {
    let pid: pid_t
    private let reaped = Atomic<Bool>(false)

    init(_ args: [String]) throws {
        pid = try spawnQuietly(args)
    }

    func signal(_ number: Int32) { if !reaped.load(ordering: .acquiring) { Glibc.kill(pid, number) } }

    /// SIGKILL, then reaped: gone for sure when this returns.
    func kill() {
        guard reaped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    deinit { kill() }
}

enum Loopback {
    /// A TCP port on 127.0.0.1 that nobody listens on (the kernel's choice, released).
    static func freePort() throws -> Int { try freeLoopbackPort() }

    /// Whether something accepts connections on 127.0.0.1:`port`.
    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Polls until `port` accepts, at most `seconds`.
    static func waitUntilAccepting(_ port: Int, seconds: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if accepts(port) { return true }
            usleep(20_000)
        }
        return false
    }
}

/// socat's pty pair, a gpsd reading one end, and the test's writer at the other.
final class GpsdRig: Sendable {
    let port: Int
    let deviceLink: String
    let feedLink: String
    private let socat: ChildProcess
    private let gpsdProcess = Mutex<ChildProcess?>(nil)
    /// Held open for the rig's life, so that gpsd closing its end (killed) is no hang-up
    /// that ends socat.
    private let deviceHold: Int32
    private let feed: Int32
    private let feeding = Atomic<Bool>(false)
    private let feederDone = DispatchSemaphore(value: 0)

    init(directory: String) throws {
        port = try Loopback.freePort()
        deviceLink = directory + "/gps0"
        feedLink = directory + "/feed"
        socat = try ChildProcess([GpsdTools.socat, "pty,raw,echo=0,link=\(deviceLink)", "pty,raw,echo=0,link=\(feedLink)"])
        let deadline = Date().addingTimeInterval(5)
        while access(deviceLink, F_OK) != 0 || access(feedLink, F_OK) != 0 {
            guard Date() < deadline else { socat.kill(); throw PTYError.failed("socat made no links within 5 s") }
            usleep(5_000)
        }
        deviceHold = open(deviceLink, O_RDONLY | O_NOCTTY | O_NONBLOCK)
        feed = open(feedLink, O_WRONLY | O_NOCTTY | O_NONBLOCK)
        guard deviceHold >= 0, feed >= 0 else { socat.kill(); throw PTYError.failed("cannot open socat's ptys") }
    }

    /// Starts gpsd on the device end and waits until it accepts connections.
    func startGpsd() throws {
        let child = try ChildProcess([GpsdTools.gpsd, "-N", "-n", "-b", "-s", "4800", "-f", "8N1",
                                      "-S", String(port), deviceLink])
        gpsdProcess.withLock { $0 = child }
        guard Loopback.waitUntilAccepting(port) else { throw PTYError.failed("gpsd did not accept on port \(port) within 5 s") }
    }

    func signalGpsd(_ number: Int32) { gpsdProcess.withLock { $0?.signal(number) } }

    func killGpsd() {
        let child = gpsdProcess.withLock { p -> ChildProcess? in defer { p = nil }; return p }
        child?.kill()
    }

    func write(_ bytes: [UInt8]) { writeAll(feed, bytes) }

    /// Writes what the pty takes within a moment: with gpsd down nobody drains it.
    private func writeBestEffort(_ bytes: [UInt8]) {
        var offset = 0, tries = 0
        while offset < bytes.count, tries < 100 {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(feed, $0.baseAddress, $0.count) }
            if n > 0 { offset += n } else { tries += 1; usleep(1_000) }
        }
    }

    /// Writes 1 Hz epochs (a tenth of a second apart) on a thread of its own until `stopFeeding`.
    func startFeeding(from first: Int = 0) {
        feeding.store(true, ordering: .releasing)
        let thread = Thread { [self] in
            var second = first
            while feeding.load(ordering: .acquiring) {
                writeBestEffort(SerialCapture.bytes(epochs: 1, from: second % 3600))
                second += 1
                usleep(100_000)
            }
            feederDone.signal()
        }
        thread.start()
    }

    func stopFeeding() {
        guard feeding.exchange(false, ordering: .acquiringAndReleasing) else { return }
        feederDone.wait()
    }

    /// Stops the writer, gpsd and socat (SIGKILL, by PID).
    func tearDown() {
        stopFeeding()
        killGpsd()
        socat.kill()
    }

    deinit {
        tearDown()
        close(deviceHold)
        close(feed)
    }
}
