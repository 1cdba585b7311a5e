import GPSLocation
import GPSMQTT
import GPSServer
import GPSSystem

/// One kind of feed `serve` can run, as its options ask for it. A new feed is a type of this
/// kind in a file of its own (its options, and the `LocationFeed` it builds) and one line in
/// `ServeFeeds.all`: `serve`'s option table, its help, man page and completions, and
/// `--no-listen`'s list of outlets follow from that line.
protocol ServeFeedKind: Sendable {
    /// Its options, as `serve --help` shows them (after the sources', in `ServeFeeds.all`'s order).
    static var options: [OptionSpec] { get }
    /// Those of its options that send the fixes somewhere without gpsd's listener (`--mqtt`,
    /// `--nmea-udp`): any one of them is something to serve with `--no-listen`.
    static var outlets: [String] { get }
    /// Judges its options, before any source or feed is made: a usage error is said before
    /// anything is opened.
    init(_ args: ParsedArguments, _ setting: ServeSetting) throws
    /// Whether its feed serves each sentence (to clients that watch with "nmea"): the
    /// sources then forward them.
    var servesSentences: Bool { get }
    /// Builds its feed, once the sources are made, in `ServeFeeds.all`'s order; nil when the
    /// options ask for none. May leave something for the kinds after it in `context` (the
    /// service manager's heartbeat, for the server's loop).
    func make(_ context: inout ServeContext) throws -> ServeFeed?
}

extension ServeFeedKind {
    static var options: [OptionSpec] { [] }
    static var outlets: [String] { [] }
    var servesSentences: Bool { false }
}

/// The feeds `serve` knows, in the order they are built, started and told each event (and
/// stopped in reverse), and in which `serve --help` shows their options. A kind that leaves
/// something for another in `ServeContext` comes before it (the service manager's heartbeat,
/// for the server's loop). Every kind judges its options when it is made from them, before
/// any source or feed is, so the server binding its port first refuses nothing.
enum ServeFeeds {
    static let all: [any ServeFeedKind.Type] = [
        ServiceManagerFeedKind.self,
        GpsdServerFeedKind.self,
        TimeFeedOptions.self,
        MQTTServe.self,
        ServeNotes.self,
    ]

    /// `serve`'s own options: every kind's, in the order of `all`.
    static var options: [OptionSpec] { all.flatMap { $0.options } }

    /// The options that serve something without gpsd's listener, in the order of `all`.
    static var outlets: [String] { all.flatMap { $0.outlets } }
}

/// What every kind may read before the sources are made.
struct ServeSetting {
    /// Whether gpsd's listener is on (no `--no-listen`).
    let listens: Bool
    /// The listening sockets a service manager passed, if it did.
    let passed: PassedSockets?
}

/// What the kinds build their feeds from.
struct ServeContext {
    let args: ParsedArguments
    let terminal: Terminal
    let setting: ServeSetting
    /// The sources' managers, in the relay's order (a source's index is its device).
    let sources: [any LocationManagerInterface]
    /// `--mqtt-in`'s reader, the one source, when serving a fleet.
    let fleet: MQTTManager?
    /// systemd's notification socket, when `serve` runs under it.
    let notifier: ServiceNotifier?
    /// Whether a server's loop runs (for gpsd's clients or NMEA's).
    let runsServer: Bool
    /// Called from the server's loop, when a feed before it asked (the watchdog's pings).
    var heartbeat: Heartbeat?
    /// The gpsd server, once made (for gpsd's clients, not a fleet's): the time feed after it
    /// sends it PPS and TOFF reports.
    var gpsdServer: GpsdServer?
    /// The server, when it serves the web page (`--http`): a feed after it adds its metrics
    /// there (`addMetrics`), read at each scrape of `/metrics`.
    var pageServer: GpsdServer?

    var several: Bool { sources.count > 1 }
    /// The sources' names, as the line that says serving has begun lists them.
    var sourceNames: String { sources.map(\.sourceDescription).joined(separator: ", ") }

    /// A line on stderr, as written (with its own "gpsfix: ").
    var note: @Sendable (String) -> Void {
        let terminal = terminal
        return { terminal.note($0) }
    }
}

/// A feed built for `serve`, with what is said of it as serving begins.
struct ServeFeed {
    let feed: any LocationFeed
    /// Said before the line that says serving has begun (without "gpsfix: ").
    var preamble: [String] = []
    /// Where it sends the fixes, for that line when no server runs ("MQTT").
    var outlet: String?
    /// That line, when this feed is the one that says it (the server's).
    var headline: String?
    /// Said after it: warnings.
    var afterword: [String] = []

    init(_ feed: any LocationFeed, preamble: [String] = [], outlet: String? = nil, headline: String? = nil,
         afterword: [String] = []) {
        self.feed = feed
        self.preamble = preamble
        self.outlet = outlet
        self.headline = headline
        self.afterword = afterword
    }
}
