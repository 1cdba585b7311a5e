import GPSSystem

/// Who gets a slot: every client up to `maxClients`, and up to `maxClientsPerAddress` from
/// any one address; a newcomer that finds no room is served in place of the client in its
/// way that has been idle longest, if that one has been idle for `giveWayAfter`. So 199
/// clients that watch and never read hold no slot a new client wants for long.
extension ServerLoop {
    /// Why a newcomer was not taken, in the client's words, the log's and the throttle's.
    struct Refusal {
        let message: String
        let kind: String
        let summary: String
    }

    /// Takes every waiting connection that `accept` has, as clients of `kind`.
    mutating func acceptClients(_ kind: Client.Kind, now: Double, from accept: () -> TCPListener.Accepted) {
        while true {
            let connection: TCPListener.Connection
            switch accept() {
            case .connection(let accepted):
                connection = accepted
            case .none:
                return
            case .exhausted(let reason):
                // Clients' connections can be what used the descriptors up: held to a rate too.
                server.peerLog("exhausted", "times no new client could be taken",
                               "cannot take a new client (\(reason)); trying again in a second")
                acceptPausedUntil = now + 1
                return
            }
            let fd = connection.descriptor
            let (host, peer) = (connection.host, ListenAddress(host: connection.host, port: connection.port).description)
            fd.setNoDelay()
            // A peer that vanishes without a word frees its slot within minutes.
            KeepAlive.enable(on: fd)
            let client = Client(descriptor: fd, kind: kind, peer: peer, host: host, now: now, configuration: config)
            client.setSendBuffer(Client.sendBuffer)
            if let refusal = makeRoom(for: client, now: now) {
                // NMEA has no way to say why: its client is only closed.
                switch kind {
                case .gpsd: client.send(Reports.error(refusal.message), now: now)
                case .http: client.send(HTTPResponse.error("503 Service Unavailable", refusal.message, policy: "default-src 'none'", headOnly: false,
                                                           extra: "Retry-After: 10\r\n"), now: now)
                case .nmea: break
                }
                _ = client.outbox.flush(now: now)
                client.close()
                server.peerLog(refusal.kind, refusal.summary, "refused \(peer): \(refusal.message)")
                continue
            }
            if kind == .gpsd { client.send(Reports.version(release: config.release), now: now) }
            clients.append(client)
        }
    }

    /// Nil when `newcomer` may be served (under both limits, or once the idlest client in its
    /// way has given way); why not otherwise.
    private func makeRoom(for newcomer: Client, now: Double) -> Refusal? {
        var open = 0, sameHost = 0
        var idlest: Client?, idlestOfHost: Client?
        // The page's clients and the rest have a pool each, held to the same rules.
        let maxClients = newcomer.kind.isWeb ? config.maxHTTPClients : config.maxClients
        for client in clients where !client.closed && client.kind.isWeb == newcomer.kind.isWeb {
            open += 1
            if idlest.map({ client.lastActivity < $0.lastActivity }) ?? true { idlest = client }
            guard client.host == newcomer.host else { continue }
            sameHost += 1
            if idlestOfHost.map({ client.lastActivity < $0.lastActivity }) ?? true { idlestOfHost = client }
        }
        let inTheWay: Client?, refusal: Refusal
        if sameHost >= config.maxClientsPerAddress {
            inTheWay = idlestOfHost
            refusal = Refusal(message: "Too many clients from \(newcomer.host) (\(config.maxClientsPerAddress)); try again later",
                              kind: "refused-address", summary: "connections refused (too many from one address)")
        } else if open >= maxClients {
            inTheWay = idlest
            refusal = Refusal(message: "Too many clients (\(maxClients)); try again later",
                              kind: "refused-full", summary: "connections refused (every slot taken)")
        } else {
            return nil
        }
        guard let inTheWay, now - inTheWay.lastActivity >= config.giveWayAfter.inSeconds else { return refusal }
        let idle = Int(now - inTheWay.lastActivity)
        if inTheWay.kind == .gpsd {
            inTheWay.send(Reports.error("Closed to make room for a new client: nothing asked or received for \(idle) s"), now: now)
        }
        _ = inTheWay.outbox.flush(now: now)
        inTheWay.close()
        server.peerLog("gave-way", "idle clients closed to make room for new ones",
                       "closed \(inTheWay.peer), idle for \(idle) s, to make room for \(newcomer.peer)")
        return nil
    }
}
