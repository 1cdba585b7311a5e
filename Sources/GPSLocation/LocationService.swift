import Dispatch
import Synchronization

/// What apps and the CLI use: current location on request, or a stream of fixes, from any
/// source behind `LocationManagerInterface`.
///
/// Every entry point is thread-safe. Subscribers are called on the manager's thread, in order;
/// completions of `fetchCurrentLocation` are called there too, once.
public final class LocationService: LocationManagerDelegate {
    public typealias LocationCallback = @Sendable (Result<Fix, LocationError>) -> Void
    public typealias Subscriber = @Sendable (LocationEvent) -> Void

    public let manager: any LocationManagerInterface

    private struct State: Sendable {
        var running = false
        /// Started only to answer requests: stop again once they are answered.
        var startedForRequests = false
        var ended = false
        var requests: [Int: LocationCallback] = [:]
        var subscribers: [Int: Subscriber] = [:] {
            // Events are frequent and subscriptions rare: keep a ready list to hand out.
            didSet { everyone = Array(subscribers.values) }
        }
        var everyone: [Subscriber] = []
        var nextID = 0
        var lastFix: Fix?
    }

    private let state = Mutex(State())

    public init(manager: any LocationManagerInterface) {
        self.manager = manager
        manager.delegate = self
    }

    /// The most recent fix with a position, if any arrived.
    public var lastFix: Fix? { state.withLock { $0.lastFix } }

    // MARK: - Requests

    /// Calls `completion` with the next fix that has a position, or with the reason there is
    /// none: the source failed, ended, was stopped, or `timeout` passed.
    public func fetchCurrentLocation(timeout: Duration? = nil, completion: @escaping LocationCallback) {
        let (id, mustStart) = state.withLock { s -> (Int, Bool) in
            let id = s.nextID
            s.nextID += 1
            s.requests[id] = completion
            let mustStart = !s.running
            if mustStart {
                s.running = true
                s.ended = false
                s.startedForRequests = s.subscribers.isEmpty
            }
            return (id, mustStart)
        }
        if let timeout {
            let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
                self?.expire(request: id, seconds: seconds)
            }
        }
        if mustStart { manager.startUpdatingLocation() }
    }

    /// The next fix with a position. Throws `LocationError.timeout` when none arrives in time.
    public func currentFix(timeout: Duration) async throws(LocationError) -> Fix {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Fix, LocationError>, Never>) in
            fetchCurrentLocation(timeout: timeout) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    private func expire(request id: Int, seconds: Double) {
        let (callback, stop) = state.withLock { s -> (LocationCallback?, Bool) in
            guard let callback = s.requests.removeValue(forKey: id) else { return (nil, false) }
            return (callback, settleAfterRequests(&s))
        }
        if stop { manager.stopUpdatingLocation() }
        callback?(.failure(.timeout(seconds: seconds)))
    }

    /// Whether the manager was started only for requests and none remains.
    private func settleAfterRequests(_ s: inout State) -> Bool {
        guard s.startedForRequests, s.requests.isEmpty, s.subscribers.isEmpty, s.running else { return false }
        s.running = false
        s.startedForRequests = false
        return true
    }

    // MARK: - Streams

    /// Calls `subscriber` with every event, on the manager's thread, until the source ends or
    /// `unsubscribe` is called. Starts the source if it is not running.
    @discardableResult
    public func subscribe(_ subscriber: @escaping Subscriber) -> Int {
        let (id, mustStart) = state.withLock { s -> (Int, Bool) in
            let id = s.nextID
            s.nextID += 1
            s.subscribers[id] = subscriber
            s.startedForRequests = false
            let mustStart = !s.running
            if mustStart {
                s.running = true
                s.ended = false
            }
            return (id, mustStart)
        }
        if mustStart { manager.startUpdatingLocation() }
        return id
    }

    public func unsubscribe(_ id: Int) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }

    /// Every event, as an async sequence that finishes when the source ends or fails.
    public func events() -> AsyncStream<LocationEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: LocationEvent.self, bufferingPolicy: .unbounded)
        let id = subscribe { event in
            continuation.yield(event)
            if event.isTerminal { continuation.finish() }
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return stream
    }

    /// Fixes only, as an async sequence that finishes when the source ends or fails.
    public func fixes() -> AsyncStream<Fix> {
        let (stream, continuation) = AsyncStream.makeStream(of: Fix.self, bufferingPolicy: .unbounded)
        let id = subscribe { event in
            if case .fix(let fix) = event { continuation.yield(fix) }
            if event.isTerminal { continuation.finish() }
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return stream
    }

    // MARK: - Control

    /// Starts the source (streams and requests also start it as needed).
    public func start() {
        let mustStart = state.withLock { s -> Bool in
            guard !s.running else { return false }
            s.running = true
            s.ended = false
            s.startedForRequests = false
            return true
        }
        if mustStart { manager.startUpdatingLocation() }
    }

    /// Stops the source. Pending requests fail with `.stopped`; streams finish.
    public func stop() {
        let wasRunning = state.withLock { s -> Bool in
            let was = s.running
            s.running = false
            return was
        }
        if wasRunning { manager.stopUpdatingLocation() }
        end(with: .status(.stopped), requestsFail: .stopped)
    }

    // MARK: - LocationManagerDelegate

    public func locationManager(_ manager: any LocationManagerInterface, didUpdateFix fix: Fix) {
        let (callbacks, subscribers, stop) = state.withLock { s -> ([LocationCallback], [Subscriber], Bool) in
            guard !s.ended else { return ([], [], false) }
            guard fix.hasFix, fix.coordinate != nil else { return ([], s.everyone, false) }
            s.lastFix = fix
            guard !s.requests.isEmpty else { return ([], s.everyone, false) }
            let callbacks = Array(s.requests.values)
            s.requests.removeAll()
            return (callbacks, s.everyone, settleAfterRequests(&s))
        }
        for subscriber in subscribers { subscriber(.fix(fix)) }
        if stop { self.manager.stopUpdatingLocation() }
        for callback in callbacks { callback(.success(fix)) }
    }

    public func locationManager(_ manager: any LocationManagerInterface, didUpdateSkyView sky: SkyView) {
        broadcast(.sky(sky))
    }

    public func locationManager(_ manager: any LocationManagerInterface, didReceiveSentence sentence: String) {
        broadcast(.sentence(sentence))
    }

    public func locationManager(_ manager: any LocationManagerInterface, didChangeStatus status: SourceStatus) {
        guard status.isTerminal else { return broadcast(.status(status)) }
        state.withLock { $0.running = false }
        end(with: .status(status), requestsFail: status == .stopped ? .stopped : .noFix(source: manager.sourceDescription))
    }

    public func locationManager(_ manager: any LocationManagerInterface, didFailWithError error: LocationError) {
        state.withLock { $0.running = false }
        end(with: .error(error), requestsFail: error)
    }

    private func broadcast(_ event: LocationEvent) {
        let subscribers = state.withLock { s in s.ended ? [] : s.everyone }
        for subscriber in subscribers { subscriber(event) }
    }

    /// Delivers a terminal event once: later news from a stopping manager is dropped.
    private func end(with event: LocationEvent, requestsFail error: LocationError) {
        let (callbacks, subscribers) = state.withLock { s -> ([LocationCallback], [Subscriber]) in
            guard !s.ended else { return ([], []) }
            s.ended = true
            let callbacks = Array(s.requests.values)
            s.requests.removeAll()
            return (callbacks, s.everyone)
        }
        for subscriber in subscribers { subscriber(event) }
        for callback in callbacks { callback(.failure(error)) }
    }
}
