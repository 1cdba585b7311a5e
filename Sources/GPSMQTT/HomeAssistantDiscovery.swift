import GPSOutput

/// Home Assistant's MQTT discovery for a receiver: retained config messages that make it a
/// `device_tracker` entity, its location read from the TPV topic as JSON attributes, and three
/// sensors of the same device (satellites used, satellites seen, the fix mode), each available
/// while the status topic says `online`, so it appears without any YAML.
///
/// Schema (home-assistant.io/integrations/device_tracker.mqtt, …/sensor.mqtt and
/// …/mqtt/#mqtt-discovery): the tracker's config goes to
/// `<discovery_prefix>/device_tracker/<object_id>/config`, with no `state_topic`, so the
/// location comes from the attributes `latitude`, `longitude` and `gps_accuracy`, which
/// `json_attributes_template` makes from gpsd's `lat`, `lon` and `eph` (`gps_accuracy` left out
/// when the TPV has no `eph`: never a 0 that would say "perfect"). Each sensor's config goes to
/// `<discovery_prefix>/sensor/<object_id>/<sensor>/config`, its state read by a
/// `value_template` from the SKY topic (`uSat`, `nSat`) or the TPV topic (`mode`).
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
    /// without a position (mode 1) leaves the last location as it was. `gps_accuracy` is the
    /// TPV's `eph` (metres, one sigma), left out when the TPV has none: Home Assistant's zones
    /// take a missing accuracy as unknown, where a 0 would claim a perfect fix.
    static let attributesTemplate =
        "{% if value_json.lat is defined %}{% if value_json.eph is defined %}"
        + "{{ {'latitude': value_json.lat, 'longitude': value_json.lon, 'gps_accuracy': value_json.eph, \(rest)} | tojson }}"
        + "{% else %}{{ {'latitude': value_json.lat, 'longitude': value_json.lon, \(rest)} | tojson }}{% endif %}"
        + "{% else %}{{ {'mode': value_json.mode} | tojson }}{% endif %}"

    /// What every location carries besides its position and accuracy.
    private static let rest =
        "'altitude': value_json.altMSL | default(none), 'speed': value_json.speed | default(none), "
        + "'course': value_json.track | default(none), 'mode': value_json.mode"

    /// One of the receiver's sensors: what it is called, where its state comes from and how.
    public struct Sensor: Sendable, Equatable {
        /// The last level of its config topic and of its ids (`satellites_used`).
        public let key: String
        /// Its name in Home Assistant, under the device's.
        public let name: String
        /// The report it is read from: `tpv` or `sky`.
        public let report: String
        /// Its state from that report (Jinja, as Home Assistant renders it).
        public let valueTemplate: String
        /// Its icon (Material Design Icons).
        public let icon: String
        /// A count (a `measurement`, graphed), or words.
        public let isCount: Bool
    }

    /// Satellites used in the solution and seen (SKY's `uSat` and `nSat`), and the fix mode (TPV's
    /// `mode` in words: `no fix`, `2D`, `3D`; any other is unknown, rendered `None`).
    public static let sensors: [Sensor] = [
        Sensor(key: "satellites_used", name: "Satellites used", report: "sky", valueTemplate: "{{ value_json.uSat }}",
               icon: "mdi:satellite-variant", isCount: true),
        Sensor(key: "satellites_seen", name: "Satellites seen", report: "sky", valueTemplate: "{{ value_json.nSat }}",
               icon: "mdi:satellite-uplink", isCount: true),
        Sensor(key: "fix_mode", name: "Fix mode", report: "tpv",
               valueTemplate: "{{ {1: 'no fix', 2: '2D', 3: '3D'}.get(value_json.mode, None) }}",
               icon: "mdi:crosshairs-gps", isCount: false),
    ]

    /// Where a sensor's config goes: `DISCOVERY_PREFIX/sensor/OBJECT_ID/KEY/config`.
    public func configTopic(of sensor: Sensor) -> String { "\(discoveryPrefix)/sensor/\(objectID)/\(sensor.key)/config" }

    /// Every config message: the tracker's, then each sensor's; retained, so Home Assistant
    /// finds them whenever it starts.
    public func messages(qos: Int) -> [MQTTMessage] {
        [message(qos: qos)] + Self.sensors.map { message(for: $0, qos: qos) }
    }

    /// A sensor's config message: its state from its report's topic, on the tracker's device.
    public func message(for sensor: Sensor, qos: Int) -> MQTTMessage {
        var w = ByteWriter(capacity: 1024)
        w.append("{\"name\":")
        w.appendJSONString(sensor.name)
        w.append(",\"unique_id\":")
        w.appendJSONString("gpsfix_\(objectID)_\(sensor.key)")
        w.append(",\"object_id\":")
        w.appendJSONString("\(objectID)_\(sensor.key)")
        w.append(",\"state_topic\":")
        w.appendJSONString(sensor.report == "sky" ? topics.sky() : topics.tpv())
        w.append(",\"value_template\":")
        w.appendJSONString(sensor.valueTemplate)
        w.append(",\"icon\":")
        w.appendJSONString(sensor.icon)
        if sensor.isCount { w.append(",\"state_class\":\"measurement\"") }
        appendAvailability(qos: qos, into: &w)
        appendDevice(into: &w)
        w.append("}")
        return MQTTMessage(topic: configTopic(of: sensor), payload: w.bytes, qos: qos, retain: true)
    }

    /// The tracker's config message: retained, so Home Assistant finds it whenever it starts.
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
        appendAvailability(qos: qos, into: &w)
        appendDevice(into: &w)
        w.append("}")
        return MQTTMessage(topic: configTopic, payload: w.bytes, qos: qos, retain: true)
    }

    private func appendAvailability(qos: Int, into w: inout ByteWriter) {
        w.append(",\"availability_topic\":")
        w.appendJSONString(topics.status)
        w.append(",\"payload_available\":\"online\",\"payload_not_available\":\"offline\"")
        w.append(",\"qos\":")
        w.append(qos)
    }

    /// The device every entity belongs to, the same in each config.
    private func appendDevice(into w: inout ByteWriter) {
        w.append(",\"device\":{\"identifiers\":[")
        w.appendJSONString("gpsfix_" + objectID)
        w.append("],\"name\":")
        w.appendJSONString(name)
        w.append(",\"manufacturer\":\"gpsfix\",\"model\":\"GNSS receiver (gpsd JSON over MQTT)\"")
        if let softwareVersion {
            w.append(",\"sw_version\":")
            w.appendJSONString(softwareVersion)
        }
        w.append("}")
    }
}
