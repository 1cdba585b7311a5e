import Foundation
import GPSTestSupport
import Testing

/// TLS with a CA the test makes (openssl), and a broker that wants a password: what works, and
/// that a wrong CA or a wrong password is a clear error naming the broker, exit 1.
@Suite("serve --mqtt with TLS and a password", .serialized,
       .enabled(if: GPSFixBinary.isAvailable && MQTTBroker.isAvailable && access("/usr/bin/openssl", X_OK) == 0,
                "mosquitto, mosquitto-clients and openssl are needed"),
       .timeLimit(.minutes(1)))
struct MQTTSecurityTests {
    /// A CA, a broker certificate for 127.0.0.1 signed by it, another CA, and a password file.
    final class Secrets: Sendable {
        let dir: TemporaryDirectory
        var path: String { dir.path }

        init() async throws {
            dir = try TemporaryDirectory()
            // mosquitto drops to its own user: it must read the key and the password file.
            chmod(dir.path, 0o755)
            let p = dir.path
            _ = try dir.write("ext.cnf", "subjectAltName=IP:127.0.0.1\n")
            for step in [
                ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(p)/ca.key", "-out", "\(p)/ca.crt", "-days", "2", "-subj", "/CN=gpsfix test CA"],
                ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(p)/other.key", "-out", "\(p)/other.crt", "-days", "2", "-subj", "/CN=another CA"],
                ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(p)/server.key", "-out", "\(p)/server.csr", "-subj", "/CN=127.0.0.1"],
                ["x509", "-req", "-in", "\(p)/server.csr", "-CA", "\(p)/ca.crt", "-CAkey", "\(p)/ca.key", "-CAcreateserial",
                 "-out", "\(p)/server.crt", "-days", "2", "-extfile", "\(p)/ext.cnf"],
                // A client certificate, for a broker that asks for one.
                ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(p)/client.key", "-out", "\(p)/client.csr", "-subj", "/CN=van7"],
                ["x509", "-req", "-in", "\(p)/client.csr", "-CA", "\(p)/ca.crt", "-CAkey", "\(p)/ca.key", "-CAcreateserial",
                 "-out", "\(p)/client.crt", "-days", "2"],
            ] {
                let result = try await runTool("/usr/bin/openssl", step)
                guard result.status == 0 else { throw SpawnError(description: "openssl \(step[0]): \(result.err)") }
            }
            let passwd = try await runTool(MQTTBroker.passwd, ["-c", "-b", "\(p)/passwords", "van7", "right horse"])
            guard passwd.status == 0 else { throw SpawnError(description: "mosquitto_passwd: \(passwd.err)") }
            for file in ["server.key", "passwords"] { chmod("\(p)/\(file)", 0o644) }
            // A password file is its owner's alone: gpsfix refuses one others may read.
            for (name, text) in [("good.pass", "right horse\n"), ("bad.pass", "wrong horse\n")] {
                chmod(try dir.write(name, text), 0o600)
            }
        }

        var brokerConfig: [String] {
            ["cafile \(path)/ca.crt", "certfile \(path)/server.crt", "keyfile \(path)/server.key", "password_file \(path)/passwords"]
        }
    }

