public import NMEA
import Dispatch
import Synchronization
import GPSSystem

/// What apps and the CLI use: the current location on request, or a stream of fixes, from any
/// source behind `LocationManagerInterface`.
///
/// Every entry point is thread-safe. **One delivery rule**: every event of a run reaches
/// subscribers on one thread, the source's, in order, and nothing follows its terminal event
/// (`.finished`, `.stopped`, an error); completions of `fetchCurrentLocation` are called there
/// too, once (or on Dispatch's global queue, for a timeout). A `stop()` from another thread while
/// the source's thread is handing over an event does not deliver `.stopped` beside it: the event
/// in hand reaches every subscriber, then `.stopped` follows on the source's thread. When nothing
/// is in flight, `.stopped` is delivered on the caller's thread before `stop()` returns.
///
/// A manager reports to one service: a second `LocationService(manager:)` while the first is
/// alive does not take its events, but refuses every use with `LocationError.managerInUse`.
public final class LocationService: LocationManagerDelegate {
    /// How a request is answered: a fix, or why none came.
    public typealias LocationCallback = @Sendable (Result<Fix, LocationError>) -> Void
    /// A consumer of every event, called on the source's thread.
    public typealias Subscriber = @Sendable (LocationEvent) -> Void

    /// How many elements a stream holds for a consumer that is behind, unless told otherwise.
    public static let defaultBufferLimit = 100

    /// The source this service reports on.
    public let manager: any LocationManagerInterface

    private struct State: Sendable {
        var running = false
        /// Started only for requests and streams: stopped again once none is left.
        var onDemand = false
        var ended = false
        var requests: [Int: LocationCallback] = [:]
        var subscribers: [Int: Listener] = [:] {
            // Events are frequent and subscriptions rare: keep a ready list to hand out.
            didSet { everyone = Array(subscribers.values) }
        }
        var everyone: [Listener] = []
        /// Streams being iterated: each is one of `subscribers` too, and keeps an on-demand
        /// run going.
        var streams: [Int: any UpdateSink] = [:]
        /// Streams whose run has ended, until their consumers leave: a `stop()` still drops
        /// what they hold.
        var draining: [Int: any UpdateSink] = [:]
        /// A thread is handing an event to subscribers: an end waits for it (`pendingEnd`).
        var delivering = false
        /// A run ended while an event was being handed over (by a subscriber's `stop()`, or
        /// by one from another thread): delivered by the delivering thread once the event in
        /// hand has reached every subscriber, so all see the same sequence on one thread.
        /// Boxed: every event asks whether there is one, and asking an optional event (a fix
        /// inside) copies it, where asking a reference does not.
        var pendingEnd: PendingEnd?
        var nextID = 0
        var lastFix: Fix?

        /// Whether an on-demand run has no one left: stopped, if so.
        mutating func settle() -> Bool {
            guard onDemand, running, requests.isEmpty, streams.isEmpty else { return false }
            running = false
            onDemand = false
            ended = true
            return true
        }

        /// A run's end reaches its streams, which are then no longer subscribers.
        mutating func retireStreams() {
            guard !streams.isEmpty else { return }
            for (id, sink) in streams {
                subscribers.removeValue(forKey: id)
                draining[id] = sink
            }
            streams.removeAll()
        }
    }

    private let state = Mutex(State())
    /// Why this service may not use its manager (another service has it), if so.
    private let refusal: LocationError?

    /// A service for `manager`, made its delegate. A manager reports to one service: when
    /// `manager` already reports to a live `LocationService`, this one leaves it alone and
    /// every request, stream and subscriber of this one fails with
    /// `LocationError.managerInUse` (use the first service; each of its streams and
    /// subscribers gets every event).
    public init(manager: any LocationManagerInterface) {
        self.manager = manager
        if manager.delegate is LocationService {
            refusal = .managerInUse(source: manager.sourceDescription)
        } else {
            refusal = nil
            manager.delegate = self
        }
    }

    /// The most recent fix with a position, if any arrived.
    public var lastFix: Fix? { state.withLock { $0.lastFix } }

