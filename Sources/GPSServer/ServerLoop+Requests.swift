import GPSSystem

/// A client's requests, read and answered. DEVICES and POLL come from the loop's cache, so
/// their cost does not grow with the fleet per request; they go into the client's room for
/// replies, so they arrive whole even behind a queue full of reports; and one client has
/// the fleet listed at most `requestRate` times a second.
extension ServerLoop {
    mutating func receive(_ client: Client, now: Double, buffer: inout [UInt8]) {
        guard !client.closed else { return }
        let received = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SystemError) in try client.descriptor.receive(into: raw) }
        }
        let n: Int
        switch received {
        case .success(.processed(let count)) where count > 0:
            n = count
        case .success(.wouldBlock):
            return
        case .success, .failure:
            // The client hung up; nothing more can reach it.
            client.close()
            return
        }
        if client.kind == .http {
            return buffer.withUnsafeBytes { receiveHTTP(client, bytes: UnsafeRawBufferPointer(rebasing: $0[..<n]), now: now) }
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
                server.peerLog("overlong", "clients disconnected for an overlong request",
                               "client \(client.peer) sent more than \(config.requestLimit) bytes without ending a request; disconnecting it")
                return
            }
        }
    }

    private mutating func answer(_ request: GpsdRequest, client: Client, now: Double) {
        cache.refreshPaths(server)
        switch request {
        case .watch(let change?):
            var next = client.policy
            next.apply(change)
            // As gpsd (handle_gpsd_request): a device is looked for only by a watch that is
            // on; one that is off keeps the path and is told its policy. The refusal is in
            // gpsd's words; the watch is left as it was.
            if next.enable, let path = next.device, cache.index[path] == nil {
                client.send(Reports.error("No such device as \(path)"), now: now)
                return
            }
            // As gpsd: a watch that starts is told which devices there are, then its policy,
            // then the reports: the sources write to its outbox by the new watch only once
            // these are queued. A watch that stops gets nothing more after its reply.
            guard next.enable else {
                client.watch(next)
                client.send(Reports.watch(next), now: now)
                return
            }
            if !client.policy.enable { list(.devices, to: client, now: now) }
            client.send(Reports.watch(next), now: now)
            client.watch(next)
        case .watch(nil):
            client.send(Reports.watch(client.policy), now: now)
        case .poll:
            list(.poll, to: client, now: now)
        case .devices:
            list(.devices, to: client, now: now)
        case .device(configures: false):
            // The device watched, or the first; none yet (a fleet before its first vehicle) is
            // answered as gpsd answers when it has no device.
            guard let shown = client.policy.device.flatMap({ cache.index[$0] }) ?? (cache.paths.isEmpty ? nil : 0) else {
                client.send(Reports.error("No device"), now: now)
                return
            }
            client.send(server.deviceLine(shown), now: now)
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

    /// The replies that list every device.
    enum Listing {
        case devices, poll

        var name: String {
            switch self {
            case .devices: "DEVICES"
            case .poll: "POLL"
            }
        }
    }

    /// Sends DEVICES or POLL whole, or an ERROR that says why not: too frequent, too large,
    /// or earlier replies not read yet.
    private mutating func list(_ listing: Listing, to client: Client, now: Double) {
        guard client.listings.take(now: now) else {
            // Told once; the requests after it, until the rate allows, are not answered.
            guard client.listings.refusedInARow == 1 else { return }
            client.send(Reports.error("\(listing.name) not sent: it lists every device, so one client has it at most "
                                      + "\(config.requestBurst) times at once and \(Self.rate(config.requestRate)) a second; ask less often"), now: now)
            server.peerLog("too-often", "requests for DEVICES or POLL refused as too frequent",
                           "client \(client.peer) asks for \(listing.name) too often; refusing some")
            return
        }
        let built = switch listing {
        case .devices: cache.devicesReply(server, now: now)
        case .poll: cache.pollReply(server, now: now)
        }
        guard let line = built.line else {
            client.send(Reports.error("\(listing.name) of \(built.count) devices would be \(built.size) bytes, more than the "
                                      + "\(config.replyLimit) a reply may be; watch the reports instead (each device is told with a DEVICE as it comes)"), now: now)
            return
        }
        guard client.reply(line, now: now) else {
            client.send(Reports.error("\(listing.name) not sent: the replies sent before it (\(client.outbox.replyBytes) bytes) "
                                      + "have not been read yet; read them first"), now: now)
            return
        }
    }

    private static func rate(_ r: Double) -> String {
        r == r.rounded() ? String(Int(r)) : String(r)
    }
}
