public import GPSLocation
import GPSOutput
import NMEA

/// Publishes a source's events to a broker as gpsd JSON, the bytes `watch --json` prints
/// (without the line's end): each fix as a TPV to `PREFIX/tpv`, retained so that a new
/// subscriber has the last one at once; each sky view as a SKY to `PREFIX/sky`; and gpsfix's
/// presence at `PREFIX/status`, `online` (retained) on every connection and `offline` as the
/// last will, which the broker publishes when gpsfix goes dark without a goodbye.
///
/// `publish` is called on the source's thread and never blocks (see `MQTTClient`).
public final class MQTTPublisher: Sendable {
    public struct Options: Sendable {
        public var topics: MQTTTopics
        /// 0 or 1, for TPV, SKY and status.
        public var qos: Int
        /// The `device` member of each report: the source, as `watch --json` names it.
        public var source: String
        public var homeAssistant: HomeAssistantDiscovery?

        public init(topics: MQTTTopics, qos: Int = 0, source: String, homeAssistant: HomeAssistantDiscovery? = nil) {
            self.topics = topics
            self.qos = qos
            self.source = source
            self.homeAssistant = homeAssistant
        }
    }

    public let options: Options
    public let client: MQTTClient
    private let device: GPSDJSON.Device

    /// `settings` without will or birth: the publisher sets both from `options`.
    public init(settings: MQTTSettings, options: Options, queueCapacity: Int = MQTTClient.defaultQueueCapacity,
                onEvent: @escaping @Sendable (MQTTClient.Event) -> Void) {
        var settings = settings
        let status = options.topics.status
        settings.will = MQTTMessage(topic: status, text: "offline", qos: 1, retain: true)
        settings.birth = [MQTTMessage(topic: status, text: "online", qos: 1, retain: true)]
            + [options.homeAssistant?.message(qos: 1)].compactMap { $0 }
        self.options = options
        device = GPSDJSON.Device(options.source)
        client = MQTTClient(settings: settings, queueCapacity: queueCapacity, onEvent: onEvent)
    }

    public func start() { client.start() }

    /// Publishes what `event` reports: a TPV or a SKY; nothing for the rest. `device`, when
    /// given, puts it under `PREFIX/NAME/` (several receivers in one process).
    public func publish(_ event: LocationEvent, device name: String? = nil) {
        switch event {
        case .fix(let fix):
            client.publish(MQTTMessage(topic: options.topics.tpv(device: name), payload: Self.tpv(fix, device(name)),
                                       qos: options.qos, retain: true))
        case .sky(let sky):
            client.publish(MQTTMessage(topic: options.topics.sky(device: name), payload: Self.sky(sky, device(name)),
                                       qos: options.qos))
        default:
            break
        }
    }

    /// Says `offline` (retained: a clean stop is no less dark than a crash), sends what is
    /// queued, and disconnects.
    public func stop() {
        client.publish(MQTTMessage(topic: options.topics.status, text: "offline", qos: 1, retain: true))
        client.stop()
    }

    private func device(_ name: String?) -> GPSDJSON.Device {
        name.map { GPSDJSON.Device($0) } ?? device
    }

    static func tpv(_ fix: Fix, _ device: GPSDJSON.Device) -> [UInt8] {
        var w = ByteWriter(capacity: 512)
        GPSDJSON.tpv(fix, device: device, into: &w)
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
