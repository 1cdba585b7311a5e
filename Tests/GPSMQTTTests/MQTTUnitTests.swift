import Foundation
import GPSLocation
@testable import GPSMQTT
import GPSOutput
import GPSTestSupport
import NMEA
import Testing

@Suite("MQTT: addresses, topics, the queue, gpsd JSON read back, Home Assistant's config")
struct MQTTUnitTests {
    @Test("mqtt:// and mqtts:// URLs: user, host, port, prefix; a password in the URL is refused")
    func addresses() throws {
        let a = try MQTTAddress(parsing: "mqtt://van7@broker.example:1884/fleet/van7/")
        #expect(a.host == "broker.example" && a.port == 1884 && a.username == "van7" && a.prefix == "fleet/van7" && !a.usesTLS)
        let b = try MQTTAddress(parsing: "mqtts://[::1]/fleet/+")
        #expect(b.host == "::1" && b.port == 8883 && b.usesTLS && b.hasWildcards && !b.isPublishable && b.isSubscribable)
        #expect(throws: MQTTAddress.Invalid.self) { try MQTTAddress(parsing: "mqtt://u:secret@h/p") }
        #expect(throws: MQTTAddress.Invalid.self) { try MQTTAddress(parsing: "mqtt://h:99999/p") }
        #expect(throws: MQTTAddress.Invalid.self) { try MQTTAddress(parsing: "http://h/p") }
        #expect(throws: MQTTAddress.Invalid.self) { try MQTTAddress(parsing: "mqtt://h") }
    }

    @Test("A device is one topic level; a fleet's label is what the wildcards matched")
    func topics() {
        let t = MQTTTopics(prefix: "fleet")
        #expect(t.tpv() == "fleet/tpv" && t.status == "fleet/status")
        #expect(t.tpv(device: "/dev/serial/by-id/usb-u-blox #1") == "fleet/serial_by-id_usb-u-blox__1/tpv")
        #expect(MQTTManager.label(of: "fleet/van7", under: "fleet/+") == "van7")
        #expect(MQTTManager.label(of: "fleet/eu/van7", under: "fleet/#") == "eu/van7")
        #expect(MQTTManager.label(of: "fleet/van7", under: "fleet/van7") == nil)
    }

    @Test("The queue keeps the newest and counts what it dropped")
    func queue() {
        var q = OutboundQueue(capacity: 3)
        for i in 0..<5 { q.push(MQTTMessage(topic: "t", text: String(i))) }
        #expect(q.dropped == 2 && q.count == 3)
        var kept: [String] = []
        while let m = q.pop() { kept.append(String(decoding: m.payload, as: UTF8.self)) }
        #expect(kept == ["2", "3", "4"])
    }

    @Test("A long outage's drops are told at 1, 100, 1000… (a few lines), not every 100th")
    func droppedToldSparingly() {
        #expect((1...100_000).filter(MQTTClient.isTold) == [1, 100, 1000, 10_000, 100_000])
    }

    @Test("A TPV and a SKY written by GPSDJSON read back to the same values")
    func roundTrip() throws {
        var fix = Fix()
        fix.mode = .threeD
        fix.quality = .dgps
        fix.timestamp = FixTime(date: CalendarDate(year: 2024, month: 6, day: 15), time: TimeOfDay(hour: 3, minute: 12, second: 7, millisecond: 250))
        fix.coordinate = Coordinate(latitude: -45.875380123, longitude: 170.504520456)
        fix.altitude = 9.5
        fix.ellipsoidalAltitude = 17.4
        fix.speed = 13.069
        fix.course = 33.5
        var w = ByteWriter()
        GPSDJSON.tpv(fix, device: "x", into: &w)
        guard case .fix(let read)? = GpsdJSONReports.report(Array(w.bytes.dropLast())) else { Issue.record("no fix"); return }
        #expect(read.coordinate == fix.coordinate && read.altitude == 9.5 && read.ellipsoidalAltitude == 17.4)
        #expect(read.speed == 13.069 && read.course == 33.5 && read.quality == .dgps && read.timestamp == fix.timestamp)

        let sky = SkyView(satellites: [Satellite(id: SatelliteID(constellation: .gps, svid: 4), elevation: 45, azimuth: 120, snr: 40, used: true)],
                          dop: DilutionOfPrecision(horizontal: 1.3))
        var s = ByteWriter()
        GPSDJSON.sky(sky, into: &s)
        #expect(GpsdJSONReports.report(s.bytes) == .sky(sky))
    }

