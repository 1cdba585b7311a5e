public import GPSLocation
import GPSOutput
import GPSSystem
import NMEA
import Synchronization

/// Publishes a source's events to a broker as gpsd JSON, the bytes `watch --json` prints
/// (without the line's end): each fix as a TPV to `PREFIX/tpv`, retained so that a new
/// subscriber has the last one at once, and its attitude, when an instrument beside the
/// receiver stated one, as an ATT to `PREFIX/att` (retained too); each sky view as a SKY to
/// `PREFIX/sky`; and gpsfix's
/// presence at `PREFIX/status`, `online` (retained) on every connection and `offline` as the
/// last will, which the broker publishes when gpsfix goes dark without a goodbye.
///
/// `publish` is called on the source's thread and never blocks (see `MQTTClient`). As a
/// `LocationFeed` of a `LocationRelay`, it publishes every source's events (several sources
/// each under `PREFIX/NAME/`), and a broker that refuses the login or the certificate
/// (`MQTTClient.Event.failed`) ends the relay with that `MQTTError`.
public final class MQTTPublisher: LocationFeed {
    /// What is published where, and how.
    public struct Options: Sendable {
        /// The topics under the prefix: `PREFIX/tpv`, `/sky`, `/att`, `/status`.
        public var topics: MQTTTopics
        /// 0 or 1, for TPV, SKY and status.
        public var qos: Int
        /// The `device` member of each report: the source, as `watch --json` names it.
        public var source: String
        /// Home Assistant's discovery configs (the tracker and its sensors), published with the
        /// birth when set.
        public var homeAssistant: HomeAssistantDiscovery?

        /// Options for `topics`, at `qos`, with reports of device `source`.

        public init(topics: MQTTTopics, qos: Int = 0, source: String, homeAssistant: HomeAssistantDiscovery? = nil) {
            self.topics = topics
            self.qos = qos
            self.source = source
            self.homeAssistant = homeAssistant
        }
    }

    /// What is published where.
    public let options: Options
    /// The connection it publishes through: its counts (`published`, `dropped`) and state.
    public let client: MQTTClient
    private let device: GPSDJSON.Device
    private let relay: RelayLink

    /// `settings` without will or birth: the publisher sets both from `options`.
    public init(settings: MQTTSettings, options: Options, queueCapacity: Int = MQTTClient.defaultQueueCapacity,
                onEvent: @escaping @Sendable (MQTTClient.Event) -> Void) {
        var settings = settings
        let status = options.topics.status
        settings.will = MQTTMessage(topic: status, text: "offline", qos: 1, retain: true)
        settings.birth = [MQTTMessage(topic: status, text: "online", qos: 1, retain: true)]
            + (options.homeAssistant?.messages(qos: 1) ?? [])
        self.options = options
        device = GPSDJSON.Device(options.source)
        let relay = RelayLink()
        self.relay = relay
        client = MQTTClient(settings: settings, queueCapacity: queueCapacity) { event in
            onEvent(event)
            if case .failed(let error) = event { relay.fail(error) }
        }
    }

    /// Starts connecting, on the client's own thread; returns at once (a broker that is away
    /// is waited for there, and what is published meanwhile is queued).
    public func start() { client.start() }

    /// Publishes what `event` reports: a TPV (and an ATT) or a SKY; nothing for the rest. `device`, when
    /// given, puts it under `PREFIX/NAME/` (several receivers in one process).
    public func publish(_ event: LocationEvent, device name: String? = nil) {
        switch event {
        case .fix(let fix):
            client.publish(MQTTMessage(topic: options.topics.tpv(device: name), payload: Self.tpv(fix, device(name)),
                                       qos: options.qos, retain: true))
            if fix.attitude != nil {
                client.publish(MQTTMessage(topic: options.topics.att(device: name), payload: Self.att(fix, device(name)),
                                           qos: options.qos, retain: true))
            }
        case .sky(let sky):
            client.publish(MQTTMessage(topic: options.topics.sky(device: name), payload: Self.sky(sky, device(name)),
                                       qos: options.qos))
        default:
            break
        }
    }

    /// Says `offline` (retained: a clean stop is no less dark than a crash), sends what is
    /// queued, and disconnects: returns once it has, or after 2 s.
    public func stop() {
        client.publish(MQTTMessage(topic: options.topics.status, text: "offline", qos: 1, retain: true))
        client.stop()
    }

    /// `stop()` without holding a thread of the cooperative pool while the goodbye is sent.
    public func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            spawnThread(name: "gpsfix-mqtt-stop") { [self] in
                stop()
                continuation.resume()
            }
        }
    }

    // MARK: - As a relay's feed

    /// Starts connecting; with several sources, each is published under `PREFIX/NAME/`.
    public func start(_ sources: [RelaySource], control: FeedControl) {
        relay.set(control, several: sources.count > 1)
        start()
    }

    /// Publishes `event` of `source` (under its name when the relay has several).
    public func take(_ event: LocationEvent, from source: RelaySource) {
        publish(event, device: relay.several ? source.name : nil)
    }

    private func device(_ name: String?) -> GPSDJSON.Device {
        name.map { GPSDJSON.Device($0) } ?? device
    }

    static func tpv(_ fix: Fix, _ device: GPSDJSON.Device) -> [UInt8] {
        var w = ByteWriter(capacity: 512)
        GPSDJSON.tpv(fix, device: device, into: &w)
        return withoutNewline(w.bytes)
    }

    static func att(_ fix: Fix, _ device: GPSDJSON.Device) -> [UInt8] {
        var w = ByteWriter(capacity: 256)
        GPSDJSON.att(fix, device: device, into: &w)
        return withoutNewline(w.bytes)
    }

    static func sky(_ sky: SkyView, _ device: GPSDJSON.Device) -> [UInt8] {
        var w = ByteWriter(capacity: 2048)
        GPSDJSON.sky(sky, device: device, into: &w)
        return withoutNewline(w.bytes)
    }

    /// A message is one report: the line's end is for line-oriented output only.
    private static func withoutNewline(_ bytes: [UInt8]) -> [UInt8] {
        bytes.last == 0x0A ? Array(bytes.dropLast()) : bytes
    }
}

/// What the publisher knows of the relay it feeds: set once at the start, read on the
/// sources' threads and the client's.
private final class RelayLink: Sendable {
    private let state = Mutex<(control: FeedControl?, several: Bool)>((nil, false))

    func set(_ control: FeedControl, several: Bool) { state.withLock { $0 = (control, several) } }

    var several: Bool { state.withLock { $0.several } }

    func fail(_ error: MQTTError) {
        state.withLock { $0.control }?.fail(FeedFailure(feed: "MQTT", error: error))
    }
}
