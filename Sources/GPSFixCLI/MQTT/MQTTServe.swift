import GPSLocation
import GPSMQTT
import GPSServer
import Synchronization
import GPSSystem

/// `serve --mqtt`: a publisher fed with the sources' events (GPSMQTT's `MQTTPublisher` as a
/// feed), and its news told on stderr. A refused login or a failed TLS handshake ends the
/// serve (the publisher fails its relay); a broker away is waited for, said once per outage.
struct MQTTServe: ServeFeedKind {
    // A fleet read from a broker (--mqtt-in) is a source; publishing (--mqtt) is an outlet.
    static let options = MQTTOptions.serve.placed(
        among: ["--mqtt-in": "source"],
        inside: ["--mqtt-qos": "--mqtt", "--mqtt-homeassistant": "--mqtt", "--mqtt-max-vehicles": "--mqtt-in"])
    static let outlets = ["--mqtt"]

    /// What `--mqtt` asks for, judged before any source is made; nil without it, and for a
    /// fleet re-served, which is not published again (`--mqtt-in` refuses `--mqtt`).
    private let publishing: Publishing?

    /// A publisher's settings, from the options alone.
    struct Publishing: Sendable {
        let address: MQTTAddress
        let settings: MQTTSettings
        let qos: Int
        let topics: MQTTTopics
        let homeAssistant: HomeAssistantDiscovery?
    }

    init(_ args: ParsedArguments, _ setting: ServeSetting) throws {
        publishing = args["--mqtt-in"] == nil ? try Self.publishing(args) : nil
    }

    func make(_ context: inout ServeContext) throws -> ServeFeed? {
        guard context.fleet == nil, let publishing else { return nil }
        let publisher = Self.publisher(publishing, source: context.sources[0].sourceDescription, terminal: context.terminal)
        if let page = context.pageServer {
            let client = publisher.client, capacity = Double(MQTTClient.defaultQueueCapacity)
            page.addMetrics {
                [MetricFamily("gpsfix_mqtt_connected", .gauge, help: "1 while the MQTT broker has the connection, 0 while it is away.", value: client.isConnected ? 1 : 0),
                 MetricFamily("gpsfix_mqtt_queue_messages", .gauge, help: "Reports waiting for the MQTT broker.", value: Double(client.queued)),
                 MetricFamily("gpsfix_mqtt_queue_capacity_messages", .gauge, help: "The most reports that wait for the MQTT broker; past it the oldest are dropped.", value: capacity),
                 MetricFamily("gpsfix_mqtt_dropped_messages_total", .counter, help: "Reports dropped from the full MQTT queue.", value: Double(client.dropped)),
                 MetricFamily("gpsfix_mqtt_published_messages_total", .counter, help: "Reports the MQTT broker has taken (QoS 1: acknowledged).", value: Double(client.published))]
            }
        }
        return ServeFeed(publisher, outlet: "MQTT")
    }

    static func publishing(_ args: ParsedArguments) throws -> Publishing? {
        if args["--mqtt-max-vehicles"] != nil {
            throw UsageError(message: "--mqtt-max-vehicles bounds a fleet that is read (--mqtt-in), not what --mqtt publishes")
        }
        guard let address = try MQTTOptions.address(args) else {
            let stray = (MQTTOptions.serve.map(\.name).filter { $0 != "--mqtt" }).filter { args[$0] != nil || args.has($0) }
            if !stray.isEmpty { throw UsageError(message: "\(stray.joined(separator: " and ")) need --mqtt URL") }
            return nil
        }
        guard address.isPublishable else {
            throw UsageError(message: "--mqtt: '\(address.prefix)' cannot be published to (no '+' or '#', no empty levels)")
        }
        let settings = try MQTTOptions.settings(args, address)
        let topics = MQTTTopics(prefix: address.prefix)
        let homeAssistant = args.has("--mqtt-homeassistant")
            ? HomeAssistantDiscovery(objectID: settings.clientID, name: "gpsfix \(address.prefix)", topics: topics,
                                     softwareVersion: GPSFixCLI.version)
            : nil
        return Publishing(address: address, settings: settings, qos: try MQTTOptions.qos(args), topics: topics, homeAssistant: homeAssistant)
    }

    static func publisher(_ publishing: Publishing, source: String, terminal: Terminal) -> MQTTPublisher {
        let (address, settings, qos) = (publishing.address, publishing.settings, publishing.qos)
        let options = MQTTPublisher.Options(topics: publishing.topics, qos: qos, source: source, homeAssistant: publishing.homeAssistant)
        let where_ = "\(address.usesTLS ? "mqtts" : "mqtt") broker at \(address.broker) under \(address.prefix)/"
        let outage = Atomic<Bool>(false)
        let connectedBefore = Atomic<Bool>(false)
        return MQTTPublisher(settings: settings, options: options) { event in
            switch event {
            case .connected(let dropped):
                let away = outage.exchange(false, ordering: .relaxed)
                let again = connectedBefore.exchange(true, ordering: .relaxed)
                // The outage's whole loss, once: the counts told during it were running totals.
                let loss = away || dropped > 0 ? "; \(dropped) report\(dropped == 1 ? "" : "s") dropped from the full queue while the broker was away" : ""
                terminal.note("gpsfix: publishing to the \(where_)\(again ? " again" : "") (QoS \(qos))\(loss)")
            case .disconnected(let error, let retry):
                // Once per outage: the attempts that follow are many and say nothing new.
                if !outage.exchange(true, ordering: .relaxed) {
                    terminal.note("gpsfix: \(error.description) Trying again every \(format(retry))–\(format(settings.longestRetry)) s\(qos == 1 ? "; keeping up to \(MQTTClient.defaultQueueCapacity) reports meanwhile" : "").")
                }
            case .dropped(let total):
                terminal.note("gpsfix: MQTT queue full (\(MQTTClient.defaultQueueCapacity) reports): dropping the oldest; \(total) dropped so far")
            case .failed, .message, .tick:
                // A failure ends the relay, which throws it: said once, at the end.
                break
            }
        }
    }

    private static func format(_ span: Duration) -> String {
        let seconds = span.inSeconds
        return seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
