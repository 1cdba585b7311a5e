import Synchronization

/// What a `LocationService` holds of one stream being iterated: told every event on the
/// source's thread, and ended at once by a stop on any thread.
protocol UpdateSink: AnyObject, Sendable {
    func receive(_ event: LocationEvent)
    /// The service was stopped: what is buffered is dropped, and the stream ends now.
    func stop()
}

/// One iteration's events, between the source's thread and the task that iterates: at most
/// `limit` elements are held, the oldest giving way (and counted in `dropped`), so a consumer
/// slower than its source keeps a bounded backlog rather than the whole run. The terminal
/// element (`.finished`/`.stopped` in `updates()`) is kept beyond the limit: it is never the
/// one dropped.
final class UpdateBuffer<Element: Sendable>: UpdateSink {
    typealias Waiter = CheckedContinuation<Result<Element?, LocationError>, Never>

    private enum End {
        case finished
        case failed(LocationError)
    }

    private struct State {
        /// Held elements from `head` on; the room before `head` is reused once it empties.
        var held: [Element] = []
        var head = 0
        var end: End?
        /// The iterating task, waiting for the next element.
        var waiter: Waiter?
        /// Left (cancelled, or its iterator gone): nothing more is held or handed out.
        var closed = false

        var isEmpty: Bool { head == held.count }

        mutating func pop() -> Element? {
            guard !isEmpty else { return nil }
            let element = held[head]
            head += 1
            if head == held.count {
                held.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= held.count {
                held.removeFirst(head)
                head = 0
            }
            return element
        }

        /// What a waiter is given when nothing is held: the end, once.
        mutating func ending() -> Result<Element?, LocationError>? {
            if closed { return .success(nil) }
            switch end {
            case nil: return nil
            case .finished: return .success(nil)
            case .failed(let error):
                end = .finished   // thrown once; the next call finds the stream over
                return .failure(error)
            }
        }
    }

    private let limit: Int
    private let select: @Sendable (LocationEvent) -> Element?
    private let dropped: DropCount
    private let state = Mutex(State())

    /// `select` says which events the stream passes on, and as what (nil: not this one).
    init(limit: Int, dropped: DropCount, select: @escaping @Sendable (LocationEvent) -> Element?) {
        self.limit = max(1, limit)
        self.dropped = dropped
        self.select = select
    }

    // MARK: From the source's thread

    func receive(_ event: LocationEvent) {
        if event.isTerminal {
            if case .error(let error) = event { return end(.failed(error), last: nil, discarding: false) }
            return end(.finished, last: select(event), discarding: false)
        }
        guard let element = select(event) else { return }
        let waiter = state.withLock { s -> Waiter? in
            guard s.end == nil, !s.closed else { return nil }
            if let waiter = s.waiter {
                s.waiter = nil
                return waiter
            }
            s.held.append(element)
            if s.held.count - s.head > limit {
                _ = s.pop()
                dropped.add()
            }
            return nil
        }
        waiter?.resume(returning: .success(element))
    }

    func stop() {
        end(.finished, last: select(.status(.stopped)), discarding: true)
    }

    private func end(_ end: End, last: Element?, discarding: Bool) {
        let (waiter, result) = state.withLock { s -> (Waiter?, Result<Element?, LocationError>?) in
            guard !s.closed else { return (nil, nil) }
            if discarding {
                // A stop drops the backlog even of a run that had ended: nothing held arrives
                // after it.
                s.held.removeAll()
                s.head = 0
            } else if s.end != nil {
                return (nil, nil)
            }
            if s.end == nil {
                if let last { s.held.append(last) }
                s.end = end
            }
            guard let waiter = s.waiter else { return (nil, nil) }
            s.waiter = nil
            // A waiter means nothing was held before this end.
            return (waiter, s.pop().map { .success($0) } ?? s.ending())
        }
        if let waiter, let result { waiter.resume(returning: result) }
    }

    // MARK: From the iterating task

    /// The next element, the end, or nil when the caller must wait (`wait(_:)`).
    func poll() -> Result<Element?, LocationError>? {
        state.withLock { s in
            if s.closed { return .success(nil) }
            if let element = s.pop() { return .success(element) }
            return s.ending()
        }
    }

    /// Waits for the next element or the end; resumed at once if one is already there.
    func wait(_ waiter: Waiter) {
        let ready = state.withLock { s -> Result<Element?, LocationError>? in
            if s.closed { return .success(nil) }
            if let element = s.pop() { return .success(element) }
            if let end = s.ending() { return end }
            s.waiter = waiter
            return nil
        }
        if let ready { waiter.resume(returning: ready) }
    }

    /// The consumer has gone (cancelled, or its loop left): a waiting `next()` returns nil.
    func close() {
        let waiter = state.withLock { s -> Waiter? in
            s.closed = true
            s.held.removeAll()
            s.head = 0
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(returning: .success(nil))
    }
}

/// Elements a stream let go because its consumer fell more than its limit behind, over every
/// iteration of one `LocationUpdates` value.
final class DropCount: Sendable {
    private let count = Atomic<Int>(0)

    func add() { count.add(1, ordering: .relaxed) }

    var value: Int { count.load(ordering: .relaxed) }
}