    /// Streams being iterated in the current run, for tests that wait until a consumer is in.
    package var streamCount: Int { state.withLock { $0.streams.count } }

    /// Requests still waiting for a fix, for tests that wait until one is filed.
    package var pendingRequests: Int { state.withLock { $0.requests.count } }

    // MARK: - Requests

    /// Calls `completion` with the next fix that has a position and comes from a whole cycle
    /// (not `isPartialEpoch`), or with the reason there is none: the source failed, ended, was
    /// stopped, or `timeout` passed.
    public func fetchCurrentLocation(timeout: Duration? = nil, completion: @escaping LocationCallback) {
        _ = request(timeout: timeout, completion)
    }

    /// The next fix with a position, from a whole cycle. Throws `LocationError.timeout` when
    /// none arrives within `timeout`, `.cancelled` when the task is cancelled (the request is
    /// withdrawn, and a source started only for it is stopped), or the source's failure.
    public func currentFix(timeout: Duration) async throws(LocationError) -> Fix {
        let asked = RequestID()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Fix, LocationError>, Never>) in
                let id = request(timeout: timeout) { continuation.resume(returning: $0) }
                asked.set(id)
                // Cancelled before the id was known: the handler had nothing to withdraw.
                if Task.isCancelled, let id { withdraw(request: id) }
            }
        } onCancel: {
            if let id = asked.value { withdraw(request: id) }
        }
        return try result.get()
    }

    /// Files a request; its id, or nil when it was answered at once.
    private func request(timeout: Duration?, _ completion: @escaping LocationCallback) -> Int? {
        if let refusal {
            completion(.failure(refusal))
            return nil
        }
        let (id, mustStart) = state.withLock { s -> (Int, Bool) in
            let id = s.nextID
            s.nextID += 1
            s.requests[id] = completion
            let mustStart = !s.running
            if mustStart {
                s.running = true
                s.ended = false
                s.onDemand = true
            }
            return (id, mustStart)
        }
        if let timeout {
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.inSeconds) { [weak self] in
                self?.withdraw(request: id, answer: .timeout(after: timeout, reception: self?.manager.reception))
            }
        }
        if mustStart { manager.startUpdatingLocation() }
        return id
    }

    /// Answers a request that is still waiting with `answer`, and stops a source started only
    /// for requests and streams once none is left.
    private func withdraw(request id: Int, answer: LocationError = .cancelled) {
        let (callback, stop) = state.withLock { s -> (LocationCallback?, Bool) in
            guard let callback = s.requests.removeValue(forKey: id) else { return (nil, false) }
            return (callback, s.settle())
        }
        if stop { manager.stopUpdatingLocation() }
        callback?(.failure(answer))
    }

    // MARK: - Streams

    /// Every event, in order, as a stream that starts the source when iterated, holds at most
    /// `bufferLimit` (at least 1) events a consumer has not taken (the oldest give way, counted in
    /// `LocationUpdates.dropped`), ends after the terminal status (`.finished` or `.stopped`,
    /// its last element), and throws the source's failure (an `.error` event is never an
    /// element). See `LocationUpdates`.
    public func updates(bufferLimit: Int = LocationService.defaultBufferLimit) -> LocationUpdates<LocationEvent> {
        LocationUpdates(service: self, limit: bufferLimit) { event in event }
    }

    /// Fixes with a position, as a stream: every element has a `coordinate` and a 2D or 3D
    /// `mode` (`hasFix`); epochs without one are left out. Its `timestamp` is what the
    /// receiver said: a time of day with each fix, a date only once a sentence carrying one
    /// (RMC, ZDA) has arrived, and none from a receiver that sends no time. The first fix of a
    /// stream joined part-way may be `isPartialEpoch`. Starts the source when iterated; bounded
    /// by `bufferLimit` as `updates(bufferLimit:)`; ends when the run finishes or is stopped;
    /// throws the source's failure. See `LocationUpdates`.
    public func positions(bufferLimit: Int = LocationService.defaultBufferLimit) -> LocationUpdates<Fix> {
        LocationUpdates(service: self, limit: bufferLimit) { event in
            guard case .fix(let fix) = event, fix.hasFix, fix.coordinate != nil else { return nil }
            return fix
        }
    }

    /// A stream's iteration begins: it hears every event from now on, and starts the source
    /// if it is not running (as an on-demand run, stopped when its last consumer leaves).
    func join(_ sink: any UpdateSink) -> Int? {
        if let refusal {
            sink.receive(.error(refusal))
            return nil
        }
        let (id, mustStart) = state.withLock { s -> (Int, Bool) in
            let id = s.nextID
            s.nextID += 1
            s.subscribers[id] = Listener { sink.receive($0) }
            s.streams[id] = sink
            guard !s.running else { return (id, false) }
            s.running = true
            s.ended = false
            s.onDemand = true
            return (id, true)
        }
        if mustStart { manager.startUpdatingLocation() }
        return id
    }

    /// A stream's iteration is over: the last consumer of an on-demand run stops the source.
    func leave(_ id: Int) {
        let stop = state.withLock { s -> Bool in
            s.draining.removeValue(forKey: id)
            guard s.streams.removeValue(forKey: id) != nil else { return false }
            s.subscribers.removeValue(forKey: id)
            return s.settle()
        }
        if stop { manager.stopUpdatingLocation() }
    }

    // MARK: - Subscribers

    /// Calls `subscriber` with every event, on the source's thread, until the source ends or
    /// `unsubscribe` is called. Starts the source if it is not running; it then runs until
    /// `stop()` or its end.
    @discardableResult
    public func subscribe(_ subscriber: @escaping Subscriber) -> Int {
        if let refusal {
            subscriber(.error(refusal))
            return -1
        }
        let id = state.withLock { s in
            let id = s.nextID
            s.nextID += 1
            s.subscribers[id] = Listener(subscriber)
            s.onDemand = false
            return id
        }
        startIfNeeded()
        return id
    }

    /// Calls the subscriber `id` no more (the source goes on).
    public func unsubscribe(_ id: Int) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
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

    /// Starts the source, to run until `stop()` or its end (streams, subscribers and requests
    /// also start it as needed).
    public func start() {
        guard refusal == nil else { return }
        let mustStart = state.withLock { s -> Bool in
            s.onDemand = false
            guard !s.running else { return false }
            s.running = true
            s.ended = false
            return true
        }
        if mustStart { manager.startUpdatingLocation() }
    }

    /// Stops the source. Every stream ends at once (what it held is dropped; `updates()` gives
    /// `.stopped` as its last element); pending requests fail with `.stopped`; subscribers get
    /// `.stopped`, on this thread, or after the event in hand on the source's thread if one is
    /// being delivered (see the delivery rule above).
    public func stop() {
        guard refusal == nil else { return }
        let (wasRunning, sinks) = state.withLock { s -> (Bool, [any UpdateSink]) in
            let was = s.running
            s.running = false
            s.onDemand = false
            let sinks = Array(s.streams.values) + Array(s.draining.values)
            s.draining.removeAll()
            return (was, sinks)
        }
        for sink in sinks { sink.stop() }
        if wasRunning { manager.stopUpdatingLocation() }
        end(with: .status(.stopped))
    }

    // MARK: - LocationManagerDelegate

    /// An epoch's fix, from the manager's thread: kept as `lastFix` when it has a position,
    /// the answer to waiting requests when it is a whole cycle's, and passed to every subscriber.
    public func locationManager(_ manager: any LocationManagerInterface, didUpdateFix fix: Fix) {
        let (callbacks, subscribers, stop) = state.withLock { s -> ([LocationCallback], [Listener], Bool) in
            guard !s.ended else { return ([], [], false) }
            var callbacks: [LocationCallback] = []
            var stop = false
            // A request wants a whole cycle's fix: the stream's first epoch may have begun
            // part-way (a 3D receiver's fix looking 2D, without time or altitude).
            if fix.hasFix, fix.coordinate != nil {
                s.lastFix = fix
                if !s.requests.isEmpty, !fix.isPartialEpoch {
                    callbacks = Array(s.requests.values)
                    s.requests.removeAll()
                    stop = s.settle()
                }
            }
            if !s.everyone.isEmpty || !callbacks.isEmpty { s.delivering = true }
            return (callbacks, s.everyone, stop)
        }
        guard !subscribers.isEmpty || !callbacks.isEmpty else { return }
        let event = LocationEvent.fix(fix)
        for subscriber in subscribers { subscriber.call(event) }
        if stop { self.manager.stopUpdatingLocation() }
        for callback in callbacks { callback(.success(fix)) }
        finishDelivery()
    }

    /// An epoch's satellites, passed to every subscriber.
    public func locationManager(_ manager: any LocationManagerInterface, didUpdateSkyView sky: SkyView) {
        broadcast(.sky(sky))
    }

    /// A sentence as received, passed to every subscriber.
    public func locationManager(_ manager: any LocationManagerInterface, didReceiveSentence sentence: String) {
        broadcast(.sentence(sentence))
    }

    /// A receiver's note (TXT), passed to every subscriber.
    public func locationManager(_ manager: any LocationManagerInterface, didReceiveNote note: ReceiverNote) {
        broadcast(.note(note))
    }

    /// The source's state, passed to every subscriber; a terminal one ends the run: requests
    /// still waiting fail, streams end.
    public func locationManager(_ manager: any LocationManagerInterface, didChangeStatus status: SourceStatus) {
        guard status.isTerminal else { return broadcast(.status(status)) }
        stoppedBySource()
        end(with: .status(status))
    }

    /// The source failed: the run is over; subscribers get `.error`, requests fail with it, and
    /// streams throw it.
    public func locationManager(_ manager: any LocationManagerInterface, didFailWithError error: LocationError) {
        stoppedBySource()
        end(with: .error(error))
    }

    private func stoppedBySource() {
        state.withLock { s in
            s.running = false
            s.onDemand = false
        }
    }

    private func broadcast(_ event: LocationEvent) {
        let subscribers = state.withLock { s -> [Listener] in
            guard !s.ended, !s.everyone.isEmpty else { return [] }
            s.delivering = true
            return s.everyone
        }
        guard !subscribers.isEmpty else { return }
        for subscriber in subscribers { subscriber.call(event) }
        finishDelivery()
    }

    /// The event in hand has reached everyone: an end that came meanwhile is delivered now,
    /// on this thread.
    private func finishDelivery() {
        let pending = state.withLock { s -> PendingEnd? in
            s.delivering = false
            defer { s.pendingEnd = nil }
            return s.pendingEnd
        }
        guard let pending else { return }
        for listener in pending.listeners { listener.call(pending.event) }
        finishRequests(pending.callbacks, with: pending.event)
    }

    /// Delivers a terminal event once: later news from a stopping manager is dropped. While
    /// another event is being handed over, the end is left to the thread handing it over.
    private func end(with event: LocationEvent) {
        let now = state.withLock { s -> PendingEnd? in
            guard !s.ended else { return nil }
            s.ended = true
            let end = PendingEnd(event: event, callbacks: Array(s.requests.values), listeners: s.everyone)
            s.requests.removeAll()
            s.retireStreams()
            guard !s.delivering else {
                s.pendingEnd = end
                return nil
            }
            return end
        }
        guard let now else { return }
        for listener in now.listeners { listener.call(event) }
        finishRequests(now.callbacks, with: event)
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

/// A run's end, with who is to hear it: held until the event in hand has reached everyone when
/// it came during a delivery.
private final class PendingEnd: Sendable {
    let event: LocationEvent
    let callbacks: [LocationService.LocationCallback]
    let listeners: [Listener]

    init(event: LocationEvent, callbacks: [LocationService.LocationCallback], listeners: [Listener]) {
        self.event = event
        self.callbacks = callbacks
        self.listeners = listeners
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

/// The id of a request `currentFix` filed, for its cancellation handler, which may run before
/// the id is known.
private final class RequestID: Sendable {
    private let id = Mutex<Int?>(nil)

    func set(_ value: Int?) { id.withLock { $0 = value } }

    var value: Int? { id.withLock { $0 } }
}
