import GPSSources

/// `--replay FILE [--speed X|max] [--loop]`: a recorded capture, a pipe or standard input.
enum ReplaySourceOptions: SourceOptionKind {
    static let name = "--replay"
    static let words = SourceKind.capture

    static var options: [OptionSpec] {
        [
            .value("--replay", "FILE", "Read a recorded capture (gpsfake format) instead of a receiver; '-' reads standard input, and a pipe or FIFO is replayed as it arrives.")
                .among("source"),
            .value("--speed", "X|max", "Replay at X times the capture's own pace, or as fast as possible (default 1; for fix: max).").inside("--replay"),
            .flag("--loop", "Start the capture again when it ends (a file only: a pipe or FIFO is read once).").inside("--replay"),
        ]
    }

    static func manager(_ args: ParsedArguments, _ setting: SourceSetting) throws -> ReplayManager {
        guard let path = args[name] else { preconditionFailure("--replay was not given") }
        let manager = ReplayManager(path: path, speed: try SourceOptions.speed(args, default: setting.defaultSpeed), loop: args.has("--loop"),
                                    forwardsSentences: setting.forwardsSentences, acceptsSimulatedFixes: setting.acceptsSimulatedFixes)
        if manager.loop && manager.readsLiveInput {
            throw UsageError(message: "--loop needs a file: \(manager.sourceDescription) is a pipe or FIFO, read once as it arrives. Save it to a file (e.g. 'gpspipe -r > capture.nmea') and loop that")
        }
        return manager
    }

    static func refuseIdleOptions(_ args: ParsedArguments, reads: [String]) throws(UsageError) {
        for option in ["--speed", "--loop"] where args[option] != nil || args.has(option) {
            throw UsageError(message: "\(option) paces or repeats a capture: it needs --replay FILE (\(reads.joined(separator: " and ")) \(reads.count == 1 ? "is" : "are") read as the data arrives)")
        }
    }
}
