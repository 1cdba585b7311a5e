import GPSLocation
import GPSSources

/// `--device PATH [--baud N]`: a receiver on a serial port, or, with no source named, the first
/// one discovery finds.
enum SerialSourceOptions: SourceOptionKind {
    static let name = "--device"
    static let words = SourceKind.receiver
    static let recordsBytes = true

    static var options: [OptionSpec] {
        [
            .value("--device", "PATH", "The receiver's serial port (default: the first GPS found; see 'gpsfix devices').").completing(.devices)
                .among("source"),
            .value("--baud", "N", "Its baud rate (default: found automatically; USB CDC-ACM ports need none).")
                .completing(.words(Autobaud.rates.map(String.init))).inside("--device"),
        ]
    }

    static func manager(_ args: ParsedArguments, _ setting: SourceSetting) throws -> SerialNMEAManager {
        try serial(args, forwardsSentences: setting.forwardsSentences, waits: setting.waits != .never)
    }

    static func refuseIdleOptions(_ args: ParsedArguments, reads: [String]) throws(UsageError) {
        if let baud = args["--baud"] {
            throw UsageError(message: "--baud \(baud) sets a serial port's rate: it needs --device PATH (\(reads.joined(separator: " and ")) \(reads.count == 1 ? "has" : "have") no line rate)")
        }
    }

    /// The receiver named with --device, or the first one discovery finds (`record` reads it as well).
    static func serial(_ args: ParsedArguments, forwardsSentences: Bool = false, waits: Bool = false) throws -> SerialNMEAManager {
        let options = SerialNMEAManager.Options(baud: try SourceOptions.baud(args), waitsForDevice: waits,
                                                forwardsSentences: forwardsSentences, acceptsSimulatedFixes: args.has("--simulated"))
        if let path = args["--device"] { return SerialNMEAManager(path: path, options: options) }
        // Waiting for a receiver to be plugged in, it reads the first one then.
        if waits { return SerialNMEAManager(discovering: options) }
        guard let device = DeviceDiscovery.candidates().first else {
            throw LocationError.deviceNotFound(searched: DeviceDiscovery.searchedLocations())
        }
        return SerialNMEAManager(path: device.path, options: options)
    }
}
