import GPSLocation
import GPSSources

/// Builds the manager that the options name. Everything after this sees only the protocol.
enum SourceOptions {
    static func manager(_ args: ParsedArguments, defaultSpeed: ReplayManager.Speed, forwardsSentences: Bool = false) throws -> any LocationManagerInterface {
        guard let path = args["--replay"] else {
            throw UsageError(message: "no source given. Name a capture with --replay FILE (for example Captures/drive-1hz.nmea); reading a receiver directly (--device) and gpsd (--gpsd) are not built yet")
        }
        return ReplayManager(path: path, speed: try speed(args, default: defaultSpeed), loop: args.has("--loop"), forwardsSentences: forwardsSentences)
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
