import GPSLocation
import GPSServer
import GPSTestSupport
import Testing

/// gpsd looks for the device a `?WATCH` names only when the watch it leaves is on
/// (handle_gpsd_request: `sub->policy.watcher`): a watch turned off may name any path.
@Suite("?WATCH naming a device that is not there", .timeLimit(.minutes(1)))
struct WatchDeviceRuleTests {
    static let devices = [DeviceDescription(path: "/dev/ttyACM0")]

    @Test("A watch that stays off may name an unknown device: told its policy, no ERROR, and no reports")
    func offWatch() async throws {
        let harness = try ServerHarness(devices: Self.devices)
        let client = try harness.client()
        _ = client.readLine()

        client.send("?WATCH={\"enable\":false,\"json\":true,\"device\":\"/dev/nowhere\"};")

        let reply = try #require(client.readLine())
        let watch = try #require(jsonObject(reply), "\(reply)")
        #expect(watch["class"] as? String == "WATCH", "\(reply)")
        #expect(watch["enable"] as? Bool == false)
        #expect(watch["device"] as? String == "/dev/nowhere", "the path is kept, as gpsd keeps it")
        harness.server.publish(.fix(Sample.fix), device: 0)
        #expect(client.readLine(within: 0.3) == nil, "an off watch is sent nothing")
        #expect(await harness.stop())
    }

    @Test("A watch that is on (enable named true, or left out, which gpsd reads as true) is refused an unknown device",
          arguments: ["{\"enable\":true,\"json\":true,\"device\":\"/dev/nowhere\"}", "{\"json\":true,\"device\":\"/dev/nowhere\"}"])
    func onWatch(request: String) async throws {
        let harness = try ServerHarness(devices: Self.devices)
        let client = try harness.client()
        _ = client.readLine()

        client.send("?WATCH=\(request);")

        #expect(client.readLine() == "{\"class\":\"ERROR\",\"message\":\"No such device as /dev/nowhere\"}")
        client.send("?WATCH;")
        #expect(client.readLine()?.contains("\"enable\":false") == true, "the watch is left as it was")
        #expect(await harness.stop())
    }

    @Test("A watcher turning its watch off while naming an unknown device stops watching, without an ERROR")
    func turningOff() async throws {
        let harness = try ServerHarness(devices: Self.devices)
        let client = try harness.watcher()
        harness.server.publish(.fix(Sample.fix), device: 0)
        #expect(client.readLines(2).last?.contains("\"class\":\"TPV\"") == true, "watching: its DEVICE, then the TPV")

        client.send("?WATCH={\"enable\":false,\"device\":\"/dev/nowhere\"};")

        let reply = try #require(client.readLine())
        #expect(reply.hasPrefix("{\"class\":\"WATCH\",\"enable\":false"), "\(reply)")
        harness.server.publish(.fix(Sample.fix), device: 0)
        #expect(client.readLine(within: 0.3) == nil, "no longer watching")
        #expect(await harness.stop())
    }
}
