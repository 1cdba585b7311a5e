import Glibc

/// One connected client, as the server loop sees it. Touched only by the loop's thread.
final class Client {
    let fd: Int32
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

    init(fd: Int32, peer: String, now: Double, queueLimit: Int, requestLimit: Int) {
        self.fd = fd
        self.peer = peer
        scanner = RequestScanner(limit: requestLimit)
        queue = OutputQueue(limit: queueLimit)
        lastRequest = now
        lastProgress = now
    }

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
