import GPSSystem
import GPSLocation

extension GpsdServer {
    /// Serves until `stop()`. Call it on a thread that can block: it sleeps in `poll`.
    /// `heartbeat`, when given, is called from the loop, first as it starts.
    public func run(heartbeat: Heartbeat? = nil) {
        var loop = ServerLoop(server: self, heartbeat: heartbeat)
        loop.run()
    }
}

/// The server's one thread: accepts, reads requests, answers, and writes what the source
/// published to each client that watches (and to NMEA's clients and datagram address), never
/// blocking on any of them.
struct ServerLoop {
    let server: GpsdServer
    var clients: [Client] = []
    var acceptPausedUntil = 0.0
    /// Sentences the datagram address did not get since sending last worked, and why.
    var datagramsLost = 0
    let heartbeat: Heartbeat?
    var nextBeat = 0.0
    /// DEVICES and POLL, encoded once for every client that asks; the devices' paths.
    var cache: ReplyCache
    /// When the log throttle's held counts are next looked at.
    var nextCounts = 0.0
    /// When the event streams are next sent every device's STATUS, and a keep-alive.
    var nextStatus = 0.0
    var nextKeepAlive = 0.0
    /// `/api/now` and `/metrics` as last built, and when: a peer asking many times a second
    /// (a connection each) is answered from these, so it costs the loop a copy, not a build.
    var snapshotCache: (at: Double, body: [UInt8])?
    var metricsCache: (at: Double, body: [UInt8])?
    var config: ServerConfiguration { server.configuration }

    init(server: GpsdServer, heartbeat: Heartbeat?) {
        self.server = server
        self.heartbeat = heartbeat
        cache = ReplyCache(limit: server.configuration.replyLimit)
    }

    mutating func run() {
        var fds = PollSet()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var counted: [ObjectIdentifier] = []
        var sentences = false
        while true {
            fds.removeAll()
            fds.append(server.wake.descriptor, for: .readable)
            // Out of descriptors, a waiting connection cannot be taken: stop asking for a
            // while rather than spin on a listener that is always ready.
            let accepting: Readiness = Clocks.monotonicSeconds < acceptPausedUntil ? [] : .readable
            for listener in server.listeners { fds.append(listener.descriptor, for: accepting) }
            // Absent, it holds its place unpolled, and the clients' indices stay put.
            let nmeaIndex = fds.append(server.nmeaListenerFD, for: accepting)
            let httpIndex = fds.append(server.httpListener?.descriptor, for: accepting)
            let firstClient = fds.count
            for client in clients {
                fds.append(client.descriptor, for: client.outbox.isEmpty ? .readable : [.readable, .writable])
            }
            // The timeout only paces the client timers and the heartbeat; news wakes the loop
            // through the pipe.
            var timeout = 0.25
            if let heartbeat {
                if Clocks.monotonicSeconds >= nextBeat {
                    heartbeat.beat()
                    // Counted from the end of this beat: never two closer than asked.
                    nextBeat = Clocks.monotonicSeconds + heartbeat.interval.inSeconds
                }
                timeout = min(timeout, nextBeat - Clocks.monotonicSeconds)
            }
            do {
                try fds.wait(seconds: timeout)
            } catch {
                server.log("gpsfix: serve: poll failed: \(error)")
            }
            // Timers run on the monotonic clock; what clients are told is stamped by the wall clock.
            let now = Clocks.monotonicSeconds

            if !fds.ready(at: 0).isEmpty {
                server.wake.drain()
                if takePublished(now: now) { break }
            }
            for (index, client) in clients.enumerated() {
                if !fds.ready(at: firstClient + index).isDisjoint(with: .readableOrGone) { receive(client, now: now, buffer: &buffer) }
            }
            for (index, listener) in server.listeners.enumerated() where fds.ready(at: 1 + index).contains(.readable) {
                acceptClients(.gpsd, now: now, from: listener.accept)
            }
            if fds.ready(at: nmeaIndex).contains(.readable) { acceptClients(.nmea, now: now, from: server.acceptNMEA) }
            if fds.ready(at: httpIndex).contains(.readable), let listener = server.httpListener {
                acceptClients(.http, now: now, from: listener.accept)
            }
            tellEventStreams(now: now)
            // Before anything is written: a client that has its greeting is counted.
            count(&counted, &sentences)
            for client in clients where !client.closed { flush(client, now: now) }
            expire(now: now)
            clients.removeAll { $0.closed }
            count(&counted, &sentences)
            tellHeldCounts(now: now)
        }
        for client in clients {
            _ = client.outbox.flush(now: Clocks.monotonicSeconds)
            client.close()
        }
        clients.removeAll()
        for line in server.throttle.flush() { server.log("gpsfix: serve: " + line) }
    }

