// Pseudo-terminals, socat and paced writers for the serial source's tests. There is no USB
// here: a pty is a real tty (termios, exclusive mode, hang-ups), so the manager under test
// runs the same code it runs on a receiver.
import NMEA
import GPSTestSupport
import Foundation
import Glibc
import GPSSources
import GPSLocation
import Synchronization

enum PTYError: Error { case failed(String) }

/// A pseudo-terminal made in the test process. The manager opens `path` (the slave) by name, as
/// it would a receiver; the test writes the "receiver's" bytes into `master`.
///
/// The test keeps its own slave descriptor open for the pty's whole life: the master then
/// never sees a hang-up when the manager closes and reopens the slave, and the test can read
/// the slave's settings and exclusive mode.
final class PseudoTerminal: Sendable {
    let master: Int32
    let slave: Int32
    let path: String

    init() throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        // Raw from the start: bytes written before the manager configures the port must not
        // be echoed or have their CRs turned into LFs.
        var settings = termios()
        cfmakeraw(&settings)
        var name = [CChar](repeating: 0, count: 128)
        guard openpty(&master, &slave, &name, &settings, nil) == 0 else {
            throw PTYError.failed("openpty: \(String(cString: strerror(errno)))")
        }
        // Not inherited by the programs a test starts: a child holding the master would pass
        // for the pty's maker.
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
        self.master = master
        self.slave = slave
        path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        close(master)
        if slave >= 0 { close(slave) }
    }

    /// The slave's input speed as the manager set it, read through the master (on Linux a
    /// master's TCGETS reports its slave's termios).
    var slaveSpeed: Int? {
        var settings = termios()
        guard tcgetattr(master, &settings) == 0 else { return nil }
        return BaudRates.rate(for: cfgetispeed(&settings))
    }

    var slaveSettings: termios? {
        var settings = termios()
        return tcgetattr(master, &settings) == 0 ? settings : nil
    }

    /// Whether the tty is in exclusive mode (TIOCGEXCL).
    var isExclusive: Bool {
        var held: Int32 = 0
        _ = ioctl(slave, 0x8004_5440, &held)
        return held != 0
    }

    /// Writes every byte (the master blocks while the slave's input queue is full).
    func write(_ bytes: [UInt8]) { writeAll(master, bytes) }
}

/// Writes every byte of `bytes` to `fd`; false when the other side is gone.
@discardableResult
func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            if errno == EAGAIN { usleep(500); continue }
            return false
        }
        offset += n
    }
    return true
}

/// The termios speed constants the tests need, by rate.
enum BaudRates {
    static let table: [(rate: Int, speed: speed_t)] = [
        (4800, speed_t(B4800)), (9600, speed_t(B9600)), (38400, speed_t(B38400)),
        (57600, speed_t(B57600)), (115_200, speed_t(B115200)), (230_400, speed_t(B230400)),
        (460_800, speed_t(B460800)), (921_600, speed_t(B921600)),
    ]
    static func rate(for speed: speed_t) -> Int? { table.first { $0.speed == speed }?.rate }
}

/// Sleeps for as long as `count` bytes take on a line at `baud` (8N1: 10 bits a byte).
func pace(bytes count: Int, baud: Int) {
    let nanoseconds = count * 10 * 1_000_000_000 / baud
    var time = timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
    var left = timespec()
    while nanosleep(&time, &left) != 0 && errno == EINTR { time = left }
}

/// Runs `body` on a thread of its own (a writer that sleeps must not hold one of the few
/// threads of the cooperative pool); `join()` waits for it.
final class WriterThread: Sendable {
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [done] in
            body()
            done.signal()
        }
        thread.start()
    }

    /// Waits at most `seconds`; true when the thread ended.
    @discardableResult
    func join(within seconds: Double = 20) -> Bool { done.wait(timeout: .now() + seconds) == .success }
}

/// socat joining two ptys at stable links: the manager opens `deviceLink`, the test writes to
/// `feedLink`. Killing socat removes its links, which is an unplug; starting it again with the
/// same links is a replug.
final class SocatPair: Sendable {
    let deviceLink: String
    let feedLink: String
    private let pid = Mutex<pid_t>(0)

