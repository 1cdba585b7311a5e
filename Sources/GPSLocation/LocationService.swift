public import NMEA
import Dispatch
import Glibc
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
        var subscribers: [Int: Listener] = [:] {
            // Events are frequent and subscriptions rare: keep a ready list to hand out.
            didSet { everyone = Array(subscribers.values) }
        }
        var everyone: [Listener] = []
        /// The thread handing an event to subscribers, while it does.
        var deliveringOn: pthread_t?
        /// A run ended by a subscriber (`stop()` from inside a callback): finished once the
        /// event in hand has reached every subscriber, so all of them see the same sequence.
        /// Boxed: every event asks whether there is one, and asking an optional event (a fix
        /// inside) copies it, where asking a reference does not.
        var pendingEnd: PendingEnd?
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

    /// Calls `completion` with the next fix that has a position and comes from a whole cycle
    /// (not `isPartialEpoch`), or with the reason there is none: the source failed, ended, was
    /// stopped, or `timeout` passed.
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
        callback?(.failure(.timeout(seconds: seconds, reception: manager.reception)))
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
        let id = add(subscriber)
        startIfNeeded()
        return id
    }

    public func unsubscribe(_ id: Int) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }

    /// Every event, as an async sequence that finishes when the source ends or fails. The
    /// stream keeps the service (and so its source) alive until it finishes.
    public func events() -> AsyncStream<LocationEvent> {
        stream { event, continuation in continuation.yield(event) }
    }

    /// Fixes only, as an async sequence that finishes when the source ends or fails.
    public func fixes() -> AsyncStream<Fix> {
        stream { event, continuation in
            if case .fix(let fix) = event { continuation.yield(fix) }
        }
    }

    private func stream<Element>(
        _ forward: @escaping @Sendable (LocationEvent, AsyncStream<Element>.Continuation) -> Void
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .unbounded)
        let id = add { event in
            forward(event, continuation)
            if event.isTerminal { continuation.finish() }
        }
        // Installed before the source starts, so a source that ends at once still unsubscribes.
        // Holding `self` here is what keeps the service alive while someone iterates.
        continuation.onTermination = { _ in self.unsubscribe(id) }
        startIfNeeded()
        return stream
    }

    private func add(_ subscriber: @escaping Subscriber) -> Int {
        state.withLock { s in
            let id = s.nextID
            s.nextID += 1
            s.subscribers[id] = Listener(subscriber)
            s.startedForRequests = false
            return id
        }
    }

    private func startIfNeeded() {
        let mustStart = state.withLock { s -> Bool in
            guard !s.running else { return false }
            s.running = true
            s.ended = false
            return true
        }
        if mustStart { manager.startUpdatingLocation() }
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
        end(with: .status(.stopped))
    }

    // MARK: - LocationManagerDelegate

    public func locationManager(_ manager: any LocationManagerInterface, didUpdateFix fix: Fix) {
        let (callbacks, subscribers, stop) = state.withLock { s -> ([LocationCallback], [Listener], Bool) in
            guard !s.ended else { return ([], [], false) }
            guard fix.hasFix, fix.coordinate != nil else { return ([], s.everyone, false) }
            s.lastFix = fix
            // A request wants a whole cycle's fix: the stream's first epoch may have begun
            // part-way (a 3D receiver's fix looking 2D, without time or altitude).
            guard !s.requests.isEmpty, !fix.isPartialEpoch else { return ([], s.everyone, false) }
            let callbacks = Array(s.requests.values)
            s.requests.removeAll()
            return (callbacks, s.everyone, settleAfterRequests(&s))
        }
        deliver(.fix(fix), to: subscribers)
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
        end(with: .status(status))
    }

    public func locationManager(_ manager: any LocationManagerInterface, didFailWithError error: LocationError) {
        state.withLock { $0.running = false }
        end(with: .error(error))
    }

    private func broadcast(_ event: LocationEvent) {
        let subscribers = state.withLock { s in s.ended ? [] : s.everyone }
        deliver(event, to: subscribers)
    }

    /// Calls each subscriber in turn. If a subscriber ends the run (calls `stop()`), the end
    /// waits until this event has reached everyone; if another thread ends it, delivery stops
    /// at once. Either way nothing follows the terminal event.
    private func deliver(_ event: LocationEvent, to subscribers: [Listener]) {
        guard !subscribers.isEmpty else { return }
        let me = pthread_self()
        state.withLock { $0.deliveringOn = me }
        for (i, subscriber) in subscribers.enumerated() {
            if i > 0 && state.withLock({ $0.ended && $0.pendingEnd == nil }) { break }
            subscriber.call(event)
        }
        let (pending, everyone) = state.withLock { s -> (PendingEnd?, [Listener]) in
            s.deliveringOn = nil
            guard let pending = s.pendingEnd else { return (nil, []) }
            s.pendingEnd = nil
            return (pending, s.everyone)
        }
        guard let pending else { return }
        for subscriber in everyone { subscriber.call(pending.event) }
        finishRequests(pending.callbacks, with: pending.event)
    }

    /// Delivers a terminal event once: later news from a stopping manager is dropped.
    private func end(with event: LocationEvent) {
        let me = pthread_self()
        let (callbacks, subscribers) = state.withLock { s -> ([LocationCallback], [Listener]) in
            guard !s.ended else { return ([], []) }
            s.ended = true
            let callbacks = Array(s.requests.values)
            s.requests.removeAll()
            if let t = s.deliveringOn, pthread_equal(t, me) != 0 {
                // Called from a subscriber: finish after the event in hand (see `deliver`).
                s.pendingEnd = PendingEnd(event: event, callbacks: callbacks)
                return ([], [])
            }
            return (callbacks, s.everyone)
        }
        for subscriber in subscribers { subscriber.call(event) }
        finishRequests(callbacks, with: event)
    }

    private func finishRequests(_ callbacks: [LocationCallback], with event: LocationEvent) {
        guard !callbacks.isEmpty else { return }
        let error: LocationError
        switch event {
        case .error(let e): error = e
        case .status(.stopped): error = .stopped
        default: error = .noFix(source: manager.sourceDescription)
        }
        for callback in callbacks { callback(.failure(error)) }
    }
}

/// A run's end that a subscriber caused, held until the event in hand has reached everyone.
private final class PendingEnd: Sendable {
    let event: LocationEvent
    let callbacks: [LocationService.LocationCallback]

    init(event: LocationEvent, callbacks: [LocationService.LocationCallback]) {
        self.event = event
        self.callbacks = callbacks
    }
}

/// A subscriber as the service keeps it. A closure kept in a dictionary or an array is stored
/// in the collection's general form and called through a thunk that copies the event (a fix
/// inside) on every call; one kept in a class is called as it was made.
private final class Listener: Sendable {
    let call: LocationService.Subscriber

    init(_ call: @escaping LocationService.Subscriber) {
        self.call = call
    }
}
