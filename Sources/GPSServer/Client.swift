import GPSSystem

/// One connected client, as the server loop sees it. Touched only by the loop's thread.
final class Client {
    /// What a client came for, by the port it connected to.
    enum Kind {
        /// gpsd's protocol: greeted, sends requests, gets what its `?WATCH` asks for.
        case gpsd
        /// Bare NMEA (port 10110 by convention): every sentence as received, nothing else;
        /// what it sends is ignored.
        case nmea
    }

    /// Owned: closed by `close()`.
    let descriptor: FileDescriptor
    let kind: Kind
    /// `127.0.0.1:43210`, for the log.
    let peer: String
    /// `127.0.0.1`: what the per-address limit counts by.
    let host: String
    var policy = WatchPolicy()
    var scanner: RequestScanner
    var queue: OutputQueue
    /// When it last sent a request, and when it last took bytes we had for it.
    var lastRequest: Double
    /// Whether it has sent a request at all (a poller), or only connected.
    var hasAsked = false
    var lastProgress: Double
    /// When it was last sent a report, a sentence or a device's news (not a reply): a watch
    /// that gets nothing is held to the same idle rule as a client that asks nothing.
    var lastDelivered: Double
    /// How often it may have the fleet listed.
    var listings: RequestRate
    /// Reports it missed because its queue was full.
    var dropped = 0
    /// Set when the client must go once what is queued has been written (or at once).
    var closing = false
    var closed = false

    init(descriptor: FileDescriptor, kind: Kind, peer: String, host: String, now: Double, configuration c: ServerConfiguration) {
        self.descriptor = descriptor
        self.kind = kind
        self.peer = peer
        self.host = host
        scanner = RequestScanner(limit: c.requestLimit)
        queue = OutputQueue(limit: c.queueLimit, replyLimit: c.replyLimit)
        listings = RequestRate(rate: c.requestRate, burst: c.requestBurst, now: now)
        lastRequest = now
        lastProgress = now
        lastDelivered = now
    }

    /// Whether the sentences themselves go to this client.
    var wantsSentences: Bool { kind == .nmea || policy.wantsSentences }

    /// When it last did or got anything: what "idle" is measured from.
    var lastActivity: Double { max(lastRequest, lastDelivered) }

    /// Queues a line (a report, or a small answer); counts it as dropped when the client is
    /// too far behind to take it.
    func send(_ line: [UInt8], now: Double) {
        guard !closed else { return }
        if queue.isEmpty { lastProgress = now }
        if !queue.push(line) { dropped += 1 }
    }

    /// Queues a report, sentence or device news from a source: what it watches.
    func deliver(_ line: [UInt8], now: Double) {
        guard !closed else { return }
        lastDelivered = now
        send(line, now: now)
    }

    /// Queues a reply to its own request in the replies' room; false (nothing queued) when
    /// the replies it has not read yet leave no room for this one.
    func reply(_ line: [UInt8], now: Double) -> Bool {
        guard !closed else { return false }
        if queue.isEmpty { lastProgress = now }
        guard queue.push(line, reply: true) else { return false }
        if line.count > Self.sendBuffer && !widened { setSendBuffer(Self.replySendBuffer) }
        return true
    }

    /// What the kernel holds for a client: small, so that a client that stops reading shows up
    /// in its queue (bounded) rather than in memory the server cannot see.
    static let sendBuffer: Int32 = 16 * 1024
    /// While a large reply (a fleet's DEVICES or POLL) is written: 16 kB at a time, a 4 MB
    /// POLL took 256 rounds of the loop and, waiting on the reader's delayed ACKs, 2 s.
    /// (The kernel doubles it: 256 kB per client at most while its reply waits, 51 MB for 200.)
    static let replySendBuffer: Int32 = 128 * 1024
    /// Whether the send buffer is the larger one now.
    private(set) var widened = false

    func setSendBuffer(_ size: Int32) {
        descriptor.setSendBuffer(size)
        widened = size > Self.sendBuffer
    }

    func close() {
        guard !closed else { return }
        closed = true
        descriptor.close()
    }
}
