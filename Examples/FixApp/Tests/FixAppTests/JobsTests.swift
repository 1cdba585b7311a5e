import FixApp
import Foundation
import Glibc
import GPSLocation
import GPSServer
import GPSSources
import NMEA
import Testing

/// The five jobs against the real thing: the repository's captures, a pseudo-terminal with
/// real termios, a gpsd client on a socket, and mosquitto when it is installed.
@Suite("The five jobs, through public API only", .serialized, .timeLimit(.minutes(1)))
struct JobsTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let capture = repository.appendingPathComponent("Captures/drive-1hz.nmea").path

    @Test("Replaying a capture and parsing its bytes find the same positions")
    func replayAndParse() async throws {
        let replayed = try await Jobs.positions(inCapture: Self.capture)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.capture)))
        let parsed = Jobs.fixes(parsing: bytes).filter { $0.coordinate != nil && $0.hasFix }
        #expect(replayed.count > 100)
        #expect(replayed.map(\.coordinate) == parsed.map(\.coordinate))
    }

    @Test("A receiver on a pseudo-terminal gives its first whole fix")
    func readsAPty() async throws {
        var master: Int32 = -1, slave: Int32 = -1
        #expect(openpty(&master, &slave, nil, nil, nil) == 0)
        let path = String(cString: ttyname(slave))
        // Nobody else holds the port: gpsfix refuses one that another process reads.
        close(slave)
        let receiver = master
        defer { close(receiver) }
        let epochs = Self.epochs()
        let writer = Task.detached {
            for epoch in epochs where !Task.isCancelled {
                _ = epoch.withUnsafeBytes { write(receiver, $0.baseAddress, $0.count) }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        defer { writer.cancel() }
        let fix = try await Jobs.firstFix(onPort: path, timeout: .seconds(10))
        #expect(fix.coordinate.map { abs($0.latitude - 48.1173) < 0.01 } == true, "\(fix)")
    }

    @Test("A gpsd client watching the served capture receives TPV reports")
    func serves() async throws {
        let bound = Bound()
        let serving = Task {
            try await Jobs.serve(ReplayManager(path: Self.capture, speed: .factor(20), loop: true),
                                 on: ListenAddress(host: "127.0.0.1", port: 0)) { bound.set($0.port) }
        }
        defer { serving.cancel() }
        let port = try #require(await bound.port())
        let lines = try await Task.detached { try Self.watch(port: port, lines: 12) }.value
        #expect(lines.contains { $0.hasPrefix("{\"class\":\"TPV\"") }, "\(lines)")
        serving.cancel()
        _ = await serving.result
    }

    @Test("Publishing to a broker: a subscriber receives the TPV topic",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto")
                   && FileManager.default.isExecutableFile(atPath: "/usr/bin/mosquitto_sub")))
    func publishes() async throws {
        let port = Int.random(in: 20_000..<60_000)
        let broker = Process()
        broker.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        broker.arguments = ["-p", String(port)]
        // Neither of the test's own outputs: a broker left holding one keeps `swift test | …` open.
        broker.standardOutput = FileHandle.nullDevice
        broker.standardError = FileHandle.nullDevice
        try broker.run()
        // Killed and reaped by its PID (Foundation's waitUntilExit spins a run loop that never
        // returns on a task's thread).
        defer {
            kill(broker.processIdentifier, SIGKILL)
            waitpid(broker.processIdentifier, nil, 0)
        }
        try await Task.sleep(for: .milliseconds(500))
        let subscriber = Process()
        subscriber.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        subscriber.arguments = ["-p", String(port), "-t", "fixapp/tpv", "-C", "1", "-W", "20"]
        let out = Pipe()
        subscriber.standardOutput = out
        subscriber.standardError = FileHandle.nullDevice
        try subscriber.run()
        try await Task.sleep(for: .milliseconds(300))
        let publishing = Task {
            try await Jobs.publish(ReplayManager(path: Self.capture, speed: .factor(10), loop: true),
                                   to: "mqtt://127.0.0.1:\(port)/fixapp")
        }
        defer { publishing.cancel() }
        let received = await Task.detached { () -> String in
            // mosquitto_sub ends after one message (-C 1) or 20 s (-W 20), closing its output.
            String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }.value
        #expect(received.hasPrefix("{\"class\":\"TPV\""), "\(received)")
    }

    /// A 1 Hz receiver's epochs, ten of them.
    static func epochs() -> [[UInt8]] {
        (0..<30).map { i in
            let stamp = String(format: "1235%02d.00", i)
            let gga = sentence("GPGGA,\(stamp),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
            let rmc = sentence("GPRMC,\(stamp),A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W")
            return Array((gga + rmc).utf8)
        }
    }

    static func sentence(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0), ^)
        return "$\(body)*\(String(format: "%02X", sum))\r\n"
    }

    /// Connects, asks for JSON, and reads `lines` lines (or what comes in 10 s).
    static func watch(port: Int, lines wanted: Int) throws -> [String] {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("?WATCH={\"enable\":true,\"json\":true};\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        // gpsd's lines end in CR LF, which a String holds as one Character: count the bytes' LFs.
        while text.utf8.count(where: { $0 == 0x0A }) < wanted {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            text += String(decoding: buffer[..<n], as: UTF8.self)
        }
        return text.split(whereSeparator: \.isNewline).map(String.init)
    }
}

/// The port a server bound, handed from its task to the test.
private final class Bound: @unchecked Sendable {
    // Written once by the serving task before `port()` reads it; the lock orders the two.
    private let lock = NSLock()
    private var value: Int?

    func set(_ port: Int) { lock.withLock { value = port } }

    func port() async -> Int? {
        for _ in 0..<500 {
            if let port = lock.withLock({ value }) { return port }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}
