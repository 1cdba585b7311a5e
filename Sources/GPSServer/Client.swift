import GPSSystem

/// One connected client, as the server loop sees it. Its requests, timers and limits are
/// touched only by the loop's thread; what is written to it goes through its `Outbox`, which
/// the sources' threads write to as well.
final class Client {
    /// What a client came for, by the port it connected to.
    enum Kind: Sendable {
        /// gpsd's protocol: greeted, sends requests, gets what its `?WATCH` asks for.
        case gpsd
        /// Bare NMEA (port 10110 by convention): every sentence as received, nothing else;
        /// what it sends is ignored.
        case nmea
        /// The web page's server: one request, answered and closed, or the event stream
        /// (`/events`), which then gets the reports framed as Server-Sent Events.
        case http

        /// Which pool of slots it takes: the page's clients have their own, so a browser's
        /// tabs never take a slot a gpsd client wants, nor the other way round.
        var isWeb: Bool { self == .http }
    }

    /// Owned: closed by `close()`.
    let descriptor: FileDescriptor
    let kind: Kind
    /// `127.0.0.1:43210`, for the log.
    let peer: String
    /// `127.0.0.1`: what the per-address limit counts by.
    let host: String
    /// Its writing side, shared with the sources' threads.
    let outbox: Outbox
    /// What its last `?WATCH` asked for. The outbox is given it with `watch(_:)`, once the
    /// replies that go before the reports are queued.
    private(set) var policy = WatchPolicy()
    var scanner: RequestScanner
    /// When it last sent a request.
    var lastRequest: Double
    /// Whether it has sent a request at all (a poller), or only connected.
    var hasAsked = false
    /// How often it may have the fleet listed.
    var listings: RequestRate
    /// Set when the client must go once what is queued has been written (or at once).
    var closing = false
    /// A web client's request head as it arrives; nil for other kinds.
    var httpRequest: HTTPRequestReader?
    /// Whether a web client's request has been answered (or its event stream begun).
    var httpAnswered = false

    init(descriptor: FileDescriptor, kind: Kind, peer: String, host: String, now: Double, configuration c: ServerConfiguration) {
        self.descriptor = descriptor
        self.kind = kind
        self.peer = peer
        self.host = host
        outbox = Outbox(descriptor: descriptor, kind: kind, peer: peer,
                        queue: OutputQueue(limit: c.queueLimit, replyLimit: c.replyLimit), now: now)
        scanner = RequestScanner(limit: c.requestLimit)
        if kind == .http { httpRequest = HTTPRequestReader(limit: c.httpHeadLimit) }
        listings = RequestRate(rate: c.requestRate, burst: c.requestBurst, now: now)
        lastRequest = now
    }

    /// Whether the sentences themselves go to this client.
    var wantsSentences: Bool { kind == .nmea || policy.wantsSentences }

    /// When it last did or got anything: what "idle" is measured from.
    var lastActivity: Double { max(lastRequest, outbox.lastDelivered) }

    var closed: Bool { outbox.isClosed }

    /// Its watch is now `policy`: the reports it asks for go to it from now on.
    func watch(_ policy: WatchPolicy) {
        self.policy = policy
        outbox.watch(policy)
    }

    /// Queues a small answer of the loop's own (behind what is queued).
    func send(_ line: [UInt8], now: Double) {
        outbox.send(line, now: now)
    }

    /// Queues a reply to its own request in the replies' room; false (nothing queued) when
    /// the replies it has not read yet leave no room for this one.
    func reply(_ line: [UInt8], now: Double) -> Bool {
        guard outbox.reply(line, now: now) else { return false }
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
        outbox.close()
    }
}