    @Test("TLS with the test's CA and the right password publishes")
    func tlsWorks() async throws {
        let secrets = try await Secrets()
        let broker = try await MQTTBroker(extra: secrets.brokerConfig, anonymous: false)
        let capture = try secrets.dir.drive(epochs: 30)
        let serve = try await mqttServe(broker, prefix: "fleet/van7",
                                        ["--replay", capture, "--loop", "--mqtt-cafile", "\(secrets.path)/ca.crt",
                                         "--mqtt-password-file", "\(secrets.path)/good.pass"],
                                        scheme: "mqtts", user: "van7")
        #expect(await waitUntil(.seconds(5)) { serve.stderr.contains("publishing to the mqtts broker at 127.0.0.1:\(broker.port)") },
                "\(serve.stderr)")
        let sub = try Collector(MQTTBroker.sub, ["-h", "127.0.0.1", "-p", String(broker.port), "--cafile", "\(secrets.path)/ca.crt",
                                                 "-u", "van7", "-P", "right horse", "-t", "fleet/van7/tpv", "-C", "2"])
        #expect(await sub.waitFor { $0.lines.count == 2 }, "\(sub.stderr)")
        #expect(sub.lines.allSatisfy { jsonObject($0)?["class"] as? String == "TPV" })
        #expect(await serve.stop() == 0)
    }

    @Test("A broker that asks for a client certificate takes --mqtt-cert/--mqtt-key, with the password from GPSFIX_MQTT_PASSWORD; without the certificate, TLS fails clearly")
    func clientCertificate() async throws {
        let secrets = try await Secrets()
        let broker = try await MQTTBroker(extra: secrets.brokerConfig + ["require_certificate true"], anonymous: false)
        let capture = try secrets.dir.drive(epochs: 30)
        let url = "mqtts://van7@127.0.0.1:\(broker.port)/fleet/van7"
        let serve = try await GPSFixProcess(
            ["serve", "--no-listen", "--mqtt", url, "--replay", capture, "--loop", "--mqtt-cafile", "\(secrets.path)/ca.crt",
             "--mqtt-cert", "\(secrets.path)/client.crt", "--mqtt-key", "\(secrets.path)/client.key"],
            launcher: ["/usr/bin/env", "GPSFIX_MQTT_PASSWORD=right horse"], announcement: "to MQTT only; Ctrl-C to stop")
        #expect(await waitUntil(.seconds(5)) { serve.stderr.contains("publishing to the mqtts broker at 127.0.0.1:\(broker.port)") },
                "\(serve.stderr)")
        let sub = try Collector(MQTTBroker.sub, ["-h", "127.0.0.1", "-p", String(broker.port), "--cafile", "\(secrets.path)/ca.crt",
                                                 "--cert", "\(secrets.path)/client.crt", "--key", "\(secrets.path)/client.key",
                                                 "-u", "van7", "-P", "right horse", "-t", "fleet/van7/tpv", "-C", "1"])
        #expect(await sub.waitFor { $0.lines.count == 1 }, "\(sub.stderr)")
        #expect(await serve.stop() == 0)

        // The same, without the client certificate: the broker ends the handshake.
        let refused = try await runTool("/usr/bin/env", [
            "GPSFIX_MQTT_PASSWORD=right horse", GPSFixBinary.url!.path,
            "serve", "--no-listen", "--replay", capture, "--loop", "--mqtt", url, "--mqtt-cafile", "\(secrets.path)/ca.crt"],
            within: .seconds(15))
        #expect(refused.status == 1, "\(refused.err)")
        #expect(refused.err.contains("TLS with the MQTT broker at 127.0.0.1:\(broker.port) failed"), "\(refused.err)")
        #expect(refused.err.contains("give it with --mqtt-cert FILE and --mqtt-key FILE"), "\(refused.err)")
    }

    @Test("A wrong CA is a TLS error naming the broker and the reason, exit 1")
    func wrongCA() async throws {
        let secrets = try await Secrets()
        let broker = try await MQTTBroker(extra: secrets.brokerConfig, anonymous: false)
        let capture = try secrets.dir.drive(epochs: 3)
        let result = try await runTool(GPSFixBinary.url!.path, [
            "serve", "--no-listen", "--replay", capture, "--loop", "--mqtt", "mqtts://van7@127.0.0.1:\(broker.port)/fleet/van7",
            "--mqtt-cafile", "\(secrets.path)/other.crt", "--mqtt-password-file", "\(secrets.path)/good.pass"], within: .seconds(10))
        #expect(result.status == 1)
        #expect(result.err.contains("TLS with the MQTT broker at 127.0.0.1:\(broker.port) failed (") && result.err.contains("certificate verify failed"),
                "\(result.err)")
    }

    @Test("A wrong password is a refused login naming the broker, exit 1")
    func wrongPassword() async throws {
        let secrets = try await Secrets()
        let broker = try await MQTTBroker(extra: secrets.brokerConfig, anonymous: false)
        let capture = try secrets.dir.drive(epochs: 3)
        let result = try await runTool(GPSFixBinary.url!.path, [
            "serve", "--no-listen", "--replay", capture, "--loop", "--mqtt", "mqtts://van7@127.0.0.1:\(broker.port)/fleet/van7",
            "--mqtt-cafile", "\(secrets.path)/ca.crt", "--mqtt-password-file", "\(secrets.path)/bad.pass"], within: .seconds(10))
        #expect(result.status == 1)
        #expect(result.err.contains("The MQTT broker at 127.0.0.1:\(broker.port) refused the login ("), "\(result.err)")
        #expect(result.err.contains("--mqtt-password-file"))
    }

    @Test("No password reaches stderr or the broker's log: a URL with one is refused masked, a wrong or right one is never printed")
    func passwordNeverShown() async throws {
        let secrets = try await Secrets()
        let broker = try await MQTTBroker(extra: secrets.brokerConfig, anonymous: false)
        let capture = try secrets.dir.drive(epochs: 30)
        var said = ""
        let inURL = try await runTool(GPSFixBinary.url!.path, [
            "serve", "--no-listen", "--replay", capture, "--mqtt", "mqtts://van7:right%20horse@127.0.0.1:\(broker.port)/fleet/van7"],
            within: .seconds(10))
        #expect(inURL.status == 64)
        #expect(inURL.err.contains("mqtts://van7:***@127.0.0.1:\(broker.port)/fleet/van7"), "\(inURL.err)")
        said += inURL.err
        let wrong = try await runTool(GPSFixBinary.url!.path, [
            "serve", "--no-listen", "--replay", capture, "--mqtt", "mqtts://van7@127.0.0.1:\(broker.port)/fleet/van7",
            "--mqtt-cafile", "\(secrets.path)/ca.crt", "--mqtt-password-file", "\(secrets.path)/bad.pass"], within: .seconds(10))
        #expect(wrong.status == 1)
        said += wrong.err
        let serve = try await mqttServe(broker, prefix: "fleet/van7",
                                        ["--replay", capture, "--loop", "--mqtt-cafile", "\(secrets.path)/ca.crt",
                                         "--mqtt-password-file", "\(secrets.path)/good.pass"],
                                        scheme: "mqtts", user: "van7")
        #expect(await waitUntil(.seconds(5)) { serve.stderr.contains("publishing to the mqtts broker") }, "\(serve.stderr)")
        #expect(await serve.stop() == 0)
        said += serve.stderr
        for secret in ["right horse", "right%20horse", "wrong horse"] {
            #expect(!said.contains(secret), "gpsfix printed a password: \(said)")
            #expect(!broker.log.contains(secret), "the broker logged a password: \(broker.log)")
        }
    }

    @Test("A password file that group or others may read is refused, with the chmod that fixes it")
    func openPasswordFileRefused() async throws {
        let secrets = try await Secrets()
        let open = try secrets.dir.write("open.pass", "right horse\n")
        chmod(open, 0o640)
        let result = try await runTool(GPSFixBinary.url!.path, [
            "serve", "--no-listen", "--replay", try secrets.dir.drive(epochs: 3), "--mqtt", "mqtt://van7@127.0.0.1:1/fleet/van7",
            "--mqtt-password-file", open], within: .seconds(10))
        #expect(result.status == 64, "\(result.err)")
        #expect(result.err.contains("may be read or changed by others (mode 640)"), "\(result.err)")
        #expect(result.err.contains("chmod 600 '\(open)'"), "\(result.err)")
        #expect(!result.err.contains("right horse"))
    }

    @Test("The systemd credential gpsfix.mqtt-password in $CREDENTIALS_DIRECTORY logs in")
    func systemdCredential() async throws {
        let secrets = try await Secrets()
        let broker = try await MQTTBroker(extra: secrets.brokerConfig, anonymous: false)
        let credentials = try secrets.dir.makeDirectory("credentials")
        chmod(try secrets.dir.write("credentials/gpsfix.mqtt-password", "right horse"), 0o400)
        let serve = try await GPSFixProcess(
            ["serve", "--no-listen", "--mqtt", "mqtts://van7@127.0.0.1:\(broker.port)/fleet/van7", "--replay",
             try secrets.dir.drive(epochs: 30), "--loop", "--mqtt-cafile", "\(secrets.path)/ca.crt"],
            environment: ["CREDENTIALS_DIRECTORY": credentials], announcement: "to MQTT only; Ctrl-C to stop")
        #expect(await waitUntil(.seconds(5)) { serve.stderr.contains("publishing to the mqtts broker at 127.0.0.1:\(broker.port)") },
                "\(serve.stderr)")
        #expect(await serve.stop() == 0)
    }

    @Test("GPSFIX_MQTT_PASSWORD is used, then gone from the process's environment (/proc/PID/environ)")
    func environmentWiped() async throws {
        let secrets = try await Secrets()
        let broker = try await MQTTBroker(extra: secrets.brokerConfig, anonymous: false)
        let serve = try await GPSFixProcess(
            ["serve", "--no-listen", "--mqtt", "mqtts://van7@127.0.0.1:\(broker.port)/fleet/van7", "--replay",
             try secrets.dir.drive(epochs: 30), "--loop", "--mqtt-cafile", "\(secrets.path)/ca.crt"],
            environment: ["GPSFIX_MQTT_PASSWORD": "right horse"], announcement: "to MQTT only; Ctrl-C to stop")
        #expect(await waitUntil(.seconds(5)) { serve.stderr.contains("publishing to the mqtts broker at 127.0.0.1:\(broker.port)") },
                "\(serve.stderr)")
        let environ = try #require(FileManager.default.contents(atPath: "/proc/\(serve.pid)/environ"))
        let text = String(decoding: environ, as: UTF8.self)
        #expect(text.contains("PATH="), "the environment was read")
        #expect(!text.contains("right horse"))
        #expect(!text.contains("GPSFIX_MQTT_PASSWORD=r"))
        #expect(await serve.stop() == 0)
    }
}
