import GPSSystem

/// The web page's requests, read and answered by the server's loop: one request a
/// connection, answered whole and closed, except `/events`, whose connection then takes the
/// reports as Server-Sent Events through the same bounded queue and timeouts as a gpsd
/// client's watch.
extension ServerLoop {
    /// Reads a web client's request head; answers it once it is whole.
    mutating func receiveHTTP(_ client: Client, bytes: UnsafeRawBufferPointer, now: Double) {
        // After its answer, what a client sends is ignored (a browser sends nothing more on
        // an event stream; anything else has its connection closing).
        guard !client.httpAnswered, var reader = client.httpRequest else { return }
        let outcome = reader.feed(bytes)
        client.httpRequest = reader
        switch outcome {
        case .incomplete:
            return
        case .malformed:
            finish(client, HTTPResponse.error("400 Bad Request", "gpsfix serves GET requests of HTTP/1.x only", policy: policy, headOnly: false), now: now)
        case .overlong:
            finish(client, HTTPResponse.error("431 Request Header Fields Too Large",
                                              "a request head is at most \(config.httpHeadLimit) bytes here", policy: policy, headOnly: false), now: now)
            server.peerLog("http-overlong", "web clients closed for an overlong request",
                           "web client \(client.peer) sent more than \(config.httpHeadLimit) bytes of request head; closing it")
        case .request(let head):
            client.lastRequest = now
            client.hasAsked = true
            answer(head, client: client, now: now)
        }
    }

    /// The page's content policy: its own server only, and the tiles' origin when the user
    /// named a tile URL.
    var policy: String {
        var images = "'self' data:"
        if let origin = config.tileURL.flatMap(Self.origin) { images += " " + origin }
        return "default-src 'self'; img-src \(images); style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    }

    /// `https://tile.example.org` of a tile URL template.
    static func origin(of url: String) -> String? {
        let scheme: String
        if url.hasPrefix("https://") { scheme = "https://" } else if url.hasPrefix("http://") { scheme = "http://" } else { return nil }
        let host = url.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "{" }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:[]".contains($0)) }) else { return nil }
        return scheme + host
    }

    private mutating func answer(_ head: HTTPRequestHead, client: Client, now: Double) {
        let headOnly = head.method == "HEAD"
        guard head.method == "GET" || headOnly else {
            return finish(client, HTTPResponse.error("405 Method Not Allowed", "only GET and HEAD are served here", policy: policy,
                                                     headOnly: false, extra: "Allow: GET, HEAD\r\n"), now: now)
        }
        switch head.path {
        case "/events" where !headOnly:
            beginEvents(client, now: now)
        case "/api/now":
            let body = Self.fresh(&snapshotCache, now: now) { server.snapshot(now: now) }
            finish(client, HTTPResponse.whole(type: "application/json", body: body, policy: policy, headOnly: headOnly), now: now)
        case "/metrics":
            let body = Self.fresh(&metricsCache, now: now) { server.metrics(now: now) }
            finish(client, HTTPResponse.whole(type: MetricsText.contentType, body: body, policy: policy, headOnly: headOnly), now: now)
        default:
            guard let file = PageAssets.file(at: head.path) else {
                return finish(client, HTTPResponse.error("404 Not Found", "no such page: gpsfix serves /, /events, /api/now and /metrics",
                                                         policy: policy, headOnly: headOnly), now: now)
            }
            finish(client, HTTPResponse.whole(type: file.type, body: file.body, policy: policy, headOnly: headOnly), now: now)
        }
    }

    /// A body built at most every quarter of a second, however often it is asked for.
    static func fresh(_ cache: inout (at: Double, body: [UInt8])?, now: Double, build: () -> [UInt8]) -> [UInt8] {
        if let cached = cache, now - cached.at < 0.25 { return cached.body }
        let body = build()
        cache = (now, body)
        return body
    }

    /// Queues a whole response and closes the connection once it is written.
    private func finish(_ client: Client, _ response: [UInt8], now: Double) {
        client.httpAnswered = true
        client.closing = true
        if !client.reply(response, now: now) {
            // Only a snapshot of a fleet larger than the reply limit gets here.
            _ = client.reply(HTTPResponse.error("503 Service Unavailable", "the answer would be larger than \(config.replyLimit) bytes",
                                                policy: policy, headOnly: false), now: now)
        }
    }

    /// Starts an event stream: its head, every device's last state as events (so a new tab
    /// draws at once), then the reports as they come.
    private func beginEvents(_ client: Client, now: Double) {
        client.httpAnswered = true
        var start = HTTPResponse.eventStreamHead(policy: policy)
        let (devices, clients) = server.deviceViews()
        for (index, d) in devices.enumerated() where d.activated != nil {
            start += EventStream.frame(server.deviceLine(index))
            if let tpv = d.tpv { start += EventStream.frame(tpv) }
            if let sky = d.sky { start += EventStream.frame(sky) }
            start += EventStream.frame(GpsdServer.status(d, clients: clients, now: now))
        }
        guard client.reply(start, now: now) else {
            client.closing = true
            return
        }
        var watch = WatchPolicy()
        watch.enable = true
        watch.json = true
        client.watch(watch)
    }

    /// About once a second, while any event stream is open: every device's STATUS to them
    /// (the page's counts and fix age), and, every 15 s, a comment that keeps proxies from
    /// closing a quiet stream and finds tabs that have gone.
    mutating func tellEventStreams(now: Double) {
        guard now >= nextStatus else { return }
        nextStatus = now + 1
        let streams = clients.filter { $0.kind == .http && !$0.closed && $0.policy.enable }
        guard !streams.isEmpty else { return }
        if now >= nextKeepAlive {
            nextKeepAlive = now + 15
            for client in streams where client.outbox.isEmpty { client.send(EventStream.keepAlive, now: now) }
        }
        let (devices, clientCounts) = server.deviceViews()
        for (index, d) in devices.enumerated() {
            server.deliver([(GpsdServer.status(d, clients: clientCounts, now: now), .status)], device: index)
        }
    }
}
