public import GPSLocation
import GPSSources
import Synchronization

/// Reads fixes from a running gpsd, so that a machine's shared receiver is a source like any
/// other. Decoding is libgps's (`gps_unpack`, through `CGPS`); the socket is gpsfix's own.
///
/// A dedicated thread connects, asks gpsd for its reports (`?WATCH={"enable":true,"json":true}`)
/// and reads them line by line in `poll`, beside its run's wake-up: a stop, a silent gpsd and
/// a peer that never ends a line are each noticed within a moment, whatever the peer sends.
/// Each line is judged first (`GpsdLine`): libgps parses only TPV and SKY reports that gpsfix
/// wrote again from checked values; anything else is counted (`linesRejected`) and skipped.
/// TPV reports become fixes, SKY reports sky views (one entry per satellite). gpsd going away or
/// going silent for `watchdog` seconds (a stopped gpsd gives no error at all) is a status,
/// `.disconnected`, followed by `.reconnecting` with bounded back-off and `.streaming` once
/// reports flow again. A gpsd that cannot be reached at start is a failure
/// (`.gpsdUnavailable`), reported at once, unless `waitsForGpsd`.
public final class GpsdManager: LocationManagerInterface {
    /// The host gpsd listens on: a name (resolved at each connection) or an IPv4 or IPv6
    /// address.
    public let host: String
    /// gpsd's TCP port, 2947 by default.
    public let port: Int
    /// How long without any usable line from gpsd before the connection counts as lost.
    public let watchdog: Duration
    /// Whether to reconnect after gpsd went away, once it had been reached.
    public let reconnect: Bool
    /// Whether to ask gpsd for the receiver's sentences too ("nmea" in the watch) and pass
    /// them on through `didReceiveSentence`, for `--nmea` and for `serve`'s NMEA watchers.
    public let forwardsSentences: Bool
    /// Whether a gpsd not reachable at start is waited for (`.waiting`, then tried again with
    /// back-off: a service started before gpsd), rather than a failure.
    public let waitsForGpsd: Bool

    let relay = DelegateRelay()
    let runs = SourceRuns(name: "gpsfix-gpsd")
    let rejected = Atomic<Int>(0)

    /// A manager for the gpsd at `host`:`port`; nothing is connected until
    /// ``startUpdatingLocation()``. `watchdog` is the silence that counts as lost (see ``watchdog``); `reconnect`,
    /// `forwardsSentences` and `waitsForGpsd` are the properties of those names.
    public init(host: String = "127.0.0.1", port: Int = 2947, watchdog: Duration = .seconds(5), reconnect: Bool = true,
                forwardsSentences: Bool = false, waitsForGpsd: Bool = false) {
        self.host = host
        self.port = port
        self.watchdog = watchdog
        self.reconnect = reconnect
        self.forwardsSentences = forwardsSentences
        self.waitsForGpsd = waitsForGpsd
    }

    /// Told of every fix, sky view, status, sentence and failure, on the manager's thread, in
    /// order; nothing follows a failure. Held weakly, as CoreLocation's delegate is: keep it
    /// alive yourself, and set it before ``startUpdatingLocation()`` to hear the run from its
    /// start.
    public var delegate: (any LocationManagerDelegate)? {
        get { relay.delegate }
        set { relay.delegate = newValue }
    }

    public var sourceDescription: String { "gpsd at \(host):\(port)" }

    /// Lines from gpsd that were not gpsd reports (not JSON, a TPV or SKY of the wrong shape,
    /// longer than any report), skipped since this manager was made.
    public var linesRejected: Int { rejected.load(ordering: .relaxed) }

    /// Connects to gpsd on a thread of its own and reports from there until stopped, or until
    /// gpsd is lost for good (a failure); a call while a run is under way does nothing. Returns
    /// at once: an unreachable gpsd is reported to the delegate, not thrown.
    public func startUpdatingLocation() {
        runs.start { [self] run in
            GpsdSession(manager: self, reporter: RunReporter(manager: self, relay: relay, runs: runs, run: run)).main()
        }
    }

    /// Ends the run: it stops reporting at once, and its thread closes the socket as it leaves.
    /// Does nothing when no run is under way.
    public func stopUpdatingLocation() {
        runs.stop()
    }
}