    static let executable = "/usr/bin/socat"

    init(deviceLink: String, feedLink: String) {
        self.deviceLink = deviceLink
        self.feedLink = feedLink
    }

    /// Starts socat and waits until both links exist.
    func start() throws {
        let args = [Self.executable, "-d", "-d",
                    "pty,raw,echo=0,link=\(deviceLink)", "pty,raw,echo=0,link=\(feedLink)"]
        let child = try spawn(args)
        pid.withLock { $0 = child }
        let deadline = Date().addingTimeInterval(5)
        while access(deviceLink, F_OK) != 0 || access(feedLink, F_OK) != 0 {
            guard Date() < deadline else { throw PTYError.failed("socat made no links within 5 s") }
            usleep(2000)
        }
    }

    /// Stops socat with SIGTERM (by its PID) and reaps it.
    func stop() {
        let child = pid.withLock { p -> pid_t in defer { p = 0 }; return p }
        guard child > 0 else { return }
        stopChild(child)
    }

    deinit { stop() }

    private func spawn(_ args: [String]) throws -> pid_t {
        try spawnQuietly(args)
    }
}

/// A capture made for these tests: 1 Hz epochs of RMC, GGA, GSA and a GSV pair, stamped from
/// 2019-04-12 12:00:00 on, every checksum computed here.
enum SerialCapture {
    static func epoch(_ second: Int) -> [String] {
        let t = "12" + pad(second / 60) + pad(second % 60) + ".00"
        let lat = String(format: "%07.4f", 7.0380 + Double(second) * 0.001)
        return [
            "GPRMC,\(t),A,48\(lat),N,01131.0000,E,0.5,54.7,120419,,,A",
            "GPGGA,\(t),48\(lat),N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,",
            "GPGSA,A,3,04,05,09,12,24,,,,,,,,2.5,1.3,2.1",
            "GPGSV,2,1,05,04,45,120,40,05,30,200,35,09,60,310,42,12,15,045,30",
            "GPGSV,2,2,05,24,70,270,44",
        ].map(NMEASentence.framed)
    }

    /// `count` epochs from `first` on, CRLF line ends.
    static func bytes(epochs count: Int, from first: Int = 0) -> [UInt8] {
        Array((first..<first + count).flatMap(epoch).map { $0 + "\r\n" }.joined().utf8)
    }

    /// The fixes the engine makes of `bytes` when it has them all at once (the reference).
    static func referenceFixes(_ bytes: [UInt8]) -> [Fix] {
        NMEAParser.events(of: bytes).compactMap { if case .fix(let f) = $0 { f } else { nil } }
    }

    private static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

extension RecordingDelegate {
    var statuses: [SourceStatus] { events.compactMap { if case .status(let s) = $0 { s } else { nil } } }
    var errors: [LocationError] { events.compactMap { if case .error(let e) = $0 { e } else { nil } } }
    var sentences: [String] { events.compactMap { if case .sentence(let s) = $0 { s } else { nil } } }
}

/// Collects what `onBytes` is handed: the bytes, and how many reads they came in.
final class ByteLog: Sendable {
    private let state = Mutex<(bytes: [UInt8], reads: Int)>(([], 0))
    var bytes: [UInt8] { state.withLock { $0.bytes } }
    var reads: Int { state.withLock { $0.reads } }
    var count: Int { state.withLock { $0.bytes.count } }

    /// Waits (at most a second) until `count` bytes have been handed on.
    func waitForCount(_ count: Int) {
        for _ in 0..<20_000 where self.count < count { usleep(50) }
    }
    var handler: @Sendable (UnsafeRawBufferPointer) -> Void {
        { chunk in self.state.withLock { $0.bytes.append(contentsOf: chunk); $0.reads += 1 } }
    }
}

/// Starts `manager` (a serial port, gpsd) with a recording delegate and waits for `.started`
/// (or a failure).
func start(_ manager: some LocationManagerInterface) async -> RecordingDelegate {
    let delegate = RecordingDelegate()
    manager.delegate = delegate
    manager.startUpdatingLocation()
    _ = await waitUntil(.seconds(5)) { delegate.statuses.contains(.started) || !delegate.errors.isEmpty }
    return delegate
}
