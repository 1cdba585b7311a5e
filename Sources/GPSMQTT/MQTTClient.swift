import GPSSystem
import Synchronization

/// A connection to an MQTT broker that stays up by itself: it connects on a thread of its own,
/// tries again with back-off while the broker is away (at the start too: a service may come up
/// before its broker), subscribes again on each connection, and keeps what is published while
/// disconnected in a bounded queue.
///
/// `publish` may be called from any thread and never blocks: it queues and wakes the client's
/// thread, which alone calls libmosquitto. Events are told on that thread, in order (but
/// `dropped`, told by the `publish` that dropped).
public final class MQTTClient: Sendable {
    /// What the client tells its owner, on the client's own thread, in order (all but
    /// ``dropped(total:)``): a handler that blocks holds up the connection (and its pings) for
    /// as long.
    public enum Event: Sendable, Equatable {
        /// Connected and accepted (and subscribed, when asked). `droppedWhileAway`: messages
        /// the full queue dropped since the connection before was lost (or since the start, if
        /// the broker was not there then): the outage's whole loss, told as publishing resumes.
        case connected(droppedWhileAway: Int)
        /// Not connected, and trying again in `retry`: the broker is absent at the start, went
        /// away, or restarted.
        case disconnected(MQTTError, retry: Duration)
        /// Cannot go on: the broker refused the login, or TLS failed. The client has stopped.
        case failed(MQTTError)
        /// A message published to one of `settings.subscriptions`' filters: `topic` as the
        /// broker sent it and the payload's bytes, unread; both are a peer's (whoever may
        /// publish there). With `settings.maximumPacketSize` set, the broker sends no larger
        /// packet, so no payload is larger either.
        case message(topic: String, payload: [UInt8])
        /// The queue was full: messages dropped so far, told at the first, the 100th, the
        /// 1000th and each power of ten (a long outage is a few lines, not one per 100); the
        /// outage's whole loss comes with `.connected`. Told on the thread whose `publish`
        /// found the queue full, not the client's.
        case dropped(total: Int)
        /// About a second has passed while connected: for work that waits on time (a fleet's
        /// silent vehicles, log counts held back), on the client's thread like the rest.
        case tick
    }

    /// Messages kept while the broker is away (QoS 1); the oldest go first when it is full.
    /// 1024 holds about 50 s of a 10 Hz receiver's TPV and SKY.
    public static let defaultQueueCapacity = 1024
    /// Messages handed to libmosquitto and not yet acknowledged, at most: the rest wait in our
    /// queue, so the bound holds over everything not yet delivered.
    static let window = 64
    /// Packets read from the socket a turn at most, before their news is handled: 16 of a
    /// reader's largest (`MQTTManager.maximumPacketSize`) are about 1 MB held at once.
    static let readBatch = 16

    /// The broker, login, TLS, will, birth and subscriptions it was made with; the same on
    /// every connection.
    public let settings: MQTTSettings
    private let onEvent: @Sendable (Event) -> Void
    private let wakeup: Wakeup?
    private let shared: Mutex<Shared>
    private let ended = Atomic<Bool>(false)

    private struct Shared: Sendable {
        var queue: OutboundQueue
        var stopping = false
        var started = false
        var connected = false
        var published = 0
        /// `queue.dropped` when the broker was last lost (or the start), until it is back.
        var droppedAtOutage: Int? = 0
        /// The client's own thread, while it runs: a stop from there cannot wait for its end.
        var thread: ThreadIdentity?
    }

    /// A client that connects with `settings` once started, keeps at most `queueCapacity` (> 0)
    /// messages while the broker is away (``defaultQueueCapacity``), and tells `onEvent` what
    /// happens, on its own thread. Nothing happens until ``start()``.
    public init(settings: MQTTSettings, queueCapacity: Int = MQTTClient.defaultQueueCapacity,
                onEvent: @escaping @Sendable (Event) -> Void) {
        self.settings = settings
        self.onEvent = onEvent
        wakeup = Wakeup()
        shared = Mutex(Shared(queue: OutboundQueue(capacity: queueCapacity)))
    }

    /// Starts connecting, on the client's own thread. A second start does nothing.
    public func start() {
        let first = shared.withLock { s -> Bool in
            defer { s.started = true }
            return !s.started
        }
        guard first else { return }
        spawnThread(name: "gpsfix-mqtt") { [self] in
            shared.withLock { $0.thread = .current }
            ClientLoop(client: self).main()
            ended.store(true, ordering: .releasing)
        }
    }

