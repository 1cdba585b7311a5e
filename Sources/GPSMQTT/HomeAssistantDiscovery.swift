import GPSOutput

/// Home Assistant's MQTT discovery for a receiver: one retained config message that makes it a
/// `device_tracker` entity, its location read from the TPV topic as JSON attributes, and its
/// availability from the status topic, so it appears without any YAML.
///
/// Schema (home-assistant.io/integrations/device_tracker.mqtt and …/mqtt/#mqtt-discovery):
/// the config goes to `<discovery_prefix>/device_tracker/<object_id>/config`; no
/// `state_topic`, so the location comes from the attributes `latitude`, `longitude` and
/// `gps_accuracy`, which `json_attributes_template` makes from gpsd's `lat`, `lon` and `eph`.
public struct HomeAssistantDiscovery: Sendable, Equatable {
    /// Home Assistant's default discovery prefix.
    public static let defaultPrefix = "homeassistant"

    /// Unique among this broker's trackers: from the client id, made topic-safe.
    public let objectID: String
    /// The tracker's and its device's name as Home Assistant shows them (`gpsfix PREFIX` from
    /// `serve --mqtt-homeassistant`); any text, written as a JSON string.
    public let name: String
    /// Where the tracker's location (the TPV topic, as JSON attributes) and availability (the
    /// status topic's `online` and `offline`) are read from.
    public let topics: MQTTTopics
    /// The topic level Home Assistant listens on for discovery: ``defaultPrefix`` unless its
    /// MQTT integration was set to another.
    public var discoveryPrefix = HomeAssistantDiscovery.defaultPrefix
    /// gpsfix's version, shown as the device's `sw_version`; nil leaves it out.
    public var softwareVersion: String?

    /// The discovery of one receiver's tracker; `objectID` is kept with every character other
    /// than an ASCII letter, digit, `-` or `_` made `_`, as Home Assistant's object ids must be.
    public init(objectID: String, name: String, topics: MQTTTopics, softwareVersion: String? = nil) {
        // Home Assistant's object ids are [a-zA-Z0-9_-].
        self.objectID = String(objectID.map { $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || $0 == "-" ? $0 : "_" })
        self.name = name
        self.topics = topics
        self.softwareVersion = softwareVersion
    }

    /// Where ``message(qos:)`` goes: `DISCOVERY_PREFIX/device_tracker/OBJECT_ID/config`.
    public var configTopic: String { "\(discoveryPrefix)/device_tracker/\(objectID)/config" }

    /// The gpsd TPV's fields under the names Home Assistant reads a location from. A TPV
    /// without a position (mode 1) leaves the last location as it was.
    static let attributesTemplate =
        "{% if value_json.lat is defined %}{{ {'latitude': value_json.lat, 'longitude': value_json.lon, 'gps_accuracy': value_json.eph | default(0), 'altitude': value_json.altMSL | default(none), 'speed': value_json.speed | default(none), 'course': value_json.track | default(none), 'mode': value_json.mode} | tojson }}{% else %}{{ {'mode': value_json.mode} | tojson }}{% endif %}"

    /// The config message: retained, so Home Assistant finds it whenever it starts.
    public func message(qos: Int) -> MQTTMessage {
        var w = ByteWriter(capacity: 1024)
        w.append("{\"name\":")
        w.appendJSONString(name)
        w.append(",\"unique_id\":")
        w.appendJSONString("gpsfix_" + objectID)
        w.append(",\"object_id\":")
        w.appendJSONString(objectID)
        w.append(",\"source_type\":\"gps\"")
        w.append(",\"json_attributes_topic\":")
        w.appendJSONString(topics.tpv())
        w.append(",\"json_attributes_template\":")
        w.appendJSONString(Self.attributesTemplate)
        w.append(",\"availability_topic\":")
        w.appendJSONString(topics.status)
        w.append(",\"payload_available\":\"online\",\"payload_not_available\":\"offline\"")
        w.append(",\"qos\":")
        w.append(qos)
        w.append(",\"device\":{\"identifiers\":[")
        w.appendJSONString("gpsfix_" + objectID)
        w.append("],\"name\":")
        w.appendJSONString(name)
        w.append(",\"manufacturer\":\"gpsfix\",\"model\":\"GNSS receiver (gpsd JSON over MQTT)\"")
        if let softwareVersion {
            w.append(",\"sw_version\":")
            w.appendJSONString(softwareVersion)
        }
        w.append("}}")
        return MQTTMessage(topic: configTopic, payload: w.bytes, qos: qos, retain: true)
    }
}
