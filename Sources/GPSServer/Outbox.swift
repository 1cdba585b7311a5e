import GPSSystem
import Synchronization

/// The writing side of one client, shared by the server loop and the sources' threads.
///
/// A report is written to the client's socket by the thread that published it, at once,
/// when nothing is queued before it: gpsd writes on the thread that parsed, and handing each
/// epoch to the loop's thread first cost a thread switch (about 100 µs on a 10 Hz receiver,
/// `Tools/probe/latency.py`). Every write is non-blocking: what the socket will not take now
/// waits in the client's bounded queue, which only the loop writes from (it polls the socket
/// for room), so a slow client never holds up a source. Every write and the close happen
/// under the one lock, so lines are never interleaved and a closed descriptor, whose number
/// the system may give to a new socket, is never written to.
final class Outbox: Sendable {
    let descriptor: FileDescriptor
    let kind: Client.Kind
    /// `127.0.0.1:43210`, for the log.
    let peer: String
    private let state: Mutex<State>

    private struct State {
        var queue: OutputQueue
        /// The watch the reports are chosen by (the loop's copy, given once its replies are queued).
        var policy = WatchPolicy()
        /// Reports it missed because its queue was full, since it last read everything.
        var dropped = 0
        /// When it last took bytes we had for it, and when it was last sent a report, a
        /// sentence or a device's news (not a reply): a watch that gets nothing is held to
        /// the same idle rule as a client that asks nothing.
        var lastProgress: Double
        var lastDelivered: Double
        var closed = false
    }

    init(descriptor: FileDescriptor, kind: Client.Kind, peer: String, queue: OutputQueue, now: Double) {
        self.descriptor = descriptor
        self.kind = kind
        self.peer = peer
        state = Mutex(State(queue: queue, lastProgress: now, lastDelivered: now))
    }

    /// What a line from a source is, for choosing who gets it.
    enum Line {
        case report, sentence, deviceNews
        /// PPS and TOFF: only to watchers that asked with `"pps":true`.
        case timing
        /// gpsfix's STATUS of a device: only to the page's event streams.
        case status
    }

    /// What `offer` did.
    struct Offered {
        /// The line was for this client and it is now written or queued.
        var taken = false
        /// It waits in the queue, which was empty: the loop must poll the socket for room.
        var queued = false
        /// It was dropped for a full queue, the first since the client last read everything.
        var firstDrop = false
    }

    /// Gives this client a line of device `path`, if its kind and watch want it: written now
    /// when nothing waits before it, queued otherwise (dropped, and counted, when the queue
    /// is full). Called on a source's thread.
    func offer(_ line: [UInt8], _ what: Line, path: String, now: Double) -> Offered {
        state.withLock { s in
            var offered = Offered()
            guard !s.closed, Self.wants(what, path: path, kind: kind, policy: s.policy) else { return offered }
            offered.taken = true
            s.lastDelivered = now
            guard s.queue.isEmpty else {
                if !s.queue.push(line) {
                    s.dropped += 1
                    offered.firstDrop = s.dropped == 1
                }
                return offered
            }
            s.lastProgress = now
            var sent = 0
            // An error (the peer has gone) leaves the line queued: the loop's write meets it
            // again and closes the client, in one place.
            if case .processed(let n)? = try? line.withUnsafeBytes({ raw throws(SystemError) in try descriptor.send(raw) }) {
                sent = n
            }
            if sent < line.count {
                s.queue.push(line, sent: sent)
                offered.queued = true
            }
            return offered
        }
    }

    private static func wants(_ what: Line, path: String, kind: Client.Kind, policy: WatchPolicy) -> Bool {
        switch (what, kind) {
        case (.sentence, .nmea): true
        case (_, .nmea): false
        // The event stream: every device's reports, its news and gpsfix's STATUS.
        case (.report, .http), (.deviceNews, .http), (.status, .http): policy.enable
        case (.sentence, .http), (.timing, .http): false
        case (.status, _): false
        case (.report, .gpsd): policy.wantsReports && policy.watches(path)
        case (.timing, .gpsd): policy.wantsTiming && policy.watches(path)
        case (.sentence, .gpsd): policy.wantsSentences && policy.watches(path)
        // gpsd tells watchers of either kind when a device comes and goes.
        case (.deviceNews, .gpsd): policy.enable && policy.json && policy.watches(path)
        }
    }

    // MARK: - The loop's side

    func watch(_ policy: WatchPolicy) {
        state.withLock { $0.policy = policy }
    }

    /// Queues a small answer of the loop's own; a full queue drops it, counted.
    func send(_ line: [UInt8], now: Double) {
        state.withLock { s in
            guard !s.closed else { return }
            if s.queue.isEmpty { s.lastProgress = now }
            if !s.queue.push(line) { s.dropped += 1 }
        }
    }

    /// Queues a reply in the replies' room; false when it has no room for it.
    func reply(_ line: [UInt8], now: Double) -> Bool {
        state.withLock { s in
            guard !s.closed else { return false }
            if s.queue.isEmpty { s.lastProgress = now }
            return s.queue.push(line, reply: true)
        }
    }

    /// How one `flush` went, and how many reports had been dropped before a queue that is
    /// now drained (the count starts again from 0).
    struct Flushed {
        var progress: OutputQueue.Progress
        var droppedBefore = 0
    }

    /// Writes as much of the queue as the socket takes now, without blocking.
    func flush(now: Double) -> Flushed {
        state.withLock { s in
            guard !s.closed else { return Flushed(progress: .drained(wrote: 0)) }
            var flushed = Flushed(progress: s.queue.flush(to: descriptor))
            switch flushed.progress {
            case .drained(let wrote), .blocked(let wrote):
                if wrote > 0 { s.lastProgress = now }
            case .failed:
                break
            }
            if case .drained = flushed.progress, s.dropped > 0 {
                flushed.droppedBefore = s.dropped
                s.dropped = 0
            }
            return flushed
        }
    }

    var isEmpty: Bool { state.withLock { $0.queue.isEmpty } }
    var replyBytes: Int { state.withLock { $0.queue.replyBytes } }
    var dropped: Int { state.withLock { $0.dropped } }
    var lastProgress: Double { state.withLock { $0.lastProgress } }
    var lastDelivered: Double { state.withLock { $0.lastDelivered } }
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Closes the socket; nothing is written to it after.
    func close() {
        state.withLock { s in
            guard !s.closed else { return }
            s.closed = true
            descriptor.close()
        }
    }
}
