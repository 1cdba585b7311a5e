import Foundation
import GPSLocation
import GPSMQTT
import GPSServer
import GPSSources
import GPSTestSupport
import Synchronization
import Testing

/// `gpsfix serve`'s composition as an app writes it, with public API only (no @testable):
/// a source, the gpsd server and MQTT publishing in one `LocationRelay`.
@Suite("An app serves gpsd's protocol and MQTT in a few lines", .serialized,
       .enabled(if: MQTTBroker.isAvailable, "needs mosquitto and mosquitto-clients"),
       .timeLimit(.minutes(1)))
struct LibraryServeTests {
    @Test("A replay served over gpsd's protocol and published to a broker; cancelling the task says offline and ends it")
    func serveInAFewLines() async throws {
        let broker = try await MQTTBroker()
        let subscriber = try Collector.subscriber(broker, "van7/#")
        defer { subscriber.stop() }
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 600)

        // The app's few lines:
        let service = LocationService(manager: ReplayManager(path: capture, speed: .factor(5)))
        let server = try GpsdServer(configuration: .init(address: ListenAddress(host: "127.0.0.1", port: 0), release: "myapp 1.0"),
                                    device: .init(path: capture)) { _ in }
        let publisher = MQTTPublisher(settings: try MQTTSettings(url: "mqtt://127.0.0.1:\(broker.port)/van7", clientID: "myapp"),
                                      options: .init(topics: MQTTTopics(prefix: "van7"), source: capture)) { _ in }
        let serving = Task { try await LocationRelay(service, feeds: [server.feed(), publisher]).run() }

        // The broker gets TPVs (awaited first: a blocking read of the gpsd client below must
        // not hold the pool before the task has started), and gpsd's clients the same reports
        #expect(await subscriber.waitFor(within: .seconds(20)) { $0.payloads("van7/tpv").contains { $0.hasPrefix("{\"class\":\"TPV\"") } },
                "\(subscriber.output)")
        #expect(subscriber.payloads("van7/status").last == "online")
        let client = try LineClient(port: server.address.port)
        client.send("?WATCH={\"enable\":true,\"json\":true};\n")
        #expect(client.readLines(8, within: 5).contains { $0.hasPrefix("{\"class\":\"TPV\"") })

        // Cancelling the task stops the source, closes the clients and says goodbye to the broker
        serving.cancel()
        try await serving.value
        #expect(client.waitForClose(within: 3))
        #expect(await subscriber.waitFor { $0.payloads("van7/status").last == "offline" }, "\(subscriber.output)")
    }

    @Test("A broker that refuses the login ends the relay with the MQTTError")
    func refusedLoginEnds() async throws {
        let broker = try await MQTTBroker(anonymous: false)
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 600)
        let service = LocationService(manager: ReplayManager(path: capture))
        let server = try GpsdServer(configuration: .init(address: ListenAddress(host: "127.0.0.1", port: 0), release: "myapp 1.0"),
                                    device: .init(path: capture)) { _ in }
        var settings = try MQTTSettings(url: "mqtt://nobody@127.0.0.1:\(broker.port)/van7", clientID: "myapp")
        settings.password = "wrong"
        let publisher = MQTTPublisher(settings: settings, options: .init(topics: MQTTTopics(prefix: "van7"), source: capture)) { _ in }
        let relay = LocationRelay(service, feeds: [server.feed(), publisher])
        do {
            try await relay.run()
            Issue.record("the relay ended without the broker's refusal")
        } catch .feedFailed(let failure) {
            #expect(failure.error is MQTTError, "\(failure)")
        } catch {
            Issue.record("ended with \(error)")
        }
    }

    @Test("A client stopped from its own event handler returns at once instead of waiting out the stop's time for itself")
    func stopFromOwnThread() async throws {
        let broker = try await MQTTBroker()
        let took = Eventually<Double>()
        let holder = ClientHolder()
        let client = MQTTClient(settings: MQTTSettings(host: "127.0.0.1", port: broker.port, clientID: "stop-test")) { event in
            guard case .connected = event, let client = holder.client.withLock({ $0 }) else { return }
            let start = monotonicSeconds()
            client.stop(within: .seconds(5))
            took.fulfill(monotonicSeconds() - start)
        }
        holder.client.withLock { $0 = client }
        client.start()
        let seconds = try #require(await took.value(within: .seconds(10)))
        // It used to wait the whole 5 s for its own thread to end (watch --mqtt -n N: 0.5 s).
        #expect(seconds < 1, "stop took \(seconds) s")
        holder.client.withLock { $0 = nil }
    }
}

extension LibraryServeTests {
    @Test("watch --mqtt -n N's way: a SourceRun over an MQTT reader stopped from its handler at the Nth fix stops at once")
    func readerStoppedFromHandler() async throws {
        let broker = try await MQTTBroker()
        try await FleetPublish.tpv(broker, "van7/tpv", retain: true)
        let manager = MQTTManager(settings: MQTTSettings(host: "127.0.0.1", port: broker.port, clientID: "n-test"), prefix: "van7")
        let run = SourceRun(LocationService(manager: manager))
        let took = Eventually<Double>()
        let outcome = Eventually<Bool>()
        Thread.detachNewThread {
            let (end, _) = run.run { event in
                guard case .fix = event else { return }
                // As watch does once -n's count is written: on the reader's own thread.
                let start = monotonicSeconds()
                run.stop()
                took.fulfill(monotonicSeconds() - start)
            }
            outcome.fulfill(end == .status(.stopped))
        }
        let seconds = try #require(await took.value(within: .seconds(10)))
        // It waited out the client's 0.5 s stop for its own thread.
        #expect(seconds < 0.4, "stop took \(seconds) s")
        #expect(await outcome.value(within: .seconds(5)) == true)
    }
}

/// The client, for its own handler to reach.
private final class ClientHolder: Sendable {
    let client = Mutex<MQTTClient?>(nil)
}
