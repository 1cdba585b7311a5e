import Foundation
@testable import GPSFixCLI
import GPSLocation
import GPSMQTT
import GPSServer
import GPSTestSupport
import Synchronization
import Testing

/// A fleet reader held to its bounds against a real mosquitto: whoever may publish under the
/// prefix decides neither how many devices gpsfix keeps, nor how long their names are, nor
/// how much it logs or buffers.
@Suite("A fleet on MQTT is bounded", .serialized,
       .enabled(if: GPSFixBinary.isAvailable && MQTTBroker.isAvailable && access(FleetPublish.pub, X_OK) == 0,
                "needs mosquitto, mosquitto-clients and the built gpsfix"),
       .timeLimit(.minutes(1)))
struct MQTTFleetLimitsTests {
    @Test("--mqtt-max-vehicles 3: vehicles 4 to 8 are refused, the server has 3 devices, the refusal is logged once and then counted")
    func capRefusesVehicleNPlusOne() async throws {
        let broker = try await MQTTBroker()
        let fleet = try await ServeProcess(["--mqtt-in", "mqtt://127.0.0.1:\(broker.port)/fleet/+", "--mqtt-max-vehicles", "3"])
        try await subscribed(fleet)
        for n in 1...3 { try await FleetPublish.tpv(broker, "fleet/van\(n)/tpv") }
        #expect(await devices(fleet.port, count: 3) == ["van1", "van2", "van3"], "\(fleet.stderr)")
        for n in 4...8 { try await FleetPublish.tpv(broker, "fleet/van\(n)/tpv") }
        // van1 is still read while the others are refused.
        try await FleetPublish.tpv(broker, "fleet/van1/tpv")
        #expect(await waitUntil(.seconds(5)) { fleet.stderr.contains("fleet full") })
        try await Task.sleep(for: .milliseconds(300))
        #expect(await devices(fleet.port, count: 3) == ["van1", "van2", "van3"])
        let full = fleet.stderr.components(separatedBy: "\n").filter { $0.contains("fleet full") }
        #expect(full.count == 1, "\(fleet.stderr)")
        #expect(full.first?.contains("'van4'") == true)
        #expect(await fleet.stop() == 0)
        // The count held back is told at the end (stderr is read on a thread of its own: it may
        // come in just after the exit).
        let counted = "5 reports from new vehicles refused (fleet full at 3) in the last minute (4 not logged one by one)"
        #expect(await waitUntil(.seconds(2)) { fleet.stderr.contains(counted) }, "\(fleet.stderr)")
    }

    @Test("A vehicle name over 64 bytes is refused and logged escaped; one of 64 is a device")
    func longNameRefused() async throws {
        let broker = try await MQTTBroker()
        let fleet = try await ServeProcess(["--mqtt-in", "mqtt://127.0.0.1:\(broker.port)/fleet/+"])
        try await subscribed(fleet)
        let long = String(repeating: "x", count: 64) + "\u{202E}"
        let fits = String(repeating: "b", count: 64)
        try await FleetPublish.tpv(broker, "fleet/\(long)/tpv")
        try await FleetPublish.tpv(broker, "fleet/\(fits)/tpv")
        #expect(await devices(fleet.port, count: 1) == [fits], "\(fleet.stderr)")
        #expect(await waitUntil(.seconds(3)) { fleet.stderr.contains("longer than 64 bytes or holding characters") }, "\(fleet.stderr)")
        // Shown cut and escaped: never the bidi override itself.
        #expect(!fleet.stderr.contains("\u{202E}"))
        #expect(await fleet.stop() == 0)
    }

    @Test("A vehicle silent for the (shortened) time is said gone and forgotten; heard again, it is new")
    func silentVehicleForgotten() async throws {
        let broker = try await MQTTBroker()
        let reader = QuietFleetReader(broker, clientID: "forget-test")
        defer { reader.stop() }
        #expect(await reader.started())
        try await FleetPublish.tpv(broker, "fleet/van1/tpv")
        #expect(await waitUntil(.seconds(3)) { reader.seen == ["fix van1"] })
        #expect(await waitUntil(.seconds(5)) { reader.seen.count >= 3 })
        #expect(reader.seen == ["fix van1", "gone van1", "forgotten van1"])
        try await FleetPublish.tpv(broker, "fleet/van1/tpv")
        #expect(await waitUntil(.seconds(3)) { reader.seen.last == "fix van1" }, "\(reader.seen)")
    }