    /// Tells what the log throttle held back in windows that have ended, about once a
    /// second, so that a count is told even when no more of its kind come.
    private mutating func tellHeldCounts(now: Double) {
        guard now >= nextCounts else { return }
        nextCounts = now + 1
        for line in server.throttle.due() { server.log("gpsfix: serve: " + line) }
    }

    /// Tells the sources which clients there are (`clientCount`, the outboxes they write
    /// to) when that has changed, and whether anyone now takes the sentences (a `?WATCH` may
    /// have just asked for them).
    private func count(_ counted: inout [ObjectIdentifier], _ sentences: inout Bool) {
        let wanted = clients.contains { !$0.closed && $0.wantsSentences }
        let present = clients.map { ObjectIdentifier($0) }
        guard present != counted || wanted != sentences else { return }
        counted = present
        sentences = wanted
        // The page's event streams last: gpsd's and NMEA's clients are written first, so a
        // room full of browsers adds nothing to their latency.
        let outboxes = clients.filter { $0.kind != .http }.map(\.outbox) + clients.filter { $0.kind == .http }.map(\.outbox)
        var counts = GpsdServer.ClientCounts()
        for client in clients {
            switch client.kind {
            case .gpsd: counts.gpsd += 1
            case .nmea: counts.nmea += 1
            case .http: counts.http += 1
            }
        }
        server.shared.withLock {
            $0.outboxes = outboxes
            $0.clientCount = outboxes.count
            $0.clientCounts = counts
        }
        server.sentencesWatched.store(wanted, ordering: .relaxed)
    }

    /// Sends what waits for the datagram address. Returns true on stop.
    private mutating func takePublished(now: Double) -> Bool {
        let (sentences, stopping, overflow) = server.shared.withLock { s -> ([[UInt8]], Bool, Int) in
            defer { s.pending.removeAll(keepingCapacity: true); s.overflow = 0; s.wakePending = false }
            return (s.pending, s.stopping, s.overflow)
        }
        if overflow > 0 { server.log("gpsfix: serve: fell behind the source; \(overflow) sentences not sent to the datagram address") }
        for line in sentences { sendDatagram(line) }
        return stopping
    }

    /// Sends one sentence to the datagram address, if there is one; a datagram the kernel
    /// will not take is lost and counted, never waited for.
    private mutating func sendDatagram(_ line: [UInt8]) {
        guard let datagrams = server.datagrams, let target = config.nmeaDatagramAddress else { return }
        do {
            try datagrams.send(line)
            if datagramsLost > 0 {
                server.log("gpsfix: serve: sending NMEA to \(target) again; \(datagramsLost) sentences were not sent")
                datagramsLost = 0
            }
        } catch {
            if datagramsLost == 0 {
                server.log("gpsfix: serve: cannot send NMEA to \(target) (\(error)); counting the sentences lost until it can")
            }
            datagramsLost += 1
        }
    }

    private func flush(_ client: Client, now: Double) {
        let flushed = client.outbox.flush(now: now)
        switch flushed.progress {
        case .drained:
            // The large reply is out: back to holding little in the kernel.
            if client.widened { client.setSendBuffer(Client.sendBuffer) }
            if flushed.droppedBefore > 0 {
                server.peerLog("reading-again", "clients reading again after reports were dropped",
                               "client \(client.peer) is reading again; \(flushed.droppedBefore) reports were dropped for it")
            }
            if client.closing { client.close() }
        case .blocked:
            break
        case .failed:
            client.close()
        }
    }
}
