import Glibc

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

    let fd: Int32
    let kind: Kind
    /// `127.0.0.1:43210`, for the log.
    let peer: String
    var policy = WatchPolicy()
    var scanner: RequestScanner
    var queue: OutputQueue
    /// When it last sent a request, and when it last took bytes we had for it.
    var lastRequest: Double
    /// Whether it has sent a request at all (a poller), or only connected.
    var hasAsked = false
    var lastProgress: Double
    /// Reports it missed because its queue was full.
    var dropped = 0
    /// Set when the client must go once what is queued has been written (or at once).
    var closing = false
    var closed = false

    init(fd: Int32, kind: Kind, peer: String, now: Double, queueLimit: Int, requestLimit: Int) {
        self.fd = fd
        self.kind = kind
        self.peer = peer
        scanner = RequestScanner(limit: requestLimit)
        queue = OutputQueue(limit: queueLimit)
        lastRequest = now
        lastProgress = now
    }

    /// Whether the sentences themselves go to this client.
    var wantsSentences: Bool { kind == .nmea || policy.wantsSentences }

    /// Queues a line; counts it as dropped when the client is too far behind to take it.
    func send(_ line: [UInt8], now: Double) {
        guard !closed else { return }
        if queue.isEmpty { lastProgress = now }
        if !queue.push(line) { dropped += 1 }
    }

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }
}
