import Testing
@testable import GPSMQTT

@Suite("PasswordMasking: no message shows a broker password")
struct PasswordMaskingTests {
    @Test func aURLsPasswordIsMasked() {
        #expect(PasswordMasking.masked(url: "mqtt://van7:right horse@broker/fleet/van7") == "mqtt://van7:***@broker/fleet/van7")
        #expect(PasswordMasking.masked(url: "mqtts://u:p@ss@[::1]:8883/x") == "mqtts://u:***@[::1]:8883/x")
        #expect(PasswordMasking.masked(url: "mqtt://u:pa/ss@host/x") == "mqtt://u:***@host/x")
    }

    @Test func aURLWithoutAPasswordIsAsItWas() {
        for url in ["mqtt://van7@broker/fleet", "mqtt://broker:1883/fleet/+", "mqtts://[::1]:8883/x", "not a url"] {
            #expect(PasswordMasking.masked(url: url) == url)
        }
    }

    @Test func everyURLInAMessageIsMasked() {
        let message = "--mqtt: 'mqtt://a:secret1@h/x' and --mqtt-in mqtt://b:secret2@h2:1884/y are both wrong"
        let masked = PasswordMasking.masking(message)
        #expect(!masked.contains("secret1") && !masked.contains("secret2"))
        #expect(masked == "--mqtt: 'mqtt://a:***@h/x' and --mqtt-in mqtt://b:***@h2:1884/y are both wrong")
        #expect(PasswordMasking.masking("no urls here: a:b@c") == "no urls here: a:b@c")
    }

    @Test func theRefusalOfAURLWithAPasswordDoesNotEchoIt() {
        #expect(throws: MQTTAddress.Invalid.self) { try MQTTAddress(parsing: "mqtt://van7:hunter2@broker/fleet") }
        do {
            _ = try MQTTAddress(parsing: "mqtt://van7:hunter2@broker/fleet")
        } catch {
            #expect(!error.description.contains("hunter2"))
            #expect(error.description.contains("mqtt://van7:***@broker/fleet"))
        }
        // A password with a slash is split as a port: still masked.
        do {
            _ = try MQTTAddress(parsing: "mqtt://van7:hun/ter2@broker/fleet")
        } catch {
            #expect(!error.description.contains("hun"), "\(error.description)")
        }
    }

    @Test func settingsPrintedOrDumpedShowNoPassword() {
        var settings = MQTTSettings(host: "broker", port: 1883, clientID: "c")
        settings.username = "van7"
        settings.password = "hunter2"
        #expect(!"\(settings)".contains("hunter2"))
        #expect(!String(reflecting: settings).contains("hunter2"))
        var dumped = ""
        dump(settings, to: &dumped)
        #expect(!dumped.contains("hunter2"), "\(dumped)")
    }
}
