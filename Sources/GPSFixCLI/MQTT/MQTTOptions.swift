import GPSSystem
import GPSMQTT

/// The command line's side of MQTT: the options, the broker settings they make (the password
/// from a file or the environment, never from the command line), and advice on failures.
enum MQTTOptions {
    /// What `serve` and `watch` share: how to reach the broker.
    static let connection: [OptionSpec] = [
        .value("--mqtt-cafile", "FILE", "With mqtts://, the CA certificate that signed the broker's (default: the system's CAs)."),
        .value("--mqtt-cert", "FILE", "With mqtts://, a client certificate for brokers that ask for one (with --mqtt-key)."),
        .value("--mqtt-key", "FILE", "The client certificate's private key."),
        .value("--mqtt-password-file", "FILE", "Read the broker password from FILE (its first line; mode 600); or the systemd credential gpsfix.mqtt-password, or GPSFIX_MQTT_PASSWORD. Never on the command line."),
        .value("--mqtt-client-id", "ID", "The MQTT client id (default: gpsfix-HOSTNAME-PREFIX)."),
    ]

    static let serve: [OptionSpec] = [
        .value("--mqtt", "URL", "Also publish gpsd JSON to a broker: mqtt://[USER@]HOST[:PORT]/PREFIX or mqtts://… (PREFIX/tpv retained, PREFIX/sky, PREFIX/att, PREFIX/status online/offline)."),
        .value("--mqtt-qos", "0|1", "QoS of what is published (default 0). At 1, up to \(MQTTClient.defaultQueueCapacity) reports are kept while the broker is away."),
        .flag("--mqtt-homeassistant", "Publish a Home Assistant discovery config: the receiver appears as a device_tracker."),
        .value("--mqtt-in", "URL", "Re-serve a fleet from a broker over gpsd's protocol, one device per publisher: mqtt://[USER@]HOST[:PORT]/PREFIX, wildcards allowed (fleet/+)."),
        maxVehiclesOption,
    ] + connection

    static let watch: [OptionSpec] = [
        .value("--mqtt", "URL", "Read what 'gpsfix serve --mqtt' publishes: mqtt://[USER@]HOST[:PORT]/PREFIX; wildcards read a fleet (fleet/+)."),
        maxVehiclesOption,
    ] + connection

    static let maxVehiclesOption = OptionSpec.value(
        "--mqtt-max-vehicles", "N",
        "Vehicles of a fleet known at once (default \(FleetLimits.defaultMaxVehicles)); reports from more are refused until one is forgotten (offline or silent 10 min).")

    /// The fleet's limits, with `--mqtt-max-vehicles` when given.
    static func fleetLimits(_ args: ParsedArguments) throws(UsageError) -> FleetLimits {
        var limits = FleetLimits()
        guard let text = args["--mqtt-max-vehicles"] else { return limits }
        guard let n = Int(text), n >= 1, n <= FleetLimits.largestMaxVehicles else {
            throw UsageError(message: "--mqtt-max-vehicles takes a number of vehicles from 1 to \(FleetLimits.largestMaxVehicles), not '\(text)'")
        }
        limits.maxVehicles = n
        return limits
    }

    static func address(_ args: ParsedArguments, _ option: String = "--mqtt") throws(UsageError) -> MQTTAddress? {
        guard let text = args[option] else { return nil }
        do {
            return try MQTTAddress(parsing: text)
        } catch {
            throw UsageError(message: "\(option): \(error.description). It takes mqtt://[USER@]HOST[:PORT]/PREFIX or mqtts://…")
        }
    }

    /// The broker settings for `address`; the options that need mqtts:// refused without it.
    static func settings(_ args: ParsedArguments, _ address: MQTTAddress) throws(UsageError) -> MQTTSettings {
        var settings = MQTTSettings(host: address.host, port: address.port,
                                    clientID: args["--mqtt-client-id"] ?? defaultClientID(prefix: address.prefix))
        guard !settings.clientID.isEmpty, settings.clientID.utf8.count <= 65535 else {
            throw UsageError(message: "--mqtt-client-id takes a non-empty id")
        }
        settings.username = address.username
        settings.password = try password(args)
        if settings.password != nil && settings.username == nil {
            throw UsageError(message: "a broker password needs a user name: mqtt://USER@HOST/PREFIX")
        }
        let tlsOptions = ["--mqtt-cafile", "--mqtt-cert", "--mqtt-key"].filter { args[$0] != nil }
        if address.usesTLS {
            guard (args["--mqtt-cert"] == nil) == (args["--mqtt-key"] == nil) else {
                throw UsageError(message: "--mqtt-cert and --mqtt-key go together")
            }
            settings.tls = MQTTSettings.TLS(caFile: args["--mqtt-cafile"], certFile: args["--mqtt-cert"], keyFile: args["--mqtt-key"])
        } else if !tlsOptions.isEmpty {
            throw UsageError(message: "\(tlsOptions.joined(separator: " and ")) need TLS: use mqtts://")
        }
        return settings
    }

    /// The password, from where `MQTTPassword` says, or none.
    static func password(_ args: ParsedArguments) throws(UsageError) -> String? {
        try MQTTPassword.read(file: args["--mqtt-password-file"])
    }

    /// `gpsfix-HOSTNAME-PREFIX` (GPSMQTT's `MQTTSettings.defaultClientID`).
    static func defaultClientID(prefix: String) -> String { MQTTSettings.defaultClientID(prefix: prefix) }

    static func qos(_ args: ParsedArguments) throws(UsageError) -> Int {
        guard let text = args["--mqtt-qos"] else { return 0 }
        guard let qos = Int(text), qos == 0 || qos == 1 else {
            throw UsageError(message: "--mqtt-qos takes 0 or 1, not '\(text)'")
        }
        return qos
    }

    /// What to do about `error`, after what happened.
    static func message(for error: MQTTError) -> String {
        let advice: String? = switch error {
        case .loginRefused: "Check the user name in the URL and the password (--mqtt-password-file, the credential gpsfix.mqtt-password or GPSFIX_MQTT_PASSWORD)."
        // The broker wants to know who connects: a certificate of the client's own.
        case .tlsFailed(_, let reason) where reason.contains("certificate required"):
            "The broker asks for a client certificate: give it with --mqtt-cert FILE and --mqtt-key FILE."
        case .tlsFailed: "Check --mqtt-cafile (the CA that signed the broker's certificate), that the URL's host is the name in that certificate, and that the port speaks TLS."
        case .connectionRefused: "Check the client id (--mqtt-client-id) and the broker's version: reading a fleet (--mqtt-in, watch --mqtt) needs MQTT 5 (Mosquitto 1.6 or later), publishing MQTT 3.1.1."
        default: nil
        }
        return advice.map { error.description + " " + $0 } ?? error.description
    }
}
