public import GPSLocation
import NMEA
import Synchronization

/// A source that reads what `gpsfix serve --mqtt` (or anything publishing gpsd JSON) puts on a
/// broker: `PREFIX/tpv` as fixes, `PREFIX/sky` as sky views, `PREFIX/status` (`online`,
/// `offline`) as the source's state. The prefix may hold MQTT wildcards (`fleet/+`): then
/// every publisher under it is read, and `labelOfEventInHand` says whose each report is.
///
/// The client's thread is the source's thread: events are told there, in order. A broker that
/// cannot be reached at the start is a failure, unless `waitsForBroker`; one lost later is
/// `.disconnected`, then `.reconnecting` until it is back.
public final class MQTTManager: LocationManagerInterface {
    public let settings: MQTTSettings
    public let prefix: String
    public let waitsForBroker: Bool

    private let relay = DelegateRelay()
    private let current = Mutex<Run?>(nil)
    private let label = Mutex<String?>(nil)

    /// `settings` without subscriptions: the manager subscribes under `prefix`.
    public init(settings: MQTTSettings, prefix: String, waitsForBroker: Bool = false) {
        var settings = settings
        // '#' may only end a filter: `fleet/#` is subscribed as it is, and other leaves ignored.
        settings.subscriptions = prefix.hasSuffix("#") ? [prefix] : ["tpv", "sky", "status"].map { prefix + "/" + $0 }
        settings.subscriptionQoS = 1
        self.settings = settings
        self.prefix = prefix
        self.waitsForBroker = waitsForBroker
    }

    public var delegate: (any LocationManagerDelegate)? {
        get { relay.delegate }
        set { relay.delegate = newValue }
    }

    public var sourceDescription: String { "MQTT broker at \(settings.broker), \(prefix)/" }

    /// Which publisher the event being delivered came from (the topic levels the prefix's
    /// wildcards matched: `van7` under `fleet/+`), read on the source's thread while the
    /// delegate is called; nil without wildcards.
    public var labelOfEventInHand: String? { label.withLock { $0 } }

    public func startUpdatingLocation() {
        current.withLock { run in
            guard run == nil else { return }
            let fresh = Run()
            let client = MQTTClient(settings: settings) { [weak self, fresh] event in
                guard let self, !fresh.isStopped else { return }
                self.handle(event, in: fresh)
            }
            fresh.client = client
            run = fresh
            client.start()
        }
    }

    public func stopUpdatingLocation() {
        let run = current.withLock { run -> Run? in
            defer { run = nil }
            return run
        }
        run?.stop()
        run?.client?.stop(within: 0.5)
    }

    /// One start's client and what it has seen.
    private final class Run: @unchecked Sendable {
        // `client` is set once under the manager's lock before the client starts; the rest is
        // touched only on the client's thread.
        var client: MQTTClient?
        var connectedOnce = false
        var attempts = 0
        var afterGap = false
        /// Publishers whose status said `offline`, until they say `online` again.
        var offline: Set<String> = []
        private let stopped = Atomic<Bool>(false)
        func stop() { stopped.store(true, ordering: .releasing) }
        var isStopped: Bool { stopped.load(ordering: .acquiring) }
    }

    private func handle(_ event: MQTTClient.Event, in run: Run) {
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
                guard waitsForBroker else { return fail(.streamUnavailable(peer: sourceDescription, reason: error.description), run) }
                if run.attempts == 0 { status(.waiting(reason: error.description)) }
            } else if run.attempts == 0 {
                status(.disconnected(reason: error.description))
            }
            run.attempts += 1
            if run.connectedOnce { status(.reconnecting(attempt: run.attempts)) }
        case .failed(let error):
            fail(.io(error.description), run)
        case .message(let topic, let payload):
            message(topic: topic, payload: payload, run)
        case .dropped:
            break
        }
    }

    private func message(topic: String, payload: [UInt8], _ run: Run) {
        guard let slash = topic.lastIndex(of: "/") else { return }
        let leaf = topic[topic.index(after: slash)...]
        label.withLock { $0 = Self.label(of: String(topic[..<slash]), under: prefix) }
        defer { label.withLock { $0 = nil } }
        if leaf == "status" {
            let text = String(decoding: payload, as: UTF8.self)
            let who = String(topic[..<slash])
            if text == "offline", run.offline.insert(who).inserted { status(.disconnected(reason: "\(who) went offline")) }
            if text == "online", run.offline.remove(who) != nil { status(.streaming) }
            return
        }
        guard leaf == "tpv" || leaf == "sky", let report = GpsdJSONReports.report(payload) else { return }
        if run.afterGap {
            run.afterGap = false
            status(.streaming)
        }
        guard let delegate = relay.delegate, !run.isStopped else { return }
        switch report {
        case .fix(let fix): delegate.locationManager(self, didUpdateFix: fix)
        case .sky(let sky): delegate.locationManager(self, didUpdateSkyView: sky)
        }
    }

    private func status(_ status: SourceStatus) {
        relay.delegate?.locationManager(self, didChangeStatus: status)
    }

    private func fail(_ error: LocationError, _ run: Run) {
        // Released first, so a start made on the news begins a new run.
        current.withLock { if $0 === run { $0 = nil } }
        run.stop()
        relay.delegate?.locationManager(self, didFailWithError: error)
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
