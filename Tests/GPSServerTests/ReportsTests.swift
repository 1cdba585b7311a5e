import Foundation
@testable import GPSServer
import Testing

/// The replies must parse as JSON and carry gpsd's member names, or libgps rejects them.
@Suite("gpsd replies")
struct ReportsTests {
    func object(_ bytes: [UInt8]) throws -> [String: Any] {
        #expect(bytes.suffix(2) == [0x0D, 0x0A], "gpsd ends each reply with CR LF")
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes.dropLast(2))) as? [String: Any])
    }

    @Test("VERSION names protocol 3.14, which gpsd 3.21 and 3.22 speak")
    func version() throws {
        let v = try object(Reports.version(release: "gpsfix 1.0"))
        #expect(v["class"] as? String == "VERSION")
        #expect(v["release"] as? String == "gpsfix 1.0")
        #expect(v["proto_major"] as? Int == 3 && v["proto_minor"] as? Int == 14)
    }

    @Test("DEVICES lists each device while it is active, and not once it has gone")
    func devices() throws {
        let device = DeviceDescription(path: "/dev/ttyACM0", bps: 9600)
        let listed = try object(Reports.devices([(device, activated: 1_764_486_600.25)]))
        let entries = try #require(listed["devices"] as? [[String: Any]])
        #expect(entries.count == 1)
        #expect(entries.first?["path"] as? String == "/dev/ttyACM0")
        #expect(entries.first?["driver"] as? String == "NMEA0183")
        #expect(entries.first?["activated"] as? String == "2025-11-30T07:10:00.250Z")
        #expect(entries.first?["bps"] as? Int == 9600)
        let gone = try object(Reports.devices([(device, activated: nil)]))
        #expect((gone["devices"] as? [Any])?.isEmpty == true)
        let other = DeviceDescription(path: "/dev/ttyUSB0")
        let two = try object(Reports.devices([(device, activated: 5), (other, activated: nil), (other, activated: 6)]))
        #expect((two["devices"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == ["/dev/ttyACM0", "/dev/ttyUSB0"])
        let unplugged = try object(Reports.device(device, activated: nil))
        #expect(unplugged["activated"] as? Int == 0, "gpsd's way of saying a device went away")
    }

    @Test("WATCH echoes the policy with every member libgps expects")
    func watch() throws {
        var policy = WatchPolicy()
        policy.apply(.init(enable: true, nmea: true))
        let w = try object(Reports.watch(policy))
        #expect(w["class"] as? String == "WATCH")
        #expect(w["enable"] as? Bool == true && w["json"] as? Bool == false && w["nmea"] as? Bool == true)
        #expect(Set(w.keys) == ["class", "enable", "json", "nmea", "raw", "scaled", "timing", "split24", "pps"])
        // A watch of one device says which, last, as gpsd does.
        policy.apply(.init(device: "/dev/ttyUSB0"))
        let one = try object(Reports.watch(policy))
        #expect(one["device"] as? String == "/dev/ttyUSB0")
    }

    @Test("POLL embeds each active device's last TPV and SKY objects")
    func poll() throws {
        let tpv = Array("{\"class\":\"TPV\",\"mode\":3}".utf8)
        let p = try object(Reports.poll(now: 0, active: 1, tpv: [tpv], sky: []))
        #expect(p["time"] as? String == "1970-01-01T00:00:00.000Z")
        #expect(p["active"] as? Int == 1)
        #expect((p["tpv"] as? [[String: Any]])?.first?["mode"] as? Int == 3)
        #expect((p["sky"] as? [Any])?.isEmpty == true)
        let other = Array("{\"class\":\"TPV\",\"mode\":2}".utf8)
        let two = try object(Reports.poll(now: 0, active: 2, tpv: [tpv, other], sky: []))
        #expect((two["tpv"] as? [[String: Any]])?.compactMap { $0["mode"] as? Int } == [3, 2])
    }

    @Test("ERROR escapes what it quotes")
    func error() throws {
        let e = try object(Reports.error("Unrecognized request '\"\u{1}\\'"))
        #expect(e["message"] as? String == "Unrecognized request '\"\u{1}\\'")
    }
}
