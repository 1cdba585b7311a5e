@testable import GPSServer
import GPSTestSupport
import NMEA
import Testing

/// The `?WATCH` requests real gpsd clients send, byte for byte (from their sources), each
/// served as gpsd serves it. Three of them end with the JSON object and nothing after it, and
/// two never name `enable`: each was left unanswered or unwatched before gpsfix read requests
/// by gpsd's rules (`RequestScanner`, `WatchPolicy.apply`).
@Suite("Real clients' watches", .timeLimit(.minutes(1)))
struct RealClientWatchTests {
    enum Wants: Sendable { case reports, sentences }

    static let clients: [(client: String, request: String, wants: Wants)] = [
        // node-gpsd's Listener.watch as Signal K calls it: JSON.stringify, nothing after it.
        ("Signal K (node-gpsd)", #"?WATCH={"class":"WATCH","nmea":true,"json":false}"#, .sentences),
        // node-gpsd's own default watch.
        ("node-gpsd", #"?WATCH={"class":"WATCH","json":true,"nmea":false}"#, .reports),
        // gps3's GPSDSocket.watch, which Home Assistant's gpsd integration runs (AGPS3mechanism).
        ("Home Assistant (gps3)", #"?WATCH={"enable":true,"json":true}"#, .reports),
        // OpenCPN's GPSD connection: no enable, a blank after the comma, nothing after it.
        ("OpenCPN", #"?WATCH={"class":"WATCH", "nmea":true}"#, .sentences),
        // libgps's gps_stream (cgps, gpspipe -w, foxtrotgps) and gpspipe -r.
        ("cgps, gpspipe -w (libgps)", #"?WATCH={"enable":true,"json":true};"#, .reports),
        ("gpspipe -r (libgps)", #"?WATCH={"enable":true,"nmea":true};"#, .sentences),
    ]

    @Test("Each is answered with DEVICES and WATCH, then gets what it asked for", arguments: 0..<clients.count)
    func served(_ index: Int) async throws {
        let (name, request, wants) = Self.clients[index]
        let harness = try ServerHarness()
        let client = try harness.client()
        _ = client.readLine()

        // When the client sends its request exactly as it does, and an epoch arrives
        client.send(request)
        let replies = client.readLines(2)
        let sentence = TestCapture.epoch(0)[0]
        harness.server.publish(.sentence(sentence))
        harness.server.publish(.fix(Sample.fix))

        // Then it is answered at once, its watch on, and gets the one kind it asked for
        #expect(replies.count == 2 && replies[0].hasPrefix("{\"class\":\"DEVICES\""), "\(name): \(replies)")
        #expect(replies.last?.hasPrefix("{\"class\":\"WATCH\",\"enable\":true,") == true, "\(name): \(replies)")
        switch wants {
        case .sentences:
            #expect(client.readLine() == sentence, "\(name)")
        case .reports:
            #expect(client.readLine()?.hasPrefix("{\"class\":\"DEVICE\"") == true, "\(name): the device's activation")
            #expect(client.readLine()?.hasPrefix("{\"class\":\"TPV\"") == true, "\(name)")
        }
        #expect(client.readLine(within: 0.3) == nil, "\(name): nothing it did not ask for")
        #expect(await harness.stop())
    }

    @Test("node-gpsd's unwatch (blanks in the object, a newline after it) ends the watch")
    func unwatch() async throws {
        let harness = try ServerHarness()
        let client = try harness.watcher()
        client.send("?WATCH={\"class\": \"WATCH\", \"json\":true, \"enable\":false}\n")
        #expect(client.readLine()?.hasPrefix("{\"class\":\"WATCH\",\"enable\":false,\"json\":true,") == true)
        harness.server.publish(.fix(Sample.fix))
        #expect(client.readLine(within: 0.3) == nil, "nothing after the watch ended")
        #expect(await harness.stop())
    }

    @Test("A watch of one device becomes a watch of every device at the next ?WATCH that does not name it, as in gpsd")
    func deviceNotNamed() async throws {
        let harness = try ServerHarness(devices: [DeviceDescription(path: "/dev/ttyACM0", bps: 9600), DeviceDescription(path: "/dev/ttyUSB1", bps: 9600)])
        let client = try harness.watcher("{\"enable\":true,\"json\":true,\"device\":\"/dev/ttyUSB1\"}")
        client.send("?WATCH={\"json\":true}")
        #expect(client.readLine()?.contains("\"device\"") == false, "the policy names no device")
        harness.server.publish(.fix(Sample.fix), device: 0)
        let seen = client.readLines(2)
        #expect(seen.count == 2 && seen[1].hasPrefix("{\"class\":\"TPV\"") && seen[1].contains("/dev/ttyACM0"), "\(seen)")
        #expect(await harness.stop())
    }
}
