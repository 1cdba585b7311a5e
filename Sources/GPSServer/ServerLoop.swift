import GPSSystem
import Glibc
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
    var config: ServerConfiguration { server.configuration }

    init(server: GpsdServer, heartbeat: Heartbeat?) {
        self.server = server
        self.heartbeat = heartbeat
    }

    mutating func run() {
        var fds: [pollfd] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var counted = 0
        while true {
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: server.wake.descriptor, events: Int16(POLLIN), revents: 0))
            // Out of descriptors, a waiting connection cannot be taken: stop asking for a
            // while rather than spin on a listener that is always ready.
            let accepting = Clocks.monotonicSeconds < acceptPausedUntil ? 0 : Int16(POLLIN)
            for listener in server.listeners { fds.append(pollfd(fd: listener.fd, events: accepting, revents: 0)) }
            // Absent, it is polled as -1: poll skips it, and the clients' indices stay put.
            let nmeaIndex = fds.count
            fds.append(pollfd(fd: server.nmeaListenerFD, events: accepting, revents: 0))
            let firstClient = fds.count
            for client in clients {
                var events = Int16(POLLIN)
                if !client.queue.isEmpty { events |= Int16(POLLOUT) }
                fds.append(pollfd(fd: client.fd, events: events, revents: 0))
            }
            // The timeout only paces the client timers and the heartbeat; news wakes the loop
            // through the pipe.
            var timeout: Int32 = 250
            if let heartbeat {
                if Clocks.monotonicSeconds >= nextBeat {
                    heartbeat.beat()
                    // Counted from the end of this beat: never two closer than asked.
                    nextBeat = Clocks.monotonicSeconds + heartbeat.interval
                }
                timeout = min(timeout, Clocks.pollTimeout(nextBeat - Clocks.monotonicSeconds))
            }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno != EINTR { server.log("gpsfix: serve: poll failed: \(String(cString: strerror(errno)))") }
            // Timers run on the monotonic clock; what clients are told is stamped by the wall clock.
            let now = Clocks.monotonicSeconds

            if fds[0].revents != 0 {
                server.wake.drain()
                if takePublished(now: now) { break }
            }
            for (index, client) in clients.enumerated() {
                let revents = fds[firstClient + index].revents
                if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { receive(client, now: now, buffer: &buffer) }
            }
            for (index, listener) in server.listeners.enumerated() where fds[1 + index].revents & Int16(POLLIN) != 0 {
                acceptClients(.gpsd, now: now, from: listener.accept)
            }
            if fds[nmeaIndex].revents & Int16(POLLIN) != 0 { acceptClients(.nmea, now: now, from: server.acceptNMEA) }
            // Before anything is written: a client that has its greeting is counted.
            count(&counted)
            for client in clients where !client.closed { flush(client, now: now) }
            expire(now: now)
            clients.removeAll { $0.closed }
            count(&counted)
        }
        for client in clients {
            _ = client.queue.flush(to: client.fd)
            client.close()
        }
        clients.removeAll()
    }

    /// Tells `clientCount` when the number has changed.
    private func count(_ counted: inout Int) {
        guard clients.count != counted else { return }
        counted = clients.count
        let now = counted
        server.shared.withLock { $0.clientCount = now }
    }

    /// Moves what the source published to the clients that want it. Returns true on stop.
    private mutating func takePublished(now: Double) -> Bool {
        let (items, stopping, overflow, paths) = server.shared.withLock { s -> ([GpsdServer.Outgoing], Bool, Int, [String]) in
            defer { s.pending.removeAll(keepingCapacity: true); s.overflow = 0; s.wakePending = false }
            return (s.pending, s.stopping, s.overflow, s.devices.map(\.description.path))
        }
        if overflow > 0 { server.log("gpsfix: serve: fell behind the source; \(overflow) reports dropped for everyone") }
        for item in items {
            switch item {
            case .report(let line, let device):
                let path = paths[device]
                for client in clients where client.policy.wantsReports && client.policy.watches(path) {
                    deliver(line, to: client, now: now)
                }
            case .sentence(let line, let device):
                // The NMEA port's clients get every device's sentences; gpsd's, the ones watched.
                let path = paths[device]
                for client in clients where client.wantsSentences && (client.kind == .nmea || client.policy.watches(path)) {
                    deliver(line, to: client, now: now)
                }
                sendDatagram(line)
            case .device(let line, let device):
                // gpsd tells watchers of either kind when a device comes and goes.
                let path = paths[device]
                for client in clients where client.policy.enable && client.policy.json && client.policy.watches(path) {
                    deliver(line, to: client, now: now)
                }
            }
        }
        return stopping
    }

    private func deliver(_ line: [UInt8], to client: Client, now: Double) {
        let before = client.dropped
        client.send(line, now: now)
        if client.dropped > before && before == 0 {
            server.log("gpsfix: serve: client \(client.peer) is not reading; dropping reports for it until it does")
        }
    }

    /// Sends one sentence to the datagram address, if there is one; a datagram the kernel
    /// will not take is lost and counted, never waited for.
    private mutating func sendDatagram(_ line: [UInt8]) {
        guard let datagrams = server.datagrams else { return }
        do {
            try datagrams.send(line)
            if datagramsLost > 0 {
                server.log("gpsfix: serve: sending NMEA to \(datagrams.target) again; \(datagramsLost) sentences were not sent")
                datagramsLost = 0
            }
        } catch {
            if datagramsLost == 0 {
                server.log("gpsfix: serve: cannot send NMEA to \(datagrams.target) (\(error)); counting the sentences lost until it can")
            }
            datagramsLost += 1
        }
    }

    /// Takes every waiting connection that `accept` has, as clients of `kind`.
    private mutating func acceptClients(_ kind: Client.Kind, now: Double, from accept: () -> Listener.Accepted) {
        while true {
            let fd: Int32, peer: String
            switch accept() {
            case .client(let f, let p):
                (fd, peer) = (f, p)
            case .none:
                return
            case .exhausted(let reason):
                server.log("gpsfix: serve: cannot take a new client (\(reason)); trying again in a second")
                acceptPausedUntil = now + 1
                return
            }
            // A small send buffer keeps what the kernel holds per client small, so that a
            // client that stops reading shows up in its queue (bounded) rather than in memory
            // the server cannot see.
            var size: Int32 = 16 * 1024
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            var on: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            let client = Client(fd: fd, kind: kind, peer: peer, now: now, queueLimit: config.queueLimit, requestLimit: config.requestLimit)
            guard clients.count < config.maxClients else {
                // NMEA has no way to say why: its client is only closed.
                if kind == .gpsd { client.send(Reports.error("Too many clients (\(config.maxClients)); try again later"), now: now) }
                _ = client.queue.flush(to: fd)
                client.close()
                server.log("gpsfix: serve: refused \(peer): already serving \(config.maxClients) clients")
                continue
            }
            if kind == .gpsd { client.send(Reports.version(release: config.release), now: now) }
            clients.append(client)
        }
    }

    private func receive(_ client: Client, now: Double, buffer: inout [UInt8]) {
        guard !client.closed else { return }
        let n = buffer.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) {
            // The client hung up; nothing more can reach it.
            client.close()
            return
        }
        // What an NMEA client sends has no meaning here (some send their own sentences back).
        guard n > 0, !client.closing, client.kind == .gpsd else { return }
        let outcomes = buffer.withUnsafeBytes { client.scanner.feed(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
        for outcome in outcomes {
            switch outcome {
            case .request(let request):
                client.lastRequest = now
                client.hasAsked = true
                answer(request, client: client, now: now)
            case .overlong:
                client.send(Reports.error("Request too long: more than \(config.requestLimit) bytes without ';' or newline"), now: now)
                client.closing = true
                server.log("gpsfix: serve: client \(client.peer) sent more than \(config.requestLimit) bytes without ending a request; disconnecting it")
                return
            }
        }
    }

    private func answer(_ request: GpsdRequest, client: Client, now: Double) {
        let devices = server.devices
        let listed = devices.map { ($0.description, activated: $0.activated) }
        switch request {
        case .watch(let change?):
            if let path = change.device, !devices.contains(where: { $0.description.path == path }) {
                // gpsd's words, and as gpsd the watch is left as it was.
                client.send(Reports.error("No such device as \(path)"), now: now)
                return
            }
            let was = client.policy.enable
            client.policy.apply(change)
            // As gpsd: a watch that starts is told which devices there are, then its policy.
            if client.policy.enable && !was { client.send(Reports.devices(listed), now: now) }
            client.send(Reports.watch(client.policy), now: now)
        case .watch(nil):
            client.send(Reports.watch(client.policy), now: now)
        case .poll:
            let active = devices.filter { $0.activated != nil }
            client.send(Reports.poll(now: Clocks.wallSeconds, active: active.count,
                                     tpv: active.compactMap(\.lastTPV), sky: active.compactMap(\.lastSKY)), now: now)
        case .devices:
            client.send(Reports.devices(listed), now: now)
        case .device(configures: false):
            // The device watched, or the first; none yet (a fleet before its first vehicle) is
            // answered as gpsd answers when it has no device.
            guard let shown = devices.first(where: { client.policy.device == $0.description.path }) ?? devices.first else {
                client.send(Reports.error("No device"), now: now)
                return
            }
            client.send(Reports.device(shown.description, activated: shown.activated), now: now)
        case .device(configures: true):
            client.send(Reports.error("gpsfix does not reconfigure receivers: it only reads them"), now: now)
        case .version:
            client.send(Reports.version(release: config.release), now: now)
        case .invalid(let message):
            client.send(Reports.error(message), now: now)
        case .unrecognized(let text):
            // Quoted back, shortened: a client sending binary junk gets a readable answer.
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            client.send(Reports.error("Unrecognized request '\(shown)'"), now: now)
        }
    }

    private func flush(_ client: Client, now: Double) {
        guard !client.queue.isEmpty else {
            if client.closing { client.close() }
            return
        }
        switch client.queue.flush(to: client.fd) {
        case .drained(let wrote):
            if wrote > 0 { client.lastProgress = now }
            if client.dropped > 0 {
                server.log("gpsfix: serve: client \(client.peer) is reading again; \(client.dropped) reports were dropped for it")
                client.dropped = 0
            }
            if client.closing { client.close() }
        case .blocked(let wrote):
            if wrote > 0 { client.lastProgress = now }
        case .failed:
            client.close()
        }
    }

    /// Closes clients that hold the server up, by gpsd's rules: watchers that have stopped
    /// reading, clients that connect and ask nothing, pollers long silent.
    private func expire(now: Double) {
        let timeout = config.clientTimeout
        for client in clients where !client.closed {
            let idle = client.hasAsked ? config.pollerTimeout : config.assignmentTimeout
            if !client.queue.isEmpty && now - client.lastProgress > timeout {
                server.log("gpsfix: serve: client \(client.peer) has read nothing for \(Int(timeout)) s (\(client.dropped) reports dropped); disconnecting it")
                client.close()
            } else if client.kind == .gpsd && !client.policy.enable && now - client.lastRequest > idle {
                client.send(Reports.error("Timed out: no request for \(Int(idle)) s"), now: now)
                _ = client.queue.flush(to: client.fd)
                client.close()
            }
        }
    }
}
