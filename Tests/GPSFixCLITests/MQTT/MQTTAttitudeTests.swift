import Foundation
import GPSTestSupport
import Testing

/// `serve --mqtt` with a heading sensor on the receiver's wire, against a real mosquitto.
@Suite("serve --mqtt publishes ATT", .serialized,
       .enabled(if: GPSFixBinary.isAvailable && MQTTBroker.isAvailable, "mosquitto and mosquitto-clients are not installed"),
       .timeLimit(.minutes(1)))
struct MQTTAttitudeTests {
    @Test("Each epoch's heading goes to PREFIX/att, retained, as watch --json's ATT line")
    func attitudeTopic() async throws {
        // Given a broker, a subscriber, and a capture whose epochs each end with a satellite compass's HDT
        let broker = try await MQTTBroker()
        let dir = try TemporaryDirectory()
        let epochs = (0..<4).map { TestCapture.epoch($0) + [NMEASentence.framed("HEHDT,\(100 + $0).5,T")] }
        let capture = try dir.write("compass.nmea", TestCapture.text(epochs))
        let sub = try Collector.subscriber(broker, "fleet/boat/#")
        try await Task.sleep(for: .milliseconds(300))

        // When gpsfix publishes it
        let serve = try await mqttServe(broker, prefix: "fleet/boat", ["--replay", capture, "--speed", "10"])

        // Then every heading arrives on the att topic, as watch --json prints it
        #expect(await sub.waitFor { $0.payloads("fleet/boat/att").contains { $0.contains("103.500") } }, "\(sub.output)\n\(serve.stderr)")
        let watched = try await runTool(GPSFixBinary.url!.path, ["watch", "--replay", capture, "--json", "--speed", "max"])
        let attLines = watched.out.split(separator: "\n").filter { $0.contains("\"class\":\"ATT\"") }.map(String.init)
        #expect(attLines.count == 4)
        #expect(sub.payloads("fleet/boat/att") == attLines)
        _ = await serve.stop()
        sub.stop()

        // And a subscriber that comes later gets the last one, retained
        let late = try Collector.subscriber(broker, "fleet/boat/att", extra: ["-C", "1"])
        #expect(await late.waitFor(within: .seconds(3)) { $0.lines.count == 1 })
        #expect(late.payloads("fleet/boat/att").first?.contains("\"heading\":103.500") == true)
        late.stop()
    }
}
