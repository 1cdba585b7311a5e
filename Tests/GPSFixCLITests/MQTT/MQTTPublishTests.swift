import Foundation
import GPSTestSupport
import Testing

/// `serve --mqtt` against a real mosquitto, read by mosquitto_sub and Python's paho-mqtt.
@Suite("serve --mqtt publishes to a real mosquitto", .serialized,
       .enabled(if: GPSFixBinary.isAvailable && MQTTBroker.isAvailable, "mosquitto and mosquitto-clients are not installed"),
       .timeLimit(.minutes(1)))
struct MQTTPublishTests {
    @Test("mosquitto_sub sees tpv, sky and status; the TPV is watch --json's line")
    func subscriberSeesReports() async throws {
        // Given a broker, a subscriber to everything under the prefix, and a 10-epoch capture
        let broker = try await MQTTBroker()
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 10)
        let sub = try Collector.subscriber(broker, "fleet/van7/#")
        try await Task.sleep(for: .milliseconds(300))

        // When gpsfix publishes it
        let serve = try await mqttServe(broker, prefix: "fleet/van7", ["--replay", capture, "--speed", "10"])

        // Then every report arrives, as watch --json writes it
        #expect(await sub.waitFor { $0.payloads("fleet/van7/tpv").count == 10 }, "\(sub.output)\n\(serve.stderr)")
        #expect(sub.payloads("fleet/van7/status").first == "online")
        #expect(sub.payloads("fleet/van7/sky").count >= 1)
        let watched = try await runTool(GPSFixBinary.url!.path, ["watch", "--replay", capture, "--json", "--speed", "max"])
        let tpvLines = watched.out.split(separator: "\n").filter { $0.contains("\"class\":\"TPV\"") }.map(String.init)
        #expect(sub.payloads("fleet/van7/tpv") == tpvLines)
        _ = await serve.stop()
        sub.stop()
    }

    @Test("Several sources in one serve publish each under PREFIX/NAME/, NAME a topic level made of its device")
    func severalSources() async throws {
        let broker = try await MQTTBroker()
        let dir = try TemporaryDirectory()
        let a = try dir.write("a.nmea", TestCapture.text((0..<4).map(TestCapture.epoch)))
        let b = try dir.write("b.nmea", TestCapture.text((10..<13).map(TestCapture.epoch)))
        let sub = try Collector.subscriber(broker, "fleet/#")
        try await Task.sleep(for: .milliseconds(300))

        let serve = try await mqttServe(broker, prefix: "fleet", ["--replay", a, "--replay", b, "--speed", "10"])

        // A path is not a topic level: its separators become "_".
        let (nameA, nameB) = (a.replacingOccurrences(of: "/", with: "_"), b.replacingOccurrences(of: "/", with: "_"))
        #expect(await sub.waitFor { $0.payloads("fleet/\(nameA)/tpv").count == 4 && $0.payloads("fleet/\(nameB)/tpv").count == 3 },
                "\(sub.output)\n\(serve.stderr)")
        #expect(sub.payloads("fleet/\(nameA)/tpv").allSatisfy { jsonObject($0)?["device"] as? String == a })
        #expect(sub.payloads("fleet/\(nameB)/tpv").allSatisfy { jsonObject($0)?["device"] as? String == b })
        #expect(sub.payloads("fleet/status").first == "online")
        #expect(sub.payloads("fleet/tpv").isEmpty, "nothing at the prefix itself with several sources")
        _ = await serve.stop()
        sub.stop()
    }

    @Test("--mqtt-homeassistant: the tracker's and three sensors' configs, retained, each reading a topic that is published")
    func homeAssistant() async throws {
        // Given gpsfix publishing a capture with Home Assistant's discovery
        let broker = try await MQTTBroker()
        let dir = try TemporaryDirectory()
        let serve = try await mqttServe(broker, prefix: "car", ["--replay", try dir.drive(epochs: 60), "--speed", "10", "--mqtt-homeassistant"])
        let reports = try Collector.subscriber(broker, "car/#")

        // When Home Assistant comes later: the configs are retained
        let configs = try Collector.subscriber(broker, "homeassistant/#")
        #expect(await configs.waitFor(within: .seconds(5)) { $0.lines.count >= 4 }, "\(configs.output)")
        let topics = ["device_tracker/", "sensor/"].flatMap { kind in configs.lines.compactMap { $0.split(separator: " ").first.map(String.init) }
            .filter { $0.hasPrefix("homeassistant/" + kind) } }
        #expect(Set(topics).count == 4 && topics.filter { $0.hasSuffix("/satellites_used/config") }.count == 1, "\(topics)")

        // Then each sensor reads a topic gpsfix publishes: SKY's uSat and nSat, TPV's mode
        for topic in topics where topic.hasPrefix("homeassistant/sensor/") {
            let config = try #require(jsonObject(configs.payloads(topic).first ?? ""), "\(topic)")
            let state = try #require(config["state_topic"] as? String)
            #expect(["car/sky", "car/tpv"].contains(state))
            #expect(await reports.waitFor { !$0.payloads(state).isEmpty }, "nothing on \(state)")
        }
        #expect(await reports.waitFor { $0.payloads("car/sky").contains { ($0.contains("\"uSat\":") && $0.contains("\"nSat\":")) } })
        _ = await serve.stop()
        configs.stop()
        reports.stop()
    }

    @Test("A late subscriber gets the retained last TPV at once")
    func lateSubscriberGetsRetainedTPV() async throws {
        let broker = try await MQTTBroker()
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 5)
        let serve = try await mqttServe(broker, prefix: "fleet/van7", ["--replay", capture, "--speed", "20"])
        let early = try Collector.subscriber(broker, "fleet/van7/tpv")
        #expect(await early.waitFor { $0.payloads("fleet/van7/tpv").contains { $0.contains("12:00:04") } }, "\(early.output)")
        // The replay has ended (5 epochs at 20×): nothing new will be published.
        try await Task.sleep(for: .milliseconds(500))

        // When a subscriber comes after the last fix
        let late = try Collector.subscriber(broker, "fleet/van7/tpv", extra: ["-C", "1"])

        // Then it gets that fix, retained
        #expect(await late.waitFor(within: .seconds(3)) { $0.lines.count == 1 })
        let tpv = try #require(jsonObject(late.payloads("fleet/van7/tpv").first ?? ""))
        #expect(tpv["time"] as? String == "2019-04-12T12:00:04.000Z")
        _ = await serve.stop()
        early.stop()
    }

    @Test("SIGKILL of gpsfix makes the broker publish offline (the will); SIGTERM says offline too")
    func willOnKill() async throws {
        let broker = try await MQTTBroker()
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 30)
        let sub = try Collector.subscriber(broker, "fleet/van7/status")
        try await Task.sleep(for: .milliseconds(300))
        let serve = try await mqttServe(broker, prefix: "fleet/van7", ["--replay", capture, "--loop"])
        #expect(await sub.waitFor { $0.payloads("fleet/van7/status") == ["online"] }, "\(sub.output)")

        // When it is killed, without a chance to say goodbye
        _ = await serve.stop(SIGKILL)

        // Then the broker says it for it
        #expect(await sub.waitFor(within: .seconds(5)) { $0.payloads("fleet/van7/status") == ["online", "offline"] }, "\(sub.output)")
        let retained = try Collector.subscriber(broker, "fleet/van7/status", extra: ["-C", "1"])
        #expect(await retained.waitFor(within: .seconds(3)) { $0.payloads("fleet/van7/status") == ["offline"] })

        // And a clean stop leaves offline retained as well
        let again = try await mqttServe(broker, prefix: "fleet/van7", ["--replay", capture, "--loop"])
        #expect(await sub.waitFor { $0.payloads("fleet/van7/status").count == 3 })
        #expect(await again.stop(SIGTERM) == 0)
        #expect(await sub.waitFor(within: .seconds(3)) { $0.payloads("fleet/van7/status") == ["online", "offline", "online", "offline"] },
                "\(sub.output)")
        sub.stop()
    }

    @Test("Python paho-mqtt receives every TPV of a replayed capture at QoS 1",
          .enabled(if: MQTTPython.available, "python3-paho-mqtt is not installed"))
    func pahoReceivesEveryTPV() async throws {
        let broker = try await MQTTBroker()
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 200)
        let watched = try await runTool(GPSFixBinary.url!.path, ["watch", "--replay", capture, "--json", "--speed", "max"])
        let expected = watched.out.split(separator: "\n").filter { $0.contains("\"class\":\"TPV\"") }.count
        #expect(expected == 200)
        let script = try dir.write("count.py", MQTTPython.countTPV)
        let paho = try Collector(MQTTPython.python, [script, String(broker.port), "fleet/van7/tpv"])
        #expect(await paho.waitFor { $0.output.contains("subscribed") }, "\(paho.stderr)")

        let serve = try await mqttServe(broker, prefix: "fleet/van7", ["--replay", capture, "--speed", "max", "--mqtt-qos", "1"])

        #expect(await paho.waitFor(within: .seconds(20)) { $0.lines.last == "tpv \(expected)" }, "\(paho.output.suffix(200)) \(paho.stderr)")
        let counted = paho.lines.last
        try await Task.sleep(for: .milliseconds(500))
        #expect(paho.lines.last == counted, "no TPV twice")
        _ = await serve.stop()
        paho.stop()
    }

    @Test("Broker killed and restarted mid-run: publishing resumes within 3 s; at QoS 1 nothing within the queue is lost")
    func brokerRestart() async throws {
        // A persistent broker and a subscriber with a session of its own, so that the outage
        // loses nothing on the consumer's side either: what is counted is gpsfix's.
        let broker = try await MQTTBroker(persistent: true)
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 60)
        let sub = try Collector.subscriber(broker, "fleet/van7/tpv", extra: ["-c", "-i", "restart-sub"])
        try await Task.sleep(for: .milliseconds(300))
        let serve = try await mqttServe(broker, prefix: "fleet/van7", ["--replay", capture, "--speed", "10", "--loop", "--mqtt-qos", "1"])
        #expect(await sub.waitFor { $0.payloads("fleet/van7/tpv").count >= 10 })

        // When the broker goes away for about a second and comes back on the same port
        broker.stop(SIGTERM)
        try await Task.sleep(for: .seconds(1))
        try await broker.start()
        let restarted = ContinuousClock.now
        let before = sub.payloads("fleet/van7/tpv").count
        let probe = try Collector.subscriber(broker, "fleet/van7/tpv")

        // Then publishing resumes within 3 s (a fresh subscriber hears a new TPV)
        #expect(await probe.waitFor(within: .seconds(3)) { $0.payloads("fleet/van7/tpv").count >= 2 }, "\(serve.stderr)")
        #expect(ContinuousClock.now - restarted < .seconds(3.5))
        #expect(serve.stderr.contains("cannot be reached") || serve.stderr.contains("closed the connection"), "\(serve.stderr)")
        // And every one of the 60 TPVs reached the subscriber (the outage held < 1024 reports;
        // the loop repeats the same 60)
        #expect(await sub.waitFor(within: .seconds(15)) { Set($0.payloads("fleet/van7/tpv")).count == 60 },
                "\(Set(sub.payloads("fleet/van7/tpv")).count) of 60, \(before) before the restart\n\(serve.stderr)")
        #expect(serve.process.isRunning)
        _ = await serve.stop()
        sub.stop()
        probe.stop()
    }

    @Test("watch --mqtt reads back what serve --mqtt published: the same positions")
    func watchReadsBack() async throws {
        let broker = try await MQTTBroker()
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 8)
        let watch = try Collector(GPSFixBinary.url!.path, ["watch", "--mqtt", "mqtt://127.0.0.1:\(broker.port)/fleet/+", "--json"])
        try await Task.sleep(for: .milliseconds(500))

        let serve = try await mqttServe(broker, prefix: "fleet/van7", ["--replay", capture, "--speed", "10"])

        #expect(await watch.waitFor { $0.lines.filter { $0.contains("\"TPV\"") }.count == 8 }, "\(watch.output) \(watch.stderr)")
        let direct = try await runTool(GPSFixBinary.url!.path, ["watch", "--replay", capture, "--json", "--speed", "max"])
        func positions(_ lines: [Substring]) -> [[Double]] {
            lines.compactMap { jsonObject(String($0)) }.filter { $0["class"] as? String == "TPV" }.map {
                [$0["lat"], $0["lon"], $0["altMSL"], $0["speed"]].map { ($0 as? NSNumber)?.doubleValue ?? .nan }
            }
        }
        let read = positions(watch.output.split(separator: "\n"))
        #expect(read.count == 8)
        #expect(read == positions(direct.out.split(separator: "\n")))
        _ = await serve.stop()
        watch.stop()
    }

    @Test("The broker absent at the start is waited for, and said so; publishing starts when it comes")
    func brokerAbsentAtStart() async throws {
        let broker = try await MQTTBroker()
        broker.stop()
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 30)
        let serve = try await mqttServe(broker, prefix: "fleet/van7", ["--replay", capture, "--loop"])
        #expect(await waitUntil(.seconds(5)) { serve.stderr.contains("cannot be reached (Connection refused). Trying again") }, "\(serve.stderr)")

        try await broker.start()
        let sub = try Collector.subscriber(broker, "fleet/van7/tpv")
        #expect(await sub.waitFor(within: .seconds(4)) { !$0.payloads("fleet/van7/tpv").isEmpty }, "\(serve.stderr)")
        #expect(serve.stderr.contains("publishing to the mqtt broker at 127.0.0.1:\(broker.port) under fleet/van7/"))
        _ = await serve.stop()
        sub.stop()
    }
}

enum MQTTPython {
    /// Debian's python3-paho-mqtt is installed for the system Python, not for a pyenv on PATH.
    static let python = "/usr/bin/python3"
    static var available: Bool {
        access(python, X_OK) == 0 && access("/usr/lib/python3/dist-packages/paho/mqtt/client.py", R_OK) == 0
    }

    /// Subscribes at QoS 1 and prints `tpv N` after each TPV; `subscribed` once subscribed.
    static let countTPV = """
    import sys, json
    import paho.mqtt.client as mqtt
    port, topic = int(sys.argv[1]), sys.argv[2]
    seen = 0
    def on_connect(c, u, f, rc):
        c.subscribe(topic, qos=1)
    def on_subscribe(c, u, mid, q):
        print("subscribed", flush=True)
    def on_message(c, u, m):
        global seen
        report = json.loads(m.payload)
        if report.get("class") == "TPV" and not m.retain:
            seen += 1
            print("tpv", seen, flush=True)
    c = mqtt.Client(client_id="paho-count")
    c.on_connect, c.on_subscribe, c.on_message = on_connect, on_subscribe, on_message
    c.connect("127.0.0.1", port)
    c.loop_forever()
    """
}
