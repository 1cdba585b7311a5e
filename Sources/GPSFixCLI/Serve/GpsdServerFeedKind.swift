import GPSLocation
import GPSServer
import GPSSystem

/// `serve`'s gpsd server (`--listen`, `--client-timeout`, `--max-clients-per-address`, on
/// the sockets a service manager passed when it did) and the bare NMEA it serves beside
/// (`--nmea-listen`, `--nmea-udp`): GPSServer's `GpsdFeed`, or, for `--mqtt-in`, a fleet's
/// feed over it. Its options are judged before any source is made.
struct GpsdServerFeedKind: ServeFeedKind {
    static var options: [OptionSpec] {
        [
            .value("--listen", "[ADDR:]PORT", "Where to listen (default 127.0.0.1:2947): a port alone is on loopback, an address alone keeps port 2947. Another address than loopback opens the feed to the network."),
            // The outlets are every feed's, so that a new feed that serves on its own is named here too.
            .flag("--no-listen", "Do not serve gpsd's protocol on a port: serve only what \(spoken(ServeFeeds.outlets)) name."),
            .value("--client-timeout", "S", "Disconnect a watcher that reads nothing it is sent for S seconds (default 15). As in gpsd, a client that asks nothing goes after 60 s, and a poller 15 minutes after its last request."),
            .value("--max-clients-per-address", "N", "Serve at most N clients at once from one address (default 64; this machine's clients all come from 127.0.0.1 or ::1), of the 200 in all. Past it, or past 200, a newcomer takes the place of the client idle longest, if that has sent and received nothing for 10 s, and is refused otherwise."),
        ].placed(among: ["--listen": "listen", "--no-listen": "listen"]) + NMEAFeedOptions.options + HTTPFeedOptions.options
    }

    static let outlets = NMEAFeedOptions.options.map(\.name) + ["--http"]

    /// The options that only gpsd's listener uses.
    private static let listenerOptions = ["--listen", "--client-timeout", "--max-clients-per-address"]

    let configuration: ServerConfiguration
    let listens: Bool
    let passed: PassedSockets?

    init(_ args: ParsedArguments, _ setting: ServeSetting) throws {
        listens = setting.listens
        passed = setting.passed
        if !setting.listens {
            let stray = Self.listenerOptions.filter { args[$0] != nil }
            if !stray.isEmpty { throw UsageError(message: "\(stray.joined(separator: " and ")) are for the listener, which --no-listen turns off") }
            if setting.passed != nil {
                throw UsageError(message: "--no-listen: the service manager passed sockets to listen on (LISTEN_FDS); run without the socket unit, or without --no-listen")
            }
        }
        var configuration = ServerConfiguration(release: "gpsfix \(GPSFixCLI.version)")
        if let text = args["--listen"] {
            guard setting.passed == nil else {
                throw UsageError(message: "--listen \(text): the service manager passed the sockets to listen on (LISTEN_FDS); set the address in the socket unit (ListenStream= in gpsfix.socket) instead")
            }
            guard let address = ListenAddress(parsing: text) else {
                throw UsageError(message: "--listen takes [ADDR:]PORT, a port from 0 to 65535 on an IP address or a host name (e.g. 2948, 127.0.0.1:2947, 0.0.0.0:2947, [::1]:2947), not '\(text)'")
            }
            configuration.address = address
        }
        if args["--client-timeout"] != nil {
            let seconds = try SourceOptions.seconds(args, "--client-timeout", default: 15)
            configuration.clientTimeout = .nanoseconds(Int64((seconds * 1e9).rounded()))
        }
        if let perAddress = try SourceOptions.count(args, "--max-clients-per-address") { configuration.maxClientsPerAddress = perAddress }
        try NMEAFeedOptions.apply(args, to: &configuration)
        try HTTPFeedOptions.apply(args, to: &configuration)
        self.configuration = configuration
    }

    /// The server's loop runs for gpsd's clients, or for NMEA's or the web page's alone.
    var servesSentences: Bool {
        listens || configuration.nmeaAddress != nil || configuration.nmeaDatagramAddress != nil || configuration.httpAddress != nil
    }