    @Test("A quiet vehicle is forgotten while the broker is away too: the clock does not stop with the connection")
    func forgottenDuringOutage() async throws {
        let broker = try await MQTTBroker()
        let reader = QuietFleetReader(broker, clientID: "outage-forget")
        defer { reader.stop() }
        #expect(await reader.started())
        try await FleetPublish.tpv(broker, "fleet/van1/tpv")
        #expect(await waitUntil(.seconds(3)) { reader.seen == ["fix van1"] })

        // When the broker goes away before the vehicle has been quiet long enough
        broker.stop()

        // Then it is forgotten all the same, with the broker still away
        #expect(await waitUntil(.seconds(8)) { reader.seen.contains("forgotten van1") }, "\(reader.seen)")
    }

    /// A fleet reader (`fleet/+`) that forgets a vehicle quiet for 1.5 s, writing down each
    /// vehicle's fixes, goings and forgettings in order.
    final class QuietFleetReader: Sendable {
        final class Record: Sendable {
            let events = Mutex<[String]>([])
            let started = Mutex(false)
        }
        let service: LocationService
        let subscription: Int
        private let record: Record

        init(_ broker: MQTTBroker, clientID: String) {
            var limits = FleetLimits()
            limits.forgetAfter = .milliseconds(1500)
            let manager = MQTTManager(settings: MQTTSettings(host: "127.0.0.1", port: broker.port, clientID: clientID),
                                      prefix: "fleet/+", limits: limits)
            let record = Record()
            self.record = record
            manager.onFleetNews = { news in
                if case .forgotten(let vehicle) = news { record.events.withLock { $0.append("forgotten \(vehicle)") } }
            }
            let service = LocationService(manager: manager)
            subscription = service.subscribe { event in
                let vehicle = manager.labelOfEventInHand ?? "-"
                switch event {
                case .fix: record.events.withLock { $0.append("fix \(vehicle)") }
                case .status(.disconnected): record.events.withLock { $0.append("gone \(vehicle)") }
                case .status(.started): record.started.withLock { $0 = true }
                default: break
                }
            }
            self.service = service
            service.start()
        }

        var seen: [String] { record.events.withLock { $0 } }

        /// Waits for the subscription, and a moment for the broker to take it.
        func started() async -> Bool {
            let record = self.record
            let up = await waitUntil(.seconds(5)) { record.started.withLock { $0 } }
            try? await Task.sleep(for: .milliseconds(200))
            return up
        }

        func stop() {
            service.unsubscribe(subscription)
            service.stop()
        }
    }

    @Test("A forgotten vehicle's device goes to the next new one: the server never has more devices than the cap")
    func forgottenDeviceReused() throws {
        let loopback = try #require(ListenAddress(parsing: "127.0.0.1:0"))
        let server = try GpsdServer(configuration: ServerConfiguration(address: loopback, release: "test"), devices: []) { _ in }
        let devices = FleetDevices(server: server, fallback: "fleet")
        #expect(devices.index(of: "van1", creating: true) == 0)
        #expect(devices.index(of: "van2", creating: true) == 1)
        #expect(devices.index(of: "van3", creating: false) == nil)
        devices.forget("van1")
        #expect(devices.index(of: "van1", creating: false) == nil)
        #expect(devices.index(of: "van3", creating: true) == 0)
        #expect(server.deviceCount == 2 && devices.count == 2)
    }

