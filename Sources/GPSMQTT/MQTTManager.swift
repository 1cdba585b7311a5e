public import GPSLocation
import GPSSources
import GPSSystem
import NMEA
import Synchronization

/// A source that reads what `gpsfix serve --mqtt` (or anything publishing gpsd JSON) puts on a
/// broker: `PREFIX/tpv` as fixes, `PREFIX/sky` as sky views, `PREFIX/status` (`online`,
/// `offline`) as the source's state. The prefix may hold MQTT wildcards (`fleet/+`): then
/// every publisher under it is read, and `labelOfEventInHand` says whose each report is.
///
/// Its runs are `SourceRuns`', as every source's are: the client serves the broker on the
/// run's thread, and events are told there, in order, through a `RunReporter` (nothing after a
/// stop; a failed run released before it is told). A broker that
/// cannot be reached at the start is a failure, unless `waitsForBroker`; one lost later is
/// `.disconnected`, then `.reconnecting` until it is back.
///
/// Everything under the prefix comes from whoever may publish there, so a fleet is held to
/// `limits` (`FleetLimits`: how many vehicles, how long a name, how many reports a second,
/// when a quiet one is forgotten), and the broker is asked (MQTT 5's Maximum Packet Size)
/// never to send a packet over `maximumPacketSize`: a larger report is dropped by the broker,
/// never read into memory here. What is refused or forgotten is told to `onFleetNews`.
public final class MQTTManager: LocationManagerInterface {
    /// The broker and login it reads from, subscribed to `prefix`'s `tpv`, `sky` and `status`
    /// (or to `prefix` itself when it ends in `#`) at QoS 1, MQTT 5 with a Maximum Packet Size
    /// of ``maximumPacketSize`` unless the caller set one.
    public let settings: MQTTSettings
    /// The topic levels the reports come under, without the slashes around them: `gps/car`
    /// for one receiver, `fleet/+` (or `fleet/#`) for a fleet, each match a vehicle.
    public let prefix: String
    /// Whether a broker that cannot be reached at the start is waited for (told once as
    /// `.waiting`, then retried) rather than failing the run with `.streamUnavailable`: for a
    /// service that may come up before its broker.
    public let waitsForBroker: Bool
    /// What a fleet under a wildcard `prefix` may cost: vehicles known at once, name length,
    /// reports a second, when a quiet one is forgotten.
    public let limits: FleetLimits

    /// The largest packet the broker may send: a report as large as the JSON reader takes
    /// (64 KiB), with room for its topic and MQTT's headers.
    public static let maximumPacketSize = JSONValue.maximumSize + 4096

    private let relay = DelegateRelay()
    private let runs = SourceRuns(name: "gpsfix-mqtt")
    /// The client of the run under way, for a stop to end: its loop waits on its own wake-up;
    /// and the run's thread, where a stop (from an event's handler) cannot wait for its end.
    private let client = Mutex<(client: MQTTClient, thread: ThreadIdentity)?>(nil)
    private let label = Mutex<String?>(nil)
    /// The handler, boxed: a closure kept directly in a `Mutex` is re-wrapped in a thunk by
    /// every `withLock` (its inout write-back), so each call went one thunk deeper, and
    /// 36,000 refusals took 20 s.
    private final class NewsHandler: Sendable {
        let call: @Sendable (FleetNews) -> Void
        init(_ call: @escaping @Sendable (FleetNews) -> Void) { self.call = call }
    }
    private let fleetNews = Mutex<NewsHandler?>(nil)

    /// `settings` without subscriptions: the manager subscribes under `prefix`.
    public init(settings: MQTTSettings, prefix: String, waitsForBroker: Bool = false, limits: FleetLimits = FleetLimits()) {
        var settings = settings
        // '#' may only end a filter: `fleet/#` is subscribed as it is, and other leaves ignored.
        settings.subscriptions = prefix.hasSuffix("#") ? [prefix] : ["tpv", "sky", "status"].map { prefix + "/" + $0 }
        settings.subscriptionQoS = 1
        settings.maximumPacketSize = settings.maximumPacketSize ?? Self.maximumPacketSize
        self.settings = settings
        self.prefix = prefix
        self.waitsForBroker = waitsForBroker
        self.limits = limits
    }

