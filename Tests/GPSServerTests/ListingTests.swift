import Foundation
import GPSLocation
import NMEA
import GPSServer
import GPSTestSupport
import Testing

/// DEVICES and POLL at fleet sizes: whole or an ERROR, never lost behind reports, cached, and
/// rationed per client.
@Suite("DEVICES and POLL for a fleet", .timeLimit(.minutes(1)))
struct ListingTests {
    /// `count` devices with long names, each in service.
    static func fleet(_ count: Int, name: Int = 100) -> [DeviceDescription] {
        (0..<count).map { DeviceDescription(path: "fleet/" + String(repeating: "v", count: name) + "-\($0)") }
    }

    static func activate(_ harness: ServerHarness, _ count: Int) {
        for i in 0..<count { harness.server.publish(.status(.started), device: i) }
    }

    static var sky: SkyView {
        Sample.events(0..<1).compactMap { if case .sky(let s) = $0 { s } else { nil } }[0]
    }

    static func listed(_ line: String?) -> [String]? {
        guard let line, let object = jsonObject(line), object["class"] as? String == "DEVICES" else { return nil }
        return (object["devices"] as? [[String: Any]])?.compactMap { $0["path"] as? String }
    }

    @Test("DEVICES arrives whole to a client whose queue is full of reports it has not read")
    func wholeBehindReports() async throws {
        // Given 300 devices (DEVICES is about 50 kB) and a 16 kB queue for reports
        let devices = Self.fleet(300)
        let harness = try ServerHarness(queueLimit: 16 * 1024, devices: devices)
        Self.activate(harness, devices.count)
        let slow = try harness.client(receiveBuffer: 4096)
        _ = slow.readLine()
        slow.send("?WATCH={\"enable\":true,\"json\":true};")

        // When it does not read while 300 SKYs (about 120 kB) are published, then asks ?DEVICES
        for _ in 0..<300 { harness.server.publish(.sky(Self.sky)) }
        #expect(await waitUntil(.seconds(5)) { harness.log.contains("is not reading; dropping reports") })
        slow.send("?DEVICES;")
        try await Task.sleep(for: .milliseconds(200))
        // Read until both lists are in (not for a fixed time: a blocked test thread starves others).
        var lines: [String] = []
        while lines.compactMap(Self.listed).count < 2, let line = slow.readLine(within: 3) { lines.append(line) }

        // Then both lists (the watch's and the one asked for) came whole, every device in each
        let lists = lines.compactMap(Self.listed)
        #expect(lists.count == 2, "\(lines.count) lines, \(lists.count) DEVICES")
        #expect(lists.allSatisfy { $0 == devices.map(\.path) })
        #expect(lines.contains { $0.hasPrefix("{\"class\":\"SKY\"") }, "reports came too, as far as the queue held them")
        #expect(await harness.stop())
    }

    @Test("DEVICES or POLL larger than the reply limit is an ERROR that says so; a watch then gets the ERROR and its WATCH")
    func oversized() async throws {
        let devices = Self.fleet(100, name: 64)
        let harness = try ServerHarness(devices: devices) { $0.replyLimit = 8_000 }
        Self.activate(harness, devices.count)
        for i in devices.indices { harness.server.publish(.fix(Sample.fix), device: i) }
        let client = try harness.client()
        _ = client.readLine()

        client.send("?DEVICES;?POLL;?WATCH={\"enable\":true,\"json\":true};")
        let replies = client.readLines(4)

        #expect(replies.count == 4, "\(replies)")
        let messages = replies.prefix(3).compactMap { jsonObject($0)?["message"] as? String }
        #expect(messages.count == 3, "\(replies)")
        #expect(messages.first?.hasPrefix("DEVICES of 100 devices would be ") == true, "\(messages)")
        #expect(messages.dropFirst().first?.hasPrefix("POLL of 100 devices would be ") == true, "\(messages)")
        #expect(messages.allSatisfy { $0.contains("more than the 8000 a reply may be") })
        #expect(replies.last?.hasPrefix("{\"class\":\"WATCH\",\"enable\":true") == true)
        #expect(await harness.stop())
    }

    @Test("A client asking for DEVICES again and again gets the burst, one ERROR, then nothing until the rate allows")
    func rationed() async throws {
        let harness = try ServerHarness { $0.requestRate = 2; $0.requestBurst = 3 }
        harness.server.publish(.status(.started))
        let client = try harness.client()
        _ = client.readLine()

        client.send(String(repeating: "?DEVICES;", count: 8))
        let replies = client.readLines(4)
        let more = client.readLine(within: 0.3)
        try await Task.sleep(for: .milliseconds(600))
        client.send("?DEVICES;")
        let later = client.readLine()

        #expect(replies.filter { Self.listed($0) != nil }.count == 3, "\(replies)")
        let errors = replies.filter { $0.hasPrefix("{\"class\":\"ERROR\"") }
        #expect(more == nil, "the other four are not answered: \(more ?? "")")
        #expect(errors.count == 1 && errors[0].contains("DEVICES not sent: it lists every device, so one client has it at most 3 times at once and 2 a second"), "\(errors)")
        #expect(Self.listed(later) == ["/dev/ttyTEST"], "answered again once the rate allows: \(later ?? "nothing")")
        #expect(harness.log.contains("asks for DEVICES too often; refusing some"))
        #expect(await harness.stop())
    }

    @Test("The cached DEVICES and POLL follow a rename, a device added and a new fix")
    func cacheFollowsChanges() async throws {
        let harness = try ServerHarness(device: DeviceDescription(path: "/dev/ttyA"))
        harness.server.publish(.status(.started))
        for event in Sample.events(0..<1) { harness.server.publish(event) }
        let client = try harness.client()
        _ = client.readLine()

        client.send("?DEVICES;?POLL;")
        let first = (Self.listed(client.readLine()), client.readLine().flatMap(jsonObject))
        harness.server.renameDevice(0, to: "/dev/ttyB")
        let added = harness.server.addDevice(DeviceDescription(path: "/dev/ttyC"))
        harness.server.publish(.status(.started), device: added)
        for event in Sample.events(1..<2) { harness.server.publish(event) }
        try await Task.sleep(for: .milliseconds(100))
        client.send("?DEVICES;?POLL;")
        let second = (Self.listed(client.readLine()), client.readLine().flatMap(jsonObject))

        #expect(first.0 == ["/dev/ttyA"])
        #expect(second.0 == ["/dev/ttyB", "/dev/ttyC"])
        let times = [first.1, second.1].map { ($0?["tpv"] as? [[String: Any]])?.first?["time"] as? String }
        #expect(times == ["2019-04-12T12:00:00.000Z", "2019-04-12T12:00:01.000Z"])
        #expect(second.1?["active"] as? Int == 2)
        #expect(await harness.stop())
    }
}