    func make(_ context: inout ServeContext) throws -> ServeFeed? {
        guard servesSentences else { return nil }
        let devices = context.fleet == nil
            ? context.sources.map { DeviceDescription(path: $0.sourceDescription, bps: $0.reception?.baud) } : []
        let server = try makeServer(devices: devices, log: context.note)
        if server.httpAddress != nil { context.pageServer = server }
        let addresses = server.addresses.map(\.description).joined(separator: " and ")
        let warnings = server.exposed.map(Self.exposure)
        if let fleet = context.fleet {
            return ServeFeed(MQTTFleetIn.Feed(fleet, server: server.feed(heartbeat: context.heartbeat), note: context.note),
                             headline: "serving gpsd's protocol on \(addresses) from \(fleet.sourceDescription), one device per publisher",
                             afterword: warnings)
        }
        let origin = passed == nil ? "" : " (sockets passed by the service manager)"
        // The time feed after it sends its PPS and TOFF reports here.
        if listens { context.gpsdServer = server }
        let headline = listens
            ? "serving gpsd's protocol on \(addresses)\(origin) from \(context.sourceNames)"
            : "serving \(context.sourceNames) as \(configuration.httpAddress == nil ? "NMEA" : configuration.nmeaAddress == nil && configuration.nmeaDatagramAddress == nil ? "the web page" : "NMEA and the web page") only (--no-listen)"
        return ServeFeed(server.feed(heartbeat: context.heartbeat), preamble: nmeaLines(server), headline: headline, afterword: warnings)
    }

    /// The server on the sockets the service manager passed, or on its own; what cannot be
    /// listened on is said with what to change.
    private func makeServer(devices: [DeviceDescription], log: @escaping @Sendable (String) -> Void) throws -> GpsdServer {
        do throws(ServerError) {
            if !listens { return try GpsdServer(nmeaOnly: configuration, devices: devices, log: log) }
            if let passed {
                return try GpsdServer(configuration: configuration, listeningOn: passed.descriptors, devices: devices, log: log)
            }
            return try GpsdServer(configuration: configuration, devices: devices, log: log)
        } catch .notAListeningSocket(let descriptor, let reason) {
            let error = ServerError.notAListeningSocket(descriptor: descriptor, reason: reason)
            throw ServiceManagerFailure(description: "\(error) gpsfix serve speaks gpsd's protocol over TCP: its socket unit needs ListenStream=ADDRESS:PORT lines only (gpsfix.socket has ListenStream=127.0.0.1:2947).")
        } catch {
            throw ServeStartFailure(error, configuration)
        }
    }

    /// Where the bare sentences go, before the line that says the server is up.
    private func nmeaLines(_ server: GpsdServer) -> [String] {
        var lines: [String] = []
        if let address = server.nmeaAddress {
            lines.append("serving NMEA sentences on \(address) (TCP)")
            if !server.nmeaIsLoopback { lines.append(Self.exposure(address)) }
        }
        if let target = server.configuration.nmeaDatagramAddress {
            lines.append("sending NMEA sentences to \(target) (UDP, one datagram each)")
        }
        if let address = server.httpAddress {
            lines.append("serving the web page on http://\(address)/ (and /events, /api/now, /metrics)")
            if !server.httpIsLoopback { lines.append(Self.exposure(address)) }
        }
        return lines
    }

    private static func exposure(_ address: ListenAddress) -> String {
        "WARNING: \(address) is not loopback: anyone who can reach this machine on port \(address.port) can read its position."
    }
}

/// "a", "a or b", "a, b or c".
private func spoken(_ words: [String]) -> String {
    guard words.count > 1 else { return words.first ?? "" }
    return words.dropLast().joined(separator: ", ") + " or " + words.last!
}

/// What the service manager passed cannot be used: exit 1, with what to change.
struct ServiceManagerFailure: Error, CustomStringConvertible {
    let description: String
}
