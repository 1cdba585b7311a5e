import Foundation
import Glibc
import GPSServer
import GPSTestSupport
import Testing

/// Slots cannot be held by clients that do nothing, one address cannot take them all, a
/// vanished peer is noticed, and what clients cause in the log is held to a rate.
@Suite("No squatting", .timeLimit(.minutes(1)))
struct SquattingTests {
    @Test("A watch that receives nothing while the devices report is closed after the idle time; a watch that gets reports stays")
    func idleWatch() async throws {
        let harness = try ServerHarness(assignmentTimeout: 1)
        // `"enable":true` alone: a watch that is sent nothing (as in gpsd 3.22)
        let squatter = try harness.watcher("{\"enable\":true}")
        let active = try harness.watcher()
        let started = monotonicSeconds()

        for _ in 0..<20 {
            harness.server.publish(.fix(Sample.fix))
            try await Task.sleep(for: .milliseconds(100))
        }

        let told = squatter.readLine(within: 2)
        #expect(told?.contains("Timed out: this watch has received nothing for 1 s while the devices reported") == true, "\(told ?? "nothing")")
        #expect(squatter.waitForClose(within: 2))
        #expect(monotonicSeconds() - started > 0.9, "not before the idle time")
        let reports = active.readLines(21, within: 3)
        #expect(reports.filter { $0.hasPrefix("{\"class\":\"TPV\"") }.count == 20, "the active watcher got every report")
        active.send("?VERSION;")
        #expect(active.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true, "and is still served")
        #expect(harness.log.contains("watches but has received nothing for 1 s; disconnecting it"))
        #expect(await harness.stop())
    }

    @Test("A watch is not idle when there was nothing to send anyone (every device quiet)")
    func quietDevices() async throws {
        let harness = try ServerHarness(assignmentTimeout: 0.5)
        let watcher = try harness.watcher("{\"enable\":true}")

        try await Task.sleep(for: .milliseconds(1500))
        watcher.send("?VERSION;")

        #expect(watcher.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true, "still served")
        #expect(await harness.stop())
    }

    @Test("Past the per-address limit a newcomer from that address is refused, and one from another address is served")
    func perAddress() async throws {
        let harness = try ServerHarness { $0.maxClientsPerAddress = 2 }
        let a = try harness.client(), b = try harness.client()
        _ = (a.readLine(), b.readLine())

        let third = try harness.client()
        let other = try harness.client(from: "127.0.0.2")

        #expect(third.readLine()?.contains("Too many clients from 127.0.0.1 (2); try again later") == true)
        #expect(third.waitForClose(within: 2))
        #expect(other.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true)
        #expect(harness.log.contains("refused 127.0.0.1:"))
        #expect(await harness.stop())
    }

    @Test("With every slot taken, a newcomer is served in place of the client idle longest, once that one has been idle long enough; the others stay")
    func giveWay() async throws {
        // (Refused while nobody has been idle that long: GpsdServerTests' tooMany.)
        let harness = try ServerHarness(maxClients: 2) { $0.giveWayAfter = .seconds(1) }
        let oldest = try harness.watcher("{\"enable\":true}")
        try await Task.sleep(for: .milliseconds(300))
        let younger = try harness.watcher("{\"enable\":true}")
        try await Task.sleep(for: .milliseconds(1200))

        let late = try harness.client()

        #expect(late.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true, "served")
        #expect(oldest.readLine()?.contains("Closed to make room for a new client") == true)
        #expect(oldest.waitForClose(within: 2))
        younger.send("?VERSION;")
        #expect(younger.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true, "the younger one stays")
        #expect(await harness.stop())
    }

    @Test("An accepted client's socket has TCP keepalive: 60 s idle, then 6 probes 10 s apart")
    func keepAlive() async throws {
        let harness = try ServerHarness()
        let client = try harness.client()
        _ = client.readLine()

        // The server runs in this process: its end of the connection is one of our descriptors.
        let serverEnd = try #require(Self.descriptor(withPeerPort: Self.localPort(client.fd)))
        func option(_ level: Int32, _ name: Int32) -> Int32 {
            var value: Int32 = -1
            var length = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(serverEnd, level, name, &value, &length) == 0 ? value : -1
        }

        #expect(option(SOL_SOCKET, SO_KEEPALIVE) == 1)
        #expect(option(Int32(IPPROTO_TCP), TCP_KEEPIDLE) == 60)
        #expect(option(Int32(IPPROTO_TCP), TCP_KEEPINTVL) == 10)
        #expect(option(Int32(IPPROTO_TCP), TCP_KEEPCNT) == 6)
        #expect(await harness.stop())
    }

    @Test("Refused connections are logged five at a time, then counted in one line when the window ends")
    func throttledLog() async throws {
        let harness = try ServerHarness(maxClients: 1) { $0.logWindow = .seconds(1) }
        let holder = try harness.client()
        _ = holder.readLine()

        for _ in 0..<12 {
            let refused = try harness.client()
            _ = refused.readLine()
        }

        let lines = { harness.logs.lines.withLock { $0 } }
        #expect(lines().filter { $0.contains("gpsfix: serve: refused 127.0.0.1:") }.count == 5, "\(lines())")
        #expect(await waitUntil(.seconds(4)) {
            lines().contains("gpsfix: serve: 12 connections refused (every slot taken) in the last 1 s (7 not logged one by one)")
        }, "\(lines())")
        #expect(await harness.stop())
    }

    @Test("A count still held when the server stops is told then")
    func countAtStop() async throws {
        let harness = try ServerHarness(maxClients: 1)
        let holder = try harness.client()
        _ = holder.readLine()
        for _ in 0..<8 {
            let refused = try harness.client()
            _ = refused.readLine()
        }

        #expect(await harness.stop())
        #expect(harness.log.contains("gpsfix: serve: 8 connections refused (every slot taken) in the last minute (3 not logged one by one)"), "\(harness.log)")
    }

    static func localPort(_ fd: Int32) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Our descriptor whose peer is 127.0.0.1:`port`.
    static func descriptor(withPeerPort port: UInt16) -> Int32? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in names.compactMap({ Int32($0) }) {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let ok = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
            }
            if ok == 0, address.sin_family == sa_family_t(AF_INET), UInt16(bigEndian: address.sin_port) == port { return fd }
        }
        return nil
    }
}
