import Foundation
@testable import GPSServer
import GPSTestSupport
import Glibc
import Testing

/// What DEVICES and POLL cost the server at a fleet's size: run by Tools/probe/listing-cost.sh
/// (GPSFIX_PROBE_DEVICES=5000), which keeps the figures; a plain `swift test` skips it. It
/// asserts only that every reply is whole, never a time.
private let probedDevices = ProcessInfo.processInfo.environment["GPSFIX_PROBE_DEVICES"].flatMap { Int($0) }

@Suite("DEVICES and POLL cost (probe)", .enabled(if: probedDevices != nil))
struct ListingProbe {
    /// Seconds per call of `body`, over `times` calls.
    static func each(_ times: Int, _ body: () -> Void) -> Double {
        let started = monotonicSeconds()
        for _ in 0..<times { body() }
        return (monotonicSeconds() - started) / Double(times)
    }

    static func ms(_ s: Double) -> String { s < 0.001 ? String(format: "%.1f µs", s * 1e6) : String(format: "%.2f ms", s * 1000) }

    static func cpu(_ clock: clockid_t) -> Double {
        var t = timespec()
        clock_gettime(clock, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// The length of the next line on `fd`, read with recv and searched chunk by chunk
    /// (LineClient searches all it holds on every read: quadratic in a 4 MB line).
    static func lineLength(_ fd: Int32, carry: inout [UInt8]) -> Int {
        var length = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var pending = carry
        carry = []
        while true {
            if let end = pending.firstIndex(of: 0x0A) {
                carry = Array(pending[(end + 1)...])
                return length + end + 1
            }
            length += pending.count
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return -1 }
            pending = Array(chunk[..<n])
        }
    }

    @Test("5,000 devices with 64-character names, each with a TPV and a SKY")
    func cost() async throws {
        let count = try #require(probedDevices)
        let harness = try ServerHarness(devices: []) { c in
            c.requestRate = 1_000
            c.requestBurst = 1_000
            c.replyLimit = 64 * 1024 * 1024
        }
        let server = harness.server
        let sky = ListingTests.sky
        for i in 0..<count {
            let name = "fleet/" + String(repeating: "v", count: 64 - 6 - String(i).count) + String(i)
            let index = server.addDevice(DeviceDescription(path: name))
            server.publish(.status(.started), device: index)
            server.publish(.fix(Sample.fix), device: index)
            server.publish(.sky(sky), device: index)
        }

        // The loop's side, in process: a rebuild after a change, and a request answered from the cache.
        var cache = ReplyCache(limit: 64 * 1024 * 1024)
        let now = monotonicSeconds()
        var devicesSize = 0, pollSize = 0
        let devicesRebuild = Self.each(1) { devicesSize = cache.devicesReply(server, now: now).size }
        let devicesCached = Self.each(10_000) { _ = cache.devicesReply(server, now: now) }
        let pollRebuild = Self.each(1) { pollSize = cache.pollReply(server, now: now).size }
        let pollCached = Self.each(10_000) { _ = cache.pollReply(server, now: now) }
        // What every ?DEVICES cost before the cache: the whole list encoded per request.
        let listed = server.shared.withLock { $0.devices.map { ($0.description, activated: $0.activated) } }
        let devicesUncached = Self.each(20) { _ = Reports.devices(listed) }

        // End to end: a client asks, the whole reply arrives (loopback transfer included).
        let client = try harness.client()
        _ = client.readLine()
        var lengths: [Int] = []
        var carry: [UInt8] = []
        var loopCPU: [String: Double] = [:], trip: [String: Double] = [:]
        for request in ["DEVICES", "POLL"] {
            // The loop's CPU (system time included: the copies into the socket): the process's
            // less this thread's, which only asks and reads. No await inside: one thread.
            let (process0, thread0) = (Self.cpu(CLOCK_PROCESS_CPUTIME_ID), Self.cpu(CLOCK_THREAD_CPUTIME_ID))
            trip[request] = Self.each(10) {
                client.send("?\(request);")
                lengths.append(Self.lineLength(client.fd, carry: &carry))
            }
            loopCPU[request] = ((Self.cpu(CLOCK_PROCESS_CPUTIME_ID) - process0) - (Self.cpu(CLOCK_THREAD_CPUTIME_ID) - thread0)) / 10
        }

        print("""
            listing probe: \(count) devices; DEVICES \(devicesSize) bytes, POLL \(pollSize) bytes
            listing probe: DEVICES rebuild \(Self.ms(devicesRebuild)), cached \(Self.ms(devicesCached)) per request (before the cache: \(Self.ms(devicesUncached)) per request)
            listing probe: POLL rebuild \(Self.ms(pollRebuild)), cached \(Self.ms(pollCached)) per request
            listing probe: over loopback, the server loop's CPU per request (the answer and writing it): DEVICES \(Self.ms(loopCPU["DEVICES"]!)), POLL \(Self.ms(loopCPU["POLL"]!))
            listing probe: over loopback, asked until received whole: DEVICES \(Self.ms(trip["DEVICES"]!)), POLL \(Self.ms(trip["POLL"]!))
            """)
        #expect(lengths.count == 20 && lengths.allSatisfy { $0 > 100_000 }, "every reply whole: \(Set(lengths))")
        #expect(await harness.stop())
    }
}
