import GPSGpsd

/// `--gpsd [HOST[:PORT]]`: a running gpsd, read as one of its clients.
enum GpsdSourceOptions: SourceOptionKind {
    static let name = "--gpsd"
    static let words = SourceKind.gpsd

    static var options: [OptionSpec] {
        [.optionalValue("--gpsd", "[HOST[:PORT]]", "Read through a running gpsd (default 127.0.0.1:2947).").among("source")]
    }

    static func manager(_ args: ParsedArguments, _ setting: SourceSetting) throws -> GpsdManager {
        guard !setting.acceptsSimulatedFixes else {
            throw UsageError(message: "--simulated is for sentences gpsfix reads itself (--device, --replay); gpsd decides for its own clients")
        }
        let (host, port) = try SourceOptions.gpsdAddress(args[name] ?? "")
        return GpsdManager(host: host, port: port, forwardsSentences: setting.forwardsSentences, waitsForGpsd: setting.waits == .everything)
    }
}