    /// Connects and serves the broker on the calling thread (a source's run) until stopped or
    /// refused: `start()` without a thread of its own. A second start does nothing.
    package func run() {
        let first = shared.withLock { s -> Bool in
            defer { s.started = true }
            return !s.started
        }
        guard first else { return }
        ClientLoop(client: self).main()
        ended.store(true, ordering: .releasing)
    }

    /// Queues `message`; while the broker is away (at the start too) it waits in the bounded
    /// queue, whatever its QoS: QoS 1 is then delivered at least once, QoS 0 at most once.
    public func publish(_ message: MQTTMessage) {
        let (accepted, dropped) = shared.withLock { s -> (Bool, Int?) in
            guard !s.stopping else { return (false, nil) }
            let overflowed = s.queue.push(message)
            let total = s.queue.dropped
            return (true, overflowed && Self.isTold(total) ? total : nil)
        }
        if accepted { wakeup?.signal() }
        if let dropped { onEvent(.dropped(total: dropped)) }
    }

    /// 1, 100, 1000, 10000…
    static func isTold(_ dropped: Int) -> Bool {
        guard dropped >= 100 else { return dropped == 1 }
        var n = dropped
        while n % 10 == 0 { n /= 10 }
        return n == 1
    }

    /// Sends what is queued (for up to `within`), says goodbye to the broker, and ends the
    /// thread; returns once it has, or `within` has passed. Called on the client's own thread
    /// (from an event's handler: a reader that has seen enough), it returns at once, and the
    /// thread ends when the handler returns, rather than wait out `within` for itself.
    public func stop(within patience: Duration = .seconds(2)) {
        let running = shared.withLock { s -> Bool in
            s.stopping = true
            let own = s.thread == .current
            return s.started && !own
        }
        wakeup?.signal()
        guard running else { return }
        let deadline = Clocks.monotonicSeconds + patience.inSeconds
        while !ended.load(ordering: .acquiring), Clocks.monotonicSeconds < deadline { Clocks.sleep(for: .milliseconds(5)) }
    }

    /// Messages dropped because the queue was full, since the start.
    public var dropped: Int { shared.withLock { $0.queue.dropped } }
    /// Messages waiting in the queue for the broker now (at most the capacity it was made with).
    public var queued: Int { shared.withLock { $0.queue.count } }
    /// Messages the broker has taken (QoS 1: acknowledged; QoS 0: sent).
    public var published: Int { shared.withLock { $0.published } }
    /// Whether the broker has accepted the connection and it has not been lost since; from any
    /// thread, already stale when read (for a status line, not to decide whether to publish).
    public var isConnected: Bool { shared.withLock { $0.connected } }

    // For the loop.

    fileprivate var stopping: Bool { shared.withLock { $0.stopping } }
    /// Marks the connection up or down; coming up, the messages dropped while it was down.
    @discardableResult
    fileprivate func setConnected(_ value: Bool) -> Int {
        shared.withLock { s in
            s.connected = value
            if !value {
                s.droppedAtOutage = s.droppedAtOutage ?? s.queue.dropped
                return 0
            }
            defer { s.droppedAtOutage = nil }
            return s.droppedAtOutage.map { s.queue.dropped - $0 } ?? 0
        }
    }
    fileprivate func countPublished(_ n: Int) { shared.withLock { $0.published += n } }
    fileprivate func next(ifBelow window: Int, outstanding: Int) -> MQTTMessage? {
        guard outstanding < window else { return nil }
        return shared.withLock { $0.queue.pop() }
    }
    fileprivate func tell(_ event: Event) { onEvent(event) }
    fileprivate var wake: Wakeup? { wakeup }
}

/// The client's thread: connect, serve the connection, wait and connect again, until stopped
/// or refused.
private struct ClientLoop {
    let client: MQTTClient

    enum End {
        case stopped
        case lost(MQTTError)
        case failed(MQTTError)
    }

    func main() {
        let connection: MosquittoConnection
        do {
            connection = try MosquittoConnection(client.settings)
        } catch {
            return client.tell(.failed(error))
        }
        guard let wakeup = client.wake else {
            return client.tell(.failed(.badSetting("no descriptor left for the MQTT client's wake-up pipe")))
        }
        var delay = client.settings.firstRetry
        var first = true
        while !client.stopping {
            let end: End
            if let error = connection.connect(first: first) {
                end = error.isFatal ? .failed(error) : .lost(error)
            } else {
                first = false
                end = serve(connection, wakeup: wakeup) { delay = client.settings.firstRetry }
            }
            client.setConnected(false)
            switch end {
            case .stopped:
                return
            case .failed(let error):
                return client.tell(.failed(error))
            case .lost(let error):
                client.tell(.disconnected(error, retry: delay))
                if wakeup.sleep(delay) { wakeup.drain() }
                // Time goes on while the broker is away: what waits on it (a fleet's quiet
                // vehicles forgotten, counts a log holds back) is told, once per retry.
                if !client.stopping { client.tell(.tick) }
                delay = min(delay * 2, client.settings.longestRetry)
            }
        }
    }

