/// What consumes a service's events while sources run: the gpsd server, MQTT publishing, a
/// time feed for chrony, a service manager's status, and the feeds to come. A
/// `LocationRelay` runs feeds beside one source or several and owns the order:
///
/// 1. `start(_:control:)`, once, in the relay's order, before any source starts: a feed that
///    cannot start throws, and the relay then stops the feeds already started and ends.
/// 2. `take(_:from:)` with each event of each source, on that source's thread, in order,
///    every feed in the relay's order; nothing of a source after its terminal event.
/// 3. `willStop()`, on the thread that stops the relay, as soon as it decides to stop
///    (a signal, a feed's failure, the sources' end), before the sources stop.
/// 4. `stop()`, once, in the reverse order, after every source has stopped.
///
/// A feed that cannot go on (a broker refused the login) ends the relay through its
/// `FeedControl`, from any thread.
public protocol LocationFeed: AnyObject, Sendable {
    /// Starts the feed (its thread, its connection) for `sources`, whose indices `take`
    /// names. `control` is kept to end the relay later; a feed that cannot start throws.
    func start(_ sources: [RelaySource], control: FeedControl) throws(FeedFailure)
    /// One event of `source`, on that source's thread. Must not block: every other feed and
    /// the source wait for it.
    func take(_ event: LocationEvent, from source: RelaySource)
    /// The relay is about to stop its sources (the events that follow are their ends).
    func willStop()
    /// Every source has stopped: flush what is queued, say goodbye, let go of threads and
    /// sockets. Returns once it has.
    func stop()
    /// Whether it goes on serving what it has once the sources have ended (the gpsd server
    /// still answers with a finished capture's last fix). With such a feed the relay ends
    /// when every source has failed, not when every source has ended.
    var outlivesSources: Bool { get }
}

extension LocationFeed {
    /// Nothing to do before the sources stop.
    public func willStop() {}
    /// A feed ends with its sources unless it says otherwise.
    public var outlivesSources: Bool { false }
}

/// One source of a relay, as its feeds see it: its index (a device number, in the order the
/// relay was given the services) and its service.
public struct RelaySource: Sendable {
    /// Its place among the relay's sources, from 0.
    public let index: Int
    /// The service the relay subscribed to.
    public let service: LocationService

    /// The source's manager: its name and reception, read on the source's thread.
    public var manager: any LocationManagerInterface { service.manager }
    /// The source as people read it: `/dev/ttyACM0`, `capture.nmea`. It may change once the
    /// source has opened (a receiver found by discovery).
    public var name: String { service.manager.sourceDescription }

    /// A source of a relay.
    public init(index: Int, service: LocationService) {
        self.index = index
        self.service = service
    }
}

/// How a feed ends the relay it belongs to, from any thread, at any time after its start.
public struct FeedControl: Sendable {
    private let onFail: @Sendable (FeedFailure) -> Void
    private let onEnd: @Sendable () -> Void

    /// A control that calls `fail` and `end`: for a feed run outside a relay (a test).
    public init(fail: @escaping @Sendable (FeedFailure) -> Void, end: @escaping @Sendable () -> Void) {
        onFail = fail
        onEnd = end
    }

    /// The feed cannot go on: the relay stops, and `run` throws `RelayError.feedFailed`
    /// with `failure` (the first one, if several feeds fail).
    public func fail(_ failure: FeedFailure) { onFail(failure) }

    /// The feed has nothing more to do, and with it the relay (a server stopped by its app):
    /// the relay stops as on `LocationRelay.stop()`.
    public func finish() { onEnd() }
}

/// Why a feed could not start or go on: which feed, and its own error (an `MQTTError`, a
/// `TimeFeedError`, a `ServerError`), for the one who shows it to say what to do.
public struct FeedFailure: Error, Sendable, CustomStringConvertible {
    /// The feed, as a person names it ("MQTT", "gpsd server").
    public let feed: String
    /// The feed's own error.
    public let error: any Error & Sendable

    /// `feed` failed with `error`.
    public init(feed: String, error: any Error & Sendable) {
        self.feed = feed
        self.error = error
    }

    /// The feed's error as it describes itself.
    public var description: String { "\(feed): \(error)" }
}