    @Test("Out-of-range values are unknown; junk is no report", arguments: [
        #"{"class":"TPV","mode":3,"lat":91.0,"lon":10.0}"#,
        #"{"class":"TPV","mode":3,"lat":"x","lon":10.0}"#,
    ])
    func outOfRangePosition(_ text: String) {
        guard case .fix(let fix)? = GpsdJSONReports.report(Array(text.utf8)) else { Issue.record("a TPV without position is still a TPV"); return }
        #expect(fix.mode == .noFix && fix.coordinate == nil)
    }

    @Test("Junk, other classes and deep nesting are not reports")
    func junk() {
        for text in ["", "{", "[1,2]", #"{"class":"GST"}"#, String(repeating: "[", count: 100), #"{"class":"TPV","mode":3,"lat":1e999}"#] {
            #expect(GpsdJSONReports.report(Array(text.utf8)) == nil || text.contains("1e999"), "\(text)")
        }
        let speed = GpsdJSONReports.report(Array(#"{"class":"TPV","mode":3,"lat":1,"lon":2,"speed":99999}"#.utf8))
        guard case .fix(let fix)? = speed else { Issue.record("no fix"); return }
        #expect(fix.speed == nil && fix.coordinate != nil)
    }

    @Test("Home Assistant's discovery config: a device_tracker reading the TPV topic as JSON attributes")
    func homeAssistant() throws {
        let ha = HomeAssistantDiscovery(objectID: "gpsfix-vm-fleet/van7", name: "gpsfix fleet/van7",
                                        topics: MQTTTopics(prefix: "fleet/van7"), softwareVersion: "0.1.0")
        let message = ha.message(qos: 1)
        #expect(message.topic == "homeassistant/device_tracker/gpsfix-vm-fleet_van7/config" && message.retain)
        let config = try #require(try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any])
        #expect(Set(config.keys) == ["name", "unique_id", "object_id", "source_type", "json_attributes_topic", "json_attributes_template",
                                     "availability_topic", "payload_available", "payload_not_available", "qos", "device"])
        #expect(config["json_attributes_topic"] as? String == "fleet/van7/tpv")
        #expect(config["availability_topic"] as? String == "fleet/van7/status")
        #expect(config["source_type"] as? String == "gps")
        #expect(config["state_topic"] == nil, "without a state topic, Home Assistant takes the location from the attributes")
        let template = try #require(config["json_attributes_template"] as? String)
        #expect(template.contains("'latitude': value_json.lat") && template.contains("'longitude': value_json.lon")
                && template.contains("'gps_accuracy'"))
        let device = try #require(config["device"] as? [String: Any])
        #expect((device["identifiers"] as? [String]) == ["gpsfix_gpsfix-vm-fleet_van7"])
        #expect(template.contains("value_json.eph") && !template.contains("default(0)"), "never a 0 accuracy for a missing eph")
    }

    @Test("Home Assistant's discovery: three sensors of the tracker's device, satellites used and seen from SKY, the fix mode from TPV")
    func homeAssistantSensors() throws {
        // Given the discovery of one receiver
        let ha = HomeAssistantDiscovery(objectID: "gpsfix-vm-car", name: "gpsfix car", topics: MQTTTopics(prefix: "car"),
                                        softwareVersion: "0.1.0")
        // When its messages are made
        let messages = ha.messages(qos: 1)
        // Then the tracker's first, then one retained config per sensor
        #expect(messages.map(\.topic) == ["homeassistant/device_tracker/gpsfix-vm-car/config",
                                          "homeassistant/sensor/gpsfix-vm-car/satellites_used/config",
                                          "homeassistant/sensor/gpsfix-vm-car/satellites_seen/config",
                                          "homeassistant/sensor/gpsfix-vm-car/fix_mode/config"])
        #expect(messages.allSatisfy { $0.retain && $0.qos == 1 })
        let configs = try messages.map { try #require(try JSONSerialization.jsonObject(with: Data($0.payload)) as? [String: Any]) }
        let tracker = try #require(configs.first)
        var uniqueIDs: Set<String> = []
        for (config, expected) in zip(configs.dropFirst(), [("car/sky", "{{ value_json.uSat }}"), ("car/sky", "{{ value_json.nSat }}"), ("car/tpv", nil)]) {
            #expect(config["state_topic"] as? String == expected.0)
            if let template = expected.1 { #expect(config["value_template"] as? String == template) }
            #expect(config["availability_topic"] as? String == "car/status" && config["payload_available"] as? String == "online")
            // On the tracker's device, so Home Assistant shows them together
            let device = try #require(config["device"] as? [String: Any])
            #expect(device["identifiers"] as? [String] == (tracker["device"] as? [String: Any])?["identifiers"] as? [String])
            uniqueIDs.insert(try #require(config["unique_id"] as? String))
        }
        #expect(uniqueIDs == ["gpsfix_gpsfix-vm-car_satellites_used", "gpsfix_gpsfix-vm-car_satellites_seen", "gpsfix_gpsfix-vm-car_fix_mode"])
        #expect(configs[1]["state_class"] as? String == "measurement" && configs[3]["state_class"] == nil)
    }

    @Test("Home Assistant's templates, rendered by Jinja2's sandbox as Home Assistant renders them: eph as gps_accuracy, left out when absent; the sensors' states",
          .enabled(if: jinja2IsInstalled, "needs python3 with jinja2 (Debian's python3-jinja2) to render the templates"))
    func homeAssistantRendered() throws {
        let attributes = HomeAssistantDiscovery.attributesTemplate
        let sensor = { (key: String) in HomeAssistantDiscovery.sensors.first { $0.key == key }!.valueTemplate }
        let cases: [(template: String, payload: String, rendered: String)] = [
            (attributes, #"{"class":"TPV","mode":3,"lat":52.5,"lon":4.25,"altMSL":12.5,"eph":3.25,"speed":0.5,"track":90.0}"#,
             #"{"latitude": 52.5, "longitude": 4.25, "gps_accuracy": 3.25, "altitude": 12.5, "speed": 0.5, "course": 90.0, "mode": 3}"#),
            (attributes, #"{"class":"TPV","mode":2,"lat":52.5,"lon":4.25}"#,
             #"{"latitude": 52.5, "longitude": 4.25, "altitude": null, "speed": null, "course": null, "mode": 2}"#),
            (attributes, #"{"class":"TPV","mode":1}"#, #"{"mode": 1}"#),
            (sensor("satellites_used"), #"{"class":"SKY","nSat":12,"uSat":7,"satellites":[]}"#, "7"),
            (sensor("satellites_seen"), #"{"class":"SKY","nSat":12,"uSat":7,"satellites":[]}"#, "12"),
            (sensor("fix_mode"), #"{"class":"TPV","mode":3}"#, "3D"),
            (sensor("fix_mode"), #"{"class":"TPV","mode":2}"#, "2D"),
            (sensor("fix_mode"), #"{"class":"TPV","mode":1}"#, "no fix"),
            // gpsd's mode 0 (not seen yet): Home Assistant takes "None" as unknown
            (sensor("fix_mode"), #"{"class":"TPV","mode":0}"#, "None"),
        ]
        let rendered = try renderJinja2(cases.map { ($0.template, $0.payload) })
        #expect(rendered == cases.map(\.rendered))
    }
}

private let jinja2IsInstalled: Bool = {
    // posix_spawn, not Foundation's Process (see runProgram).
    (try? runProgramBlocking(["/usr/bin/env", "python3", "-c", "import jinja2.sandbox"]))?.status == 0
}()

/// Each template rendered (by the `python3` on the PATH) with `value_json` the payload parsed, in Jinja2's immutable sandbox
/// (Home Assistant's templates are one) with `tojson` writing as Python's json does.
private func renderJinja2(_ cases: [(template: String, payload: String)]) throws -> [String] {
    let script = """
    import json, sys
    from jinja2.sandbox import ImmutableSandboxedEnvironment
    env = ImmutableSandboxedEnvironment()
    env.filters["tojson"] = lambda value: json.dumps(value)
    out = [env.from_string(t).render(value_json=json.loads(p)) for t, p in json.load(sys.stdin)]
    print(json.dumps(out))
    """
    // The cases go in through a file: posix_spawn, not Foundation's Process (see runProgram).
    let dir = try TemporaryDirectory()
    let input = dir.path + "/cases.json"
    try JSONSerialization.data(withJSONObject: cases.map { [$0.template, $0.payload] }).write(to: URL(fileURLWithPath: input))
    let fd = open(input, O_RDONLY)
    defer { close(fd) }
    let result = try runProgramBlocking(["/usr/bin/env", "python3", "-c", script], standardInput: fd)
    return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String], "\(result.err)")
}
