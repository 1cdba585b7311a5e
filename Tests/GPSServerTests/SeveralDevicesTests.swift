import NMEA
import GPSLocation
import GPSServer
import GPSTestSupport
import Testing

/// One server, several sources: each a device of its own, as gpsd serves several receivers.
@Suite("GpsdServer with several devices", .timeLimit(.minutes(1)))
struct SeveralDevicesTests {
    static let devices = [DeviceDescription(path: "/dev/ttyACM0", bps: 9600), DeviceDescription(path: "/dev/ttyUSB1")]

    @Test("Each device's reports carry its path; DEVICES lists both once both are in service; POLL has both TPVs")
    func bothDevices() async throws {
        let harness = try ServerHarness(devices: Self.devices)
        harness.server.publish(.fix(Sample.fix), device: 0)
        harness.server.publish(.fix(Sample.fix), device: 1)
        let watcher = try harness.client()
        _ = watcher.readLine()
        watcher.send("?WATCH={\"enable\":true,\"json\":true};")
        let greeting = try #require(watcher.readLine())
        let devices = try #require(jsonObject(greeting)?["devices"] as? [[String: Any]])
        #expect(devices.compactMap { $0["path"] as? String } == ["/dev/ttyACM0", "/dev/ttyUSB1"])
        _ = watcher.readLine()

        harness.server.publish(.fix(Sample.fix), device: 1)
        harness.server.publish(.fix(Sample.fix), device: 0)
        let tpvs = watcher.readLines(2).compactMap { jsonObject($0) }
        #expect(tpvs.compactMap { $0["device"] as? String } == ["/dev/ttyUSB1", "/dev/ttyACM0"])

        let poller = try harness.client()
        _ = poller.readLine()
        poller.send("?POLL;")
        let answer = try #require(poller.readLine())
        let poll = try #require(jsonObject(answer))
        #expect(poll["active"] as? Int == 2)
        #expect((poll["tpv"] as? [[String: Any]])?.compactMap { $0["device"] as? String } == ["/dev/ttyACM0", "/dev/ttyUSB1"])
        #expect(await harness.stop())
    }

    @Test("A watch naming a device gets that device's reports and sentences only; an unknown one gets gpsd's ERROR and no watch")
    func oneDevice() async throws {
        let harness = try ServerHarness(devices: Self.devices)
        let usb = try harness.watcher("{\"enable\":true,\"json\":true,\"nmea\":true,\"device\":\"/dev/ttyUSB1\"}")
        let all = try harness.watcher()
        let sentence = TestCapture.epoch(0)[0]

        harness.server.publish(.sentence(sentence), device: 0)
        harness.server.publish(.fix(Sample.fix), device: 0)
        harness.server.publish(.sentence(sentence), device: 1)
        harness.server.publish(.fix(Sample.fix), device: 1)

        // The device's activation, then its sentence and TPV; nothing of the other.
        let seen = usb.readLines(3)
        #expect(seen.count == 3 && seen[0].contains("\"class\":\"DEVICE\"") && seen[0].contains("/dev/ttyUSB1"), "\(seen)")
        #expect(seen[1] == sentence)
        #expect(seen[2].contains("\"class\":\"TPV\"") && seen[2].contains("\"device\":\"/dev/ttyUSB1\""))
        #expect(usb.readLine(within: 0.3) == nil, "nothing of /dev/ttyACM0")
        let everything = all.readLines(4)
        #expect(everything.filter { $0.contains("\"class\":\"TPV\"") }.count == 2, "\(everything)")

        let stranger = try harness.client()
        _ = stranger.readLine()
        stranger.send("?WATCH={\"enable\":true,\"json\":true,\"device\":\"/dev/nowhere\"};")
        #expect(stranger.readLine()?.contains("{\"class\":\"ERROR\",\"message\":\"No such device as /dev/nowhere\"}") == true)
        stranger.send("?WATCH;")
        #expect(stranger.readLine()?.contains("\"enable\":false") == true, "the watch is left as it was")
        #expect(await harness.stop())
    }
}