    public var delegate: (any LocationManagerDelegate)? {
        get { relay.delegate }
        set { relay.delegate = newValue }
    }

    /// Told, on the client's thread, what was refused or forgotten, and a tick a second while
    /// connected, or one per retry while the broker is away (for counts a log holds back).
    /// Set before the start.
    public var onFleetNews: (@Sendable (FleetNews) -> Void)? {
        get { fleetNews.withLock { $0 }?.call }
        set { fleetNews.withLock { $0 = newValue.map(NewsHandler.init) } }
    }

    public var sourceDescription: String { "MQTT broker at \(settings.broker), \(prefix)/" }

    /// Which publisher the event being delivered came from (the topic levels the prefix's
    /// wildcards matched: `van7` under `fleet/+`), read on the source's thread while the
    /// delegate is called; nil without wildcards.
    public var labelOfEventInHand: String? { label.withLock { $0 } }

    public func startUpdatingLocation() {
        runs.start { [self] run in
            let reporter = RunReporter(manager: self, relay: relay, runs: runs, run: run)
            let seen = Seen(limits: limits)
            let fresh = MQTTClient(settings: settings) { [weak self] event in
                guard let self, !run.isStopped else { return }
                self.handle(event, seen, reporter)
            }
            seen.client = fresh
            client.withLock { $0 = (fresh, .current) }
            // A stop made before the client was in place had no client to end: it set the
            // run's flag, which is read after the client is.
            if !run.isStopped { fresh.run() }
            client.withLock { if $0?.client === fresh { $0 = nil } }
            // The client's handler holds what the run has seen, which held the client: let go,
            // so that the run's client, and the manager its reporter names, can go.
            seen.client = nil
        }
    }

    public func stopUpdatingLocation() {
        let stopped = runs.stop()
        if let (client, thread) = client.withLock({ $0.take() }) {
            // From the run's own thread (a handler that has seen enough) the client ends once
            // the handler returns: waiting for that here would only wait out the 0.5 s.
            client.stop(within: thread == .current ? .zero : .milliseconds(500))
        }
        if stopped { onFleetNews?(.stopped) }
    }

    /// What one run has seen.
    private final class Seen: @unchecked Sendable {
        // `client` is set on the run's thread before the client serves there; the rest is
        // touched only on that thread too, in the client's events.
        var client: MQTTClient?
        var connectedOnce = false
        var attempts = 0
        var afterGap = false
        /// The vehicles heard of (with wildcards), bounded by the limits.
        var roster: FleetRoster
        /// Without wildcards: whether the one publisher said `offline`, until `online`.
        var publisherOffline = false
        init(limits: FleetLimits) { roster = FleetRoster(limits: limits) }
    }

    private func handle(_ event: MQTTClient.Event, _ run: Seen, _ reporter: RunReporter) {
        func status(_ status: SourceStatus) { reporter.status(status) }
        func fail(_ error: LocationError) { self.fail(error, run, reporter) }
        switch event {
        case .connected:
            if !run.connectedOnce {
                run.connectedOnce = true
                status(.started)
            } else {
                run.afterGap = true
            }
            run.attempts = 0
        case .disconnected(let error, _):
            if !run.connectedOnce {
                guard waitsForBroker else { return fail(.streamUnavailable(peer: sourceDescription, reason: error.description)) }
                if run.attempts == 0 { status(.waiting(reason: error.description)) }
            } else if run.attempts == 0 {
                status(.disconnected(reason: error.description))
            }
            run.attempts += 1
            if run.connectedOnce { status(.reconnecting(attempt: run.attempts)) }
        case .failed(let error):
            fail(.io(error.description))
        case .message(let topic, let payload):
            message(topic: topic, payload: payload, run, reporter)
        case .dropped:
            break
        case .tick:
            forgetQuiet(run, reporter)
            onFleetNews?(.tick)
        }
    }

