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
        guard let factor = Double(text), factor > 0, factor.isFinite else {
            throw UsageError(message: "--speed takes a positive number or 'max', not '\(text)'")
        }
        return .factor(factor)
    }

    static func seconds(_ args: ParsedArguments, _ name: String, default value: Double) throws(UsageError) -> Double {
        guard let text = args[name] else { return value }
        guard let s = Double(text), s > 0, s.isFinite else {
            throw UsageError(message: "\(name) takes a positive number of seconds, not '\(text)'")
        }
        return s
    }
}
