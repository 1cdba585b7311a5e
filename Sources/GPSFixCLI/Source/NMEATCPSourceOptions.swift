import GPSSources

/// `--nmea-tcp HOST:PORT`: NMEA that a receiver or an app serves over TCP.
enum NMEATCPSourceOptions: SourceOptionKind {
    static let name = "--nmea-tcp"
    static let words = SourceKind.network
    static let recordsBytes = true

    static var options: [OptionSpec] {
        [.value("--nmea-tcp", "HOST:PORT", "Read NMEA that a receiver or app serves over TCP (an RTK board, a phone's NMEA server); reconnects when the stream drops.")
            .among("source")]
    }

    static func manager(_ args: ParsedArguments, _ setting: SourceSetting) throws -> NMEATCPManager {
        try networkStream(args, forwardsSentences: setting.forwardsSentences, waits: setting.waits == .everything)
    }

    /// The receiver or app named with --nmea-tcp (`record` reads it as well).
    static func networkStream(_ args: ParsedArguments, forwardsSentences: Bool = false, waits: Bool = false) throws -> NMEATCPManager {
        guard let text = args[name] else { preconditionFailure("--nmea-tcp was not given") }
        guard let (host, port) = SourceOptions.hostAndPort(text) else {
            throw UsageError(message: "--nmea-tcp takes HOST:PORT (e.g. 192.168.1.20:10110, [fe80::1%eth0]:10110), not '\(text)'")
        }
        let options = NMEATCPManager.Options(waitsForPeer: waits, forwardsSentences: forwardsSentences,
                                             acceptsSimulatedFixes: args.has("--simulated"))
        return NMEATCPManager(host: host, port: port, options: options)
    }
}
