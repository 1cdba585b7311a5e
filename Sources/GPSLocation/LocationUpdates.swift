import NMEA
import Synchronization

/// A stream of a `LocationService`'s news, made by `updates()` (every event) or `positions()`
/// (fixes with a position), that behaves as CoreLocation's `liveUpdates()`:
///
/// - **It starts on iteration.** Making the stream does nothing; the first `next()` of an
///   iteration subscribes and starts the source if it is not running.
/// - **It is bounded.** Each iteration holds at most `limit` elements (100 unless said
///   otherwise) that its consumer has not taken yet; past that the oldest gives way, and
///   `dropped` counts what was let go. A consumer slower than its source sees the newest news
///   and a backlog of `limit`, never the whole run: its memory stays flat.
/// - **Leaving stops the source.** `break`, a `return` out of the loop, or cancelling the
///   iterating task ends the iteration (a cancelled `next()` returns nil at once); when the
///   last consumer leaves a source that was started for streams or requests, the source is
///   stopped. A source started with `start()` or `subscribe(_:)` runs until `stop()`.
/// - **It ends with the run.** A source that finishes (`.finished`) or is stopped ends the
///   stream normally (`next()` returns nil); `stop()` ends it at once, dropping what was held.
///   A source that fails throws its `LocationError` from `next()`, after the elements held
///   before the failure; the error is thrown once, and the stream is over.
///
/// Each iteration is a consumer of its own: two loops over one stream, or over two streams of
/// one service, each get every element. A stream holds its service (and so the source) alive
/// while it is iterated. Iterate a stream from one task at a time.
public struct LocationUpdates<Element: Sendable>: AsyncSequence, Sendable {
    /// What a loop over the stream throws: the source's failure.
    public typealias Failure = LocationError

    private let service: LocationService
    private let limit: Int
    private let select: @Sendable (LocationEvent) -> Element?
    private let drops = DropCount()

    init(service: LocationService, limit: Int, select: @escaping @Sendable (LocationEvent) -> Element?) {
        self.service = service
        self.limit = Swift.max(1, limit)
        self.select = select
    }

    /// The most elements an iteration holds for a consumer that is behind.
    public var bufferLimit: Int { limit }

    /// How many elements were let go, over every iteration of this stream so far, because a
    /// consumer was more than `bufferLimit` behind. Zero for a consumer that keeps up.
    public var dropped: Int { drops.value }

    /// A new consumer; it subscribes on its first `next()`.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(service: service, makeBuffer: { [limit, drops, select] in
            UpdateBuffer(limit: limit, dropped: drops, select: select)
        })
    }

    /// One consumer's iteration: subscribed on its first `next()`, let go when it ends, is
    /// cancelled, or is dropped.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// What `next()` throws: the source's failure.
        public typealias Failure = LocationError

        private let service: LocationService
        private let makeBuffer: @Sendable () -> UpdateBuffer<Element>
        private var subscription: Subscription<Element>?
        private var over = false

        init(service: LocationService, makeBuffer: @escaping @Sendable () -> UpdateBuffer<Element>) {
            self.service = service
            self.makeBuffer = makeBuffer
        }

        /// The next element; nil once the run has finished or been stopped, or the task is
        /// cancelled. Throws the source's failure.
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(LocationError) -> Element? {
            guard !over else { return nil }
            if Task.isCancelled { return leave() }
            let subscription: Subscription<Element>
            if let current = self.subscription {
                subscription = current
            } else {
                subscription = Subscription(service: service, buffer: makeBuffer())
                self.subscription = subscription
                subscription.join()
            }
            let buffer = subscription.buffer
            let result: Result<Element?, LocationError>
            if let ready = buffer.poll() {
                result = ready
            } else {
                result = await withTaskCancellationHandler {
                    await withCheckedContinuation(isolation: actor) { buffer.wait($0) }
                } onCancel: {
                    subscription.leave()
                }
            }
            switch result {
            case .success(let element?): return element
            case .success(nil): return leave()
            case .failure(let error):
                _ = leave()
                throw error
            }
        }

        /// As `next(isolation:)`, without an actor to stay on.
        public mutating func next() async throws(LocationError) -> Element? {
            try await next(isolation: nil)
        }

        private mutating func leave() -> Element? {
            over = true
            subscription?.leave()
            subscription = nil
            return nil
        }
    }
}

/// An iteration's place among the service's subscribers, given up once: when the iteration
/// ends, is cancelled, or its iterator is dropped (`break`).
final class Subscription<Element: Sendable>: Sendable {
    let buffer: UpdateBuffer<Element>
    private let service: LocationService
    private let id = Mutex<Int?>(nil)
    private let left = Atomic<Bool>(false)

    init(service: LocationService, buffer: UpdateBuffer<Element>) {
        self.service = service
        self.buffer = buffer
    }

    func join() {
        let joined = service.join(buffer)
        id.withLock { $0 = joined }
        // A cancellation that came while joining found no id to give back.
        if left.load(ordering: .acquiring) { release() }
    }

    func leave() {
        guard !left.exchange(true, ordering: .acquiringAndReleasing) else { return }
        buffer.close()
        release()
    }

    private func release() {
        guard let joined = id.withLock({ s -> Int? in defer { s = nil }; return s }) else { return }
        service.leave(joined)
    }

    deinit { leave() }
}