    private func message(topic: String, payload: [UInt8], _ run: Seen, _ reporter: RunReporter) {
        func status(_ status: SourceStatus) { reporter.status(status) }
        guard let slash = topic.lastIndex(of: "/") else { return }
        let leaf = topic[topic.index(after: slash)...]
        let isReport = leaf == "tpv" || leaf == "sky"
        guard isReport || leaf == "status" else { return }
        let vehicle = Self.label(of: String(topic[..<slash]), under: prefix)
        if let vehicle {
            // Judged before the payload is read: a refused message costs this much and no more.
            switch run.roster.admit(vehicle, creating: isReport, now: Clocks.monotonicSeconds) {
            case nil: return
            case .refused(let why)?:
                onFleetNews?(.refused(vehicle: vehicle, why))
                return
            case .known?, .new?:
                break
            }
        }
        label.withLock { $0 = vehicle }
        defer { label.withLock { $0 = nil } }
        if leaf == "status" {
            let text = String(decoding: payload.prefix(16), as: UTF8.self)
            guard text == "offline" || text == "online" else { return }
            let offline = text == "offline"
            let news: Bool
            if let vehicle {
                news = run.roster.mark(vehicle, offline: offline, now: Clocks.monotonicSeconds)
            } else {
                news = run.publisherOffline != offline
                run.publisherOffline = offline
            }
            guard news else { return }
            let who = PeerText.display(vehicle ?? prefix)
            status(offline ? .disconnected(reason: "\(who) went offline") : .streaming)
            return
        }
        guard let report = GpsdJSONReports.report(payload) else { return }
        if run.afterGap {
            run.afterGap = false
            status(.streaming)
        }
        reporter.notify { delegate in
            switch report {
            case .fix(let fix): delegate.locationManager(self, didUpdateFix: fix)
            case .sky(let sky): delegate.locationManager(self, didUpdateSkyView: sky)
            }
        }
    }

    /// Vehicles offline or silent for `forgetAfter`: a silent one is said gone first (as an
    /// offline one was), then each is forgotten, so its device can go.
    private func forgetQuiet(_ run: Seen, _ reporter: RunReporter) {
        for (vehicle, wasOffline) in run.roster.forget(now: Clocks.monotonicSeconds) {
            if !wasOffline, !reporter.run.isStopped {
                label.withLock { $0 = vehicle }
                reporter.status(.disconnected(reason: "\(PeerText.display(vehicle)) silent for \(Int(limits.forgetAfter.inSeconds)) s"))
                label.withLock { $0 = nil }
            }
            onFleetNews?(.forgotten(vehicle: vehicle))
        }
    }

    private func fail(_ error: LocationError, _ run: Seen, _ reporter: RunReporter) {
        // On the client's thread: it ends once this event is handled, rather than trying the
        // broker again for a run that is over.
        run.client?.stop(within: .zero)
        onFleetNews?(.stopped)
        // Released first, so a start made on the news begins a new run.
        reporter.fail(error)
    }

    /// The topic levels that `prefix`'s wildcards matched in `topicPrefix`, joined by '/';
    /// nil when the prefix has none.
    static func label(of topicPrefix: String, under prefix: String) -> String? {
        let filter = prefix.split(separator: "/", omittingEmptySubsequences: false)
        let levels = topicPrefix.split(separator: "/", omittingEmptySubsequences: false)
        var matched: [Substring] = []
        for (i, level) in filter.enumerated() {
            if level == "#" {
                matched.append(contentsOf: levels.dropFirst(i))
                break
            }
            if level == "+", i < levels.count { matched.append(levels[i]) }
        }
        return matched.isEmpty ? nil : matched.joined(separator: "/")
    }
}