    @Test("watch --mqtt fleet/+ --json: each report's device is its vehicle, as serve --mqtt-in names it")
    func watchJSONDeviceIsVehicle() async throws {
        let broker = try await MQTTBroker()
        try await FleetPublish.tpv(broker, "fleet/van1/tpv", retain: true)
        try await FleetPublish.tpv(broker, "fleet/van2/tpv", retain: true)
        let result = try #require(await runGPSFix(["watch", "--mqtt", "mqtt://127.0.0.1:\(broker.port)/fleet/+", "--json", "-n", "2"],
                                                  limit: .seconds(10)))
        #expect(result.status == 0, "\(result)")
        let devices = Set(result.stdout.split(separator: "\n").compactMap { jsonObject(String($0))?["device"] as? String })
        #expect(devices == ["van1", "van2"], "\(result.stdout)")
    }

    @Test("A 1 MB publish is dropped by the broker (MQTT 5's Maximum Packet Size), never delivered; the next report is read")
    func oversizedNeverDelivered() async throws {
        let broker = try await MQTTBroker()
        var settings = MQTTSettings(host: "127.0.0.1", port: broker.port, clientID: "big-test")
        settings.subscriptions = ["big/#"]
        settings.maximumPacketSize = MQTTManager.maximumPacketSize
        let received = Mutex<[(String, Int)]>([])
        let connections = Mutex(0)
        let client = MQTTClient(settings: settings) { event in
            switch event {
            case .message(let topic, let payload): received.withLock { $0.append((topic, payload.count)) }
            case .connected: connections.withLock { $0 += 1 }
            default: break
            }
        }
        client.start()
        defer { client.stop(within: .seconds(1)) }
        #expect(await waitUntil(.seconds(5)) { connections.withLock { $0 } == 1 })
        let dir = try TemporaryDirectory()
        let big = try dir.write("big.json", String(repeating: "x", count: 1_000_000))
        try await FleetPublish.file(broker, "big/huge", big)
        try await FleetPublish.tpv(broker, "big/small")
        #expect(await waitUntil(.seconds(5)) { received.withLock { $0.contains { $0.0 == "big/small" } } })
        try await Task.sleep(for: .milliseconds(300))
        #expect(received.withLock { $0.map(\.0) } == ["big/small"], "the 1 MB message must never reach the client")

        // And on a connection made again after the broker restarted: the limit is sent on every one.
        broker.stop()
        try await broker.start()
        #expect(await waitUntil(.seconds(5)) { connections.withLock { $0 } == 2 })
        try await FleetPublish.file(broker, "big/huge", big)
        try await FleetPublish.tpv(broker, "big/again")
        #expect(await waitUntil(.seconds(5)) { received.withLock { $0.contains { $0.0 == "big/again" } } })
        try await Task.sleep(for: .milliseconds(300))
        #expect(received.withLock { $0.map(\.0) } == ["big/small", "big/again"])
    }

    @Test("A reader (MQTT 5) with a wrong password is a refused login naming the broker, as a publisher (3.1.1) is; exit 1")
    func readerWrongPassword() async throws {
        let dir = try TemporaryDirectory()
        // mosquitto drops to its own user: it must read the password file.
        chmod(dir.path, 0o755)
        let made = try await runTool(MQTTBroker.passwd, ["-c", "-b", "\(dir.path)/passwords", "van7", "right horse"])
        #expect(made.status == 0, "\(made.err)")
        chmod("\(dir.path)/passwords", 0o644)
        let bad = try dir.write("bad.pass", "wrong horse\n")
        chmod(bad, 0o600)
        let broker = try await MQTTBroker(extra: ["password_file \(dir.path)/passwords"], anonymous: false)
        let result = try #require(await runGPSFix(["watch", "--mqtt", "mqtt://van7@127.0.0.1:\(broker.port)/fleet/+", "--json", "-n", "1",
                                                   "--mqtt-password-file", bad], limit: .seconds(10)))
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("The MQTT broker at 127.0.0.1:\(broker.port) refused the login ("), "\(result)")
    }

    @Test("--mqtt-max-vehicles takes 1 to 10000, and only where a fleet is read", arguments: [
        ["watch", "--mqtt", "mqtt://127.0.0.1:1/fleet/+", "--mqtt-max-vehicles", "0"],
        ["watch", "--mqtt", "mqtt://127.0.0.1:1/fleet/+", "--mqtt-max-vehicles", "many"],
        ["serve", "--mqtt-in", "mqtt://127.0.0.1:1/fleet/+", "--mqtt-max-vehicles", "10001"],
        ["serve", "--no-listen", "--mqtt", "mqtt://127.0.0.1:1/fleet/van7", "--replay", "/dev/null", "--mqtt-max-vehicles", "5"],
        ["serve", "--replay", "/dev/null", "--mqtt-max-vehicles", "5"],
        ["watch", "--replay", "/dev/null", "--mqtt-max-vehicles", "5"],
    ])
    func maxVehiclesUsage(_ arguments: [String]) async throws {
        let result = try #require(await runGPSFix(arguments))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--mqtt-max-vehicles"), "\(result)")
    }

    @Test("After a broker outage that overflowed the queue, the whole number dropped during it is logged as publishing resumes")
    func droppedTotalAfterOutage() async throws {
        let broker = try await MQTTBroker()
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 60)
        // About 800 reports a second (a TPV and a SKY an epoch): the queue of 1024 is full
        // a second or two into the outage.
        let serve = try await mqttServe(broker, prefix: "fleet/van7", ["--replay", capture, "--speed", "400", "--loop", "--mqtt-qos", "1"])
        #expect(await waitUntil(.seconds(5)) { serve.stderr.contains("publishing to the mqtt broker") })
        broker.stop(SIGTERM)
        #expect(await waitUntil(.seconds(10)) { serve.stderr.contains("dropped so far") }, "\(serve.stderr)")
        try await Task.sleep(for: .milliseconds(500))
        try await broker.start()
        #expect(await waitUntil(.seconds(5)) { serve.stderr.contains("while the broker was away") }, "\(serve.stderr)")
        _ = await serve.stop()
        let lines = serve.stderr.components(separatedBy: "\n")
        let runningTotals = lines.compactMap { line -> Int? in
            guard let range = line.range(of: " dropped so far") else { return nil }
            return Int(line[..<range.lowerBound].split(separator: " ").last ?? "")
        }
        let resumed = try #require(lines.first { $0.contains("again (QoS 1); ") }, "\(serve.stderr)")
        let total = try #require(resumed.components(separatedBy: "again (QoS 1); ").last?.split(separator: " ").first.flatMap { Int($0) })
        // The whole outage's loss: at least the last running total told during it.
        #expect(total >= (runningTotals.max() ?? 1) && total > 0, "\(serve.stderr)")
    }

    @Test("One vehicle flooding 3000 reports is cut to its rate, and another vehicle's report after the flood is read at once")
    func floodDoesNotStarveOthers() async throws {
        let broker = try await MQTTBroker()
        let manager = MQTTManager(settings: MQTTSettings(host: "127.0.0.1", port: broker.port, clientID: "flood-test"), prefix: "fleet/+")
        let fixes = Mutex<[String: Int]>([:])
        let refused = Mutex(0)
        let started = Mutex(false)
        manager.onFleetNews = { news in
            if case .refused(_, .flooding) = news { refused.withLock { $0 += 1 } }
        }
        let service = LocationService(manager: manager)
        let subscription = service.subscribe { event in
            if case .fix = event, let vehicle = manager.labelOfEventInHand { fixes.withLock { $0[vehicle, default: 0] += 1 } }
            if case .status(.started) = event { started.withLock { $0 = true } }
        }
        defer { service.unsubscribe(subscription); service.stop() }
        service.start()
        #expect(await waitUntil(.seconds(5)) { started.withLock { $0 } })
        try await Task.sleep(for: .milliseconds(200))
        // 3000 TPVs from van1 as fast as mosquitto_pub sends them (-l: a message a line).
        let dir = try TemporaryDirectory()
        let lines = try dir.write("flood.txt", String(repeating: FleetPublish.tpvLine + "\n", count: 3000))
        let flood = try await runTool("/bin/sh", ["-c", "\(FleetPublish.pub) -h 127.0.0.1 -p \(broker.port) -q 0 -t fleet/van1/tpv -l < \(lines)"])
        #expect(flood.status == 0, "\(flood.err)")
        try await FleetPublish.tpv(broker, "fleet/van2/tpv")
        #expect(await waitUntil(.seconds(3)) { fixes.withLock { $0["van2"] } == 1 }, "\(fixes.withLock { $0 })")
        #expect(await waitUntil(.seconds(5)) { (fixes.withLock { $0["van1"] } ?? 0) + refused.withLock { $0 } == 3000 })
        // Read: the burst and what the rate refilled while the flood lasted; the rest counted unread.
        let taken = fixes.withLock { $0["van1"] } ?? 0
        #expect(taken >= 100 && taken < 3000 && refused.withLock { $0 } == 3000 - taken, "\(taken) read")
    }

    @Test("watch --mqtt fleet/+: eight vehicles going offline are five lines, then a count at the end")
    func watchVehicleStatusesHeldToRate() async throws {
        let broker = try await MQTTBroker()
        let watch = try await GPSFixProcess(["watch", "--mqtt", "mqtt://127.0.0.1:\(broker.port)/fleet/+"], announcement: nil)
        try await Task.sleep(for: .seconds(1))
        for n in 1...8 { try await FleetPublish.tpv(broker, "fleet/van\(n)/tpv") }
        for n in 1...8 { try await FleetPublish.text(broker, "fleet/van\(n)/status", "offline") }
        #expect(await waitUntil(.seconds(5)) { watch.stderr.components(separatedBy: "went offline").count - 1 == 5 }, "\(watch.stderr)")
        try await Task.sleep(for: .milliseconds(300))
        #expect(watch.stderr.components(separatedBy: "went offline").count - 1 == 5, "\(watch.stderr)")
        #expect(await watch.stop() == 0)
        #expect(await waitUntil(.seconds(2)) { watch.stderr.contains("8 vehicles gone offline, silent or back in the last minute (3 not logged one by one)") },
                "\(watch.stderr)")
    }

    @Test("The fleet's log: a refusal said once then counted; five vehicle lines a window, then counted")
    func fleetLogHeldToRate() {
        let written = Mutex<[String]>([])
        let log = FleetLog(window: .seconds(60)) { line in written.withLock { $0.append(line) } }
        for n in 4...8 { log.take(.refused(vehicle: "van\(n)", .full(limit: 3))) }
        log.take(.refused(vehicle: "x\u{202E}y", .badName(limit: 64)))
        for n in 1...9 { log.vehicle("MQTT broker: van\(n) went offline") }
        #expect(written.withLock { $0.count } == 1 + 1 + 5)
        #expect(written.withLock { $0[1] }.contains("'x\\u{202E}y'"), "escaped: \(written.withLock { $0[1] })")
        log.take(.stopped)
        let told = written.withLock { Array($0.dropFirst(7)) }
        #expect(told.contains("gpsfix: 5 reports from new vehicles refused (fleet full at 3) in the last minute (4 not logged one by one)"), "\(told)")
        #expect(told.contains("gpsfix: 9 vehicles gone offline, silent or back in the last minute (4 not logged one by one)"), "\(told)")
        #expect(told.count == 2)
    }

    /// Waits until `fleet` has connected (it subscribes first): a report published before is
    /// not retained, and would be lost to it.
    private func subscribed(_ fleet: ServeProcess) async throws {
        #expect(await waitUntil(.seconds(5)) { fleet.stderr.contains("open, waiting for a fix") }, "\(fleet.stderr)")
        try await Task.sleep(for: .milliseconds(200))
    }

    /// The devices `?DEVICES` lists, once it lists `count` (or after 5 s).
    private func devices(_ port: Int, count: Int) async -> [String] {
        var listed: [String] = []
        _ = await waitUntil(.seconds(5)) {
            guard let client = try? LineClient(port: port) else { return false }
            _ = client.readLine()
            client.send("?DEVICES;")
            let reply = client.readLine().flatMap { jsonObject($0) }
            listed = ((reply?["devices"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }.sorted()
            return listed.count >= count
        }
        return listed
    }
}

/// Publishing as a vehicle would, with mosquitto_pub.
enum FleetPublish {
    static let pub = "/usr/bin/mosquitto_pub"
    static let tpvLine = #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2026-01-01T00:00:00.000Z","lat":52.1,"lon":4.3,"altMSL":10.0}"#

    static func tpv(_ broker: MQTTBroker, _ topic: String, retain: Bool = false) async throws {
        try await run(broker, ["-t", topic, "-m", tpvLine] + (retain ? ["-r"] : []))
    }

    static func text(_ broker: MQTTBroker, _ topic: String, _ text: String) async throws {
        try await run(broker, ["-t", topic, "-m", text])
    }

    static func file(_ broker: MQTTBroker, _ topic: String, _ path: String) async throws {
        try await run(broker, ["-t", topic, "-f", path])
    }

    private static func run(_ broker: MQTTBroker, _ arguments: [String]) async throws {
        let result = try await runTool(pub, ["-h", "127.0.0.1", "-p", String(broker.port), "-q", "1"] + arguments)
        #expect(result.status == 0, "mosquitto_pub \(arguments.prefix(2)): \(result.err)")
    }
}