    /// Reads, writes and pings on one connection until it is lost, refused or stopped.
    private func serve(_ connection: MosquittoConnection, wakeup: Wakeup, accepted: () -> Void) -> End {
        var outstanding = 0
        var connected = false
        var stopDeadline: Double?
        var nextTick = Clocks.monotonicSeconds + 1
        var fds = PollSet()
        while true {
            if connected, stopDeadline == nil, Clocks.monotonicSeconds >= nextTick {
                nextTick = Clocks.monotonicSeconds + 1
                client.tell(.tick)
            }
            for news in connection.takeNews() {
                switch news {
                case .connack(0):
                    for filter in client.settings.subscriptions {
                        if let error = connection.subscribe(filter, qos: client.settings.subscriptionQoS) { return .failed(error) }
                    }
                    for message in client.settings.birth where connection.publish(message) != nil { outstanding += 1 }
                    connected = true
                    let dropped = client.setConnected(true)
                    accepted()
                    client.tell(.connected(droppedWhileAway: dropped))
                case .connack(let code):
                    return .failed(connection.refusal(code))
                case .disconnected:
                    if stopDeadline != nil { return .stopped }
                    return .lost(.unreachable(broker: client.settings.broker, reason: "the broker closed the connection"))
                case .message(let topic, let payload):
                    client.tell(.message(topic: topic, payload: payload))
                case .published:
                    outstanding = max(0, outstanding - 1)
                    client.countPublished(1)
                }
            }
            if connected {
                while let message = client.next(ifBelow: MQTTClient.window, outstanding: outstanding) {
                    // A message libmosquitto refuses (a topic it finds invalid) cannot be sent at all.
                    if connection.publish(message) != nil { outstanding += 1 }
                }
            }
            if client.stopping {
                let now = Clocks.monotonicSeconds
                if stopDeadline == nil { stopDeadline = now + 1 }
                // Goodbye once what was queued has been written (or the time is up).
                if !connected || (!connection.wantsWrite && outstanding == 0) || now > stopDeadline! {
                    connection.disconnect()
                    _ = connection.write()
                    return .stopped
                }
            }
            guard connection.socket >= 0 else { return .lost(.unreachable(broker: client.settings.broker, reason: "connection closed")) }
            fds.removeAll()
            fds.append(FileDescriptor(rawValue: connection.socket), for: connection.wantsWrite ? [.readable, .writable] : .readable)
            fds.append(wakeup.descriptor, for: .readable)
            // Woken by a publish or a stop; otherwise once a second for keep-alive.
            _ = try? fds.wait(timeout: stopDeadline == nil ? .seconds(1) : .milliseconds(20))
            if !fds.ready(at: 1).isEmpty { wakeup.drain() }
            let socketEvents = fds.ready(at: 0)
            if !socketEvents.isDisjoint(with: .readableOrGone) {
                // libmosquitto reads one QoS 0 packet a call: a backlog (a fleet of thousands)
                // is taken up to `readBatch` packets a turn rather than one poll per packet, or
                // the broker's PINGRESP, queued behind it, comes too late for the keep-alive.
                for _ in 0..<MQTTClient.readBatch {
                    let before = connection.newsCount
                    if let error = connection.read() { return ended(error, connection, stopping: stopDeadline != nil) }
                    if connection.newsCount == before { break }
                }
            }
            if socketEvents.contains(.writable), let error = connection.write() {
                return ended(error, connection, stopping: stopDeadline != nil)
            }
            if let error = connection.misc() { return ended(error, connection, stopping: stopDeadline != nil) }
        }
    }

    private func ended(_ error: MQTTError, _ connection: MosquittoConnection, stopping: Bool) -> End {
        if stopping { return .stopped }
        // A refused CONNACK ends the read with "connection refused": the broker's own code,
        // told just before, says why (a bad password is not an absent broker).
        for case .connack(let code) in connection.takeNews() where code != 0 {
            return .failed(connection.refusal(code))
        }
        return error.isFatal ? .failed(error) : .lost(error)
    }
}
