import Dispatch
import GPSSystem
import Synchronization

/// Runs sources and feeds together, `gpsfix serve`'s whole life in one value: the feeds
/// start, then the sources; every event of every source goes to every feed (see
/// `LocationFeed` for the order and the threads); and it ends
///
/// - on `stop()`, or on SIGINT, SIGTERM or SIGHUP once `armInterrupts()` was called;
/// - when a feed fails (`RelayError.feedFailed`) or finishes (`FeedControl`);
/// - when every source has ended (a capture replayed, a source stopped or failed), or, with a
///   feed that `outlivesSources` (the gpsd server), when every source has failed;
///   `RelayError.sourcesFailed` when all of them failed.
///
/// Then the feeds hear `willStop()`, the sources stop, and the feeds stop in the reverse of
/// their order. Several sources are several devices: a feed knows each by its index.
///
///     let service = LocationService(manager: SerialNMEAManager(path: "/dev/ttyACM0"))
///     let server = try GpsdServer(configuration: .init(release: "myapp 1.0"),
///                                 device: .init(path: "/dev/ttyACM0")) { print($0) }
///     let relay = LocationRelay([service], feeds: [server.feed()])
///     relay.armInterrupts()
///     try relay.run()          // or: try await relay.run()
///
/// A relay runs once. The services are kept alive until it ends: a manager holds its
/// delegate weakly.
public final class LocationRelay: Sendable {
    /// The sources, in the order given: a source's index is its device number.
    public let sources: [RelaySource]
    /// The feeds, in the order they start and are told each event.
    public let feeds: [any LocationFeed]
    private let done = DispatchSemaphore(value: 0)
    private let state: Mutex<State>

    private struct State {
        var ran = false
        var ends: [LocationEvent?]
        var failures: [LocationError] = []
        var feedFailure: FeedFailure?
        var over = false
        var signal: Int32 = 0
        var interrupts: Interrupts?
    }

    /// A relay of `services` (at least one) to `feeds`.
    public init(_ services: [LocationService], feeds: [any LocationFeed]) {
        precondition(!services.isEmpty, "a relay reads at least one source")
        sources = services.enumerated().map { RelaySource(index: $0.offset, service: $0.element) }
        self.feeds = feeds
        state = Mutex(State(ends: Array(repeating: nil, count: services.count)))
    }

    /// A relay of one source.
    public convenience init(_ service: LocationService, feeds: [any LocationFeed]) {
        self.init([service], feeds: feeds)
    }

    /// From now on until the relay ends, SIGINT, SIGTERM and SIGHUP stop it (and it ends
    /// normally). Arm before saying "Ctrl-C to stop": a signal in between would kill the
    /// process mid-start. A process has one set of handlers: one relay (or `SourceRun`) arms
    /// them at a time.
    public func armInterrupts() {
        state.withLock { s in
            guard s.interrupts == nil, !s.over else { return }
            s.interrupts = Interrupts { [self] number in
                state.withLock { if $0.signal == 0 { $0.signal = number } }
                stop()
            }
        }
    }

    /// The signal that stopped the relay, if one did.
    public var signal: Int32? { state.withLock { $0.signal == 0 ? nil : $0.signal } }

    /// Ends the relay: from any thread, before or while it runs (a stop before `run` makes
    /// the run end as soon as it has started).
    public func stop() { end(recording: { _ in }) }

    /// Runs until the relay ends (see the type's rules) on the calling thread, which only
    /// waits: the sources and feeds have threads of their own.
    public func run() throws(RelayError) {
        let first = state.withLock { s -> Bool in
            defer { s.ran = true }
            return !s.ran
        }
        precondition(first, "a relay runs once")
        let control = FeedControl(fail: { [self] failure in
            end(recording: { s in s.feedFailure = s.feedFailure ?? failure })
        }, end: { [self] in stop() })
        var started: [any LocationFeed] = []
        for feed in feeds {
            do throws(FeedFailure) {
                try feed.start(sources, control: control)
                started.append(feed)
            } catch {
                for feed in started.reversed() { feed.stop() }
                disarm()
                throw .feedFailed(error)
            }
        }
        let outlives = feeds.contains { $0.outlivesSources }
        // Stopped before it started (a cancelled task, an early signal): no source is started.
        let stoppedAlready = state.withLock { $0.over }
        let subscriptions = stoppedAlready ? [] : sources.map { source in
            source.service.subscribe { [self] event in
                for feed in feeds { feed.take(event, from: source) }
                guard event.isTerminal else { return }
                ended(source.index, with: event, outlives: outlives)
            }
        }
        withExtendedLifetime(sources) { done.wait() }
        for feed in feeds { feed.willStop() }
        if !stoppedAlready {
            for source in sources { source.service.stop() }
            for (source, id) in zip(sources, subscriptions) { source.service.unsubscribe(id) }
        }
        disarm()
        for feed in feeds.reversed() { feed.stop() }
        let (feedFailure, failures, count) = state.withLock { ($0.feedFailure, $0.failures, $0.ends.count) }
        if let feedFailure { throw .feedFailed(feedFailure) }
        if failures.count == count, let first = failures.first { throw .sourcesFailed(first) }
    }

    /// `run()` without holding a thread of the cooperative pool: the wait is on a thread of
    /// its own, and cancelling the task stops the relay (which then ends normally).
    public func run() async throws(RelayError) {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, RelayError>, Never>) in
                spawnThread(name: "gpsfix-relay") { [self] in
                    continuation.resume(returning: Result { () throws(RelayError) in try run() })
                }
            }
        } onCancel: {
            stop()
        }
        try result.get()
    }

    /// A source's terminal event: the relay ends once every source has ended (with a feed
    /// that outlives them, once every source has failed).
    private func ended(_ index: Int, with event: LocationEvent, outlives: Bool) {
        end { s in
            guard s.ends[index] == nil else { return false }
            s.ends[index] = event
            if case .error(let error) = event { s.failures.append(error) }
            let open = s.ends.contains { $0 == nil }
            return outlives ? s.failures.count == s.ends.count : !open
        }
    }

    private func end(when decide: (inout State) -> Bool) {
        let now = state.withLock { s -> Bool in
            guard decide(&s), !s.over else { return false }
            s.over = true
            return true
        }
        if now { done.signal() }
    }

    private func end(recording record: (inout State) -> Void) {
        end { s -> Bool in
            record(&s)
            return true
        }
    }

    private func disarm() {
        let interrupts = state.withLock { s -> Interrupts? in
            defer { s.interrupts = nil }
            return s.interrupts
        }
        interrupts?.cancel()
    }
}

/// Why a relay ended other than by a stop.
public enum RelayError: Error, Sendable, CustomStringConvertible {
    /// Every source failed; the first failure (each was told to the feeds as it came).
    case sourcesFailed(LocationError)
    /// A feed could not start, or could not go on.
    case feedFailed(FeedFailure)

    /// The failure as its source or feed describes it.
    public var description: String {
        switch self {
        case .sourcesFailed(let error): "\(error)"
        case .feedFailed(let failure): failure.description
        }
    }
}

extension RelayError {
    /// The sources' failure, when that is what ended the relay.
    public var sourceFailure: LocationError? {
        if case .sourcesFailed(let error) = self { error } else { nil }
    }
}
