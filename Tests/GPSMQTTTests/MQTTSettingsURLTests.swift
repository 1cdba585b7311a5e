import GPSMQTT
import Testing

@Suite("MQTTSettings(url:): an app's broker settings from the URL the CLI takes")
struct MQTTSettingsURLTests {
    @Test("Host, port, user and TLS from the URL; the client id given or gpsfix-HOST-PREFIX")
    func parses() throws {
        let plain = try MQTTSettings(url: "mqtt://broker.example/fleet/van7", clientID: "app")
        #expect(plain.host == "broker.example" && plain.port == 1883 && plain.username == nil && plain.tls == nil)
        #expect(plain.clientID == "app")
        let secure = try MQTTSettings(url: "mqtts://van%407@[::1]:8884/fleet/van7")
        #expect(secure.host == "::1" && secure.port == 8884 && secure.username == "van@7" && secure.tls == MQTTSettings.TLS())
        #expect(secure.clientID.hasPrefix("gpsfix-") && secure.clientID.hasSuffix("-fleet-van7") || secure.clientID.hasPrefix("gpsfix-"),
                "\(secure.clientID)")
        #expect(secure.clientID == MQTTSettings.defaultClientID(prefix: "fleet/van7"))
    }

    @Test("A malformed URL throws MQTTAddress.Invalid saying why; a password in it is shown as ***")
    func refuses() {
        #expect(throws: MQTTAddress.Invalid.self) { try MQTTSettings(url: "http://broker/x") }
        #expect(throws: MQTTAddress.Invalid.self) { try MQTTSettings(url: "mqtt://broker") }
        do {
            _ = try MQTTSettings(url: "mqtt://van7:hunter2@broker/fleet")
            Issue.record("a password in the URL was taken")
        } catch {
            #expect(!error.description.contains("hunter2") && error.description.contains("***"), "\(error)")
        }
    }
}
