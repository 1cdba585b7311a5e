import GPSLocation
import GPSSources

/// Builds the manager that the options name. Everything after this sees only the protocol.
enum SourceOptions {
    static func manager(_ args: ParsedArguments, defaultSpeed: ReplayManager.Speed, forwardsSentences: Bool = false) throws -> any LocationManagerInterface {
        if let path = args["--replay"] {
            guard args["--device"] == nil else { throw UsageError(message: "--replay and --device are two sources: choose one") }
            return ReplayManager(path: path, speed: try speed(args, default: defaultSpeed), loop: args.has("--loop"), forwardsSentences: forwardsSentences)
        }
        return try serial(args, forwardsSentences: forwardsSentences)
    }

    /// The receiver named with --device, or the first one discovery finds.
    static func serial(_ args: ParsedArguments, forwardsSentences: Bool = false) throws -> SerialNMEAManager {
        let options = SerialNMEAManager.Options(baud: try baud(args), forwardsSentences: forwardsSentences)
        if let path = args["--device"] { return SerialNMEAManager(path: path, options: options) }
        guard let device = DeviceDiscovery.candidates().first else {
            throw LocationError.deviceNotFound(searched: DeviceDiscovery.searchedLocations())
        }
        return SerialNMEAManager(path: device.path, options: options)
    }

    static func baud(_ args: ParsedArguments) throws(UsageError) -> Int? {
        guard let text = args["--baud"] else { return nil }
        guard let rate = Int(text), Autobaud.rates.contains(rate) else {
            let rates = Autobaud.rates.map(String.init).joined(separator: ", ")
            throw UsageError(message: "--baud takes one of \(rates), not '\(text)'")
        }
        return rate
    }

    static func speed(_ args: ParsedArguments, default value: ReplayManager.Speed) throws(UsageError) -> ReplayManager.Speed {
        guard let text = args["--speed"] else { return value }
        if text == "max" { return .maximum }
        // Beyond these a replay is either frozen or indistinguishable from 'max'.
        guard let factor = Double(text), factor >= 0.001, factor <= 1_000_000 else {
            throw UsageError(message: "--speed takes a number from 0.001 to 1000000, or 'max', not '\(text)'")
        }
        return .factor(factor)
    }

    static func seconds(_ args: ParsedArguments, _ name: String, default value: Double) throws(UsageError) -> Double {
        guard let text = args[name] else { return value }
        guard let s = Double(text), s > 0, s <= 1_000_000 else {
            throw UsageError(message: "\(name) takes a number of seconds above 0 and up to 1000000, not '\(text)'")
        }
        return s
    }
}
