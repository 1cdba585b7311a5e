import GPSServer

/// `serve --nmea-listen [ADDR:]PORT` and `--nmea-udp HOST:PORT`: where the bare sentences go,
/// besides gpsd's protocol. Both need a port: NMEA has no default one of its own in gpsfix,
/// only a convention (10110) the user names.
enum NMEAFeedOptions {
    static let options: [OptionSpec] = [
        .value("--nmea-listen", "[ADDR:]PORT", "Also serve every sentence, as received with CR LF, to each TCP client on PORT (10110 by convention; loopback unless ADDR says otherwise)."),
        .value("--nmea-udp", "HOST:PORT", "Also send every sentence as one UDP datagram to HOST:PORT (a broadcast address reaches a whole network)."),
    ]

    static func apply(_ args: ParsedArguments, to configuration: inout ServerConfiguration) throws(UsageError) {
        if let text = args["--nmea-listen"] {
            guard let address = listening(text) else {
                throw UsageError(message: "--nmea-listen takes [ADDR:]PORT (e.g. 10110, :10110, 0.0.0.0:10110, [::1]:10110), not '\(text)'")
            }
            configuration.nmeaAddress = address
        }
        if let text = args["--nmea-udp"] {
            guard let address = address(text), address.port != 0 else {
                throw UsageError(message: "--nmea-udp takes HOST:PORT (e.g. 127.0.0.1:10110, 192.168.1.255:10110 to broadcast), not '\(text)'")
            }
            configuration.nmeaDatagramAddress = address
        }
    }

    /// Where to listen, as `--nmea-listen` and `--http` take it: a port alone is loopback, as
    /// `:PORT` is; an address needs its port.
    static func listening(_ text: String) -> ListenAddress? {
        address(text.allSatisfy(\.isASCIIDigit) ? ":" + text : text)
    }

    /// `ListenAddress`'s forms, with the port required (it would otherwise be gpsd's 2947).
    private static func address(_ text: String) -> ListenAddress? {
        let afterHost = text.lastIndex(of: "]").map { text[$0...] } ?? text[...]
        guard afterHost.contains(":") else { return nil }
        return ListenAddress(parsing: text)
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
