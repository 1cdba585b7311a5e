import Foundation
@testable import GPSServer
import GPSLocation
import GPSTestSupport
import NMEA
import Testing

/// The web page's server in the server's loop: its files, snapshot, metrics and event stream,
/// and every limit a gpsd client has (queues, timeouts, a pool of slots), on real sockets.
@Suite("The web page's server", .timeLimit(.minutes(1)))
struct WebPageTests {
    static func harness(_ configure: @escaping (inout ServerConfiguration) -> Void = { _ in }, clientTimeout: Double = 15,
                        queueLimit: Int = 256 * 1024) throws -> ServerHarness {
        try ServerHarness(clientTimeout: clientTimeout, queueLimit: queueLimit) { c in
            c.httpAddress = ListenAddress(host: "127.0.0.1", port: 0)
            configure(&c)
        }
    }

    @Test("GET / is the page built in, whole, with a policy that lets it load nothing from elsewhere")
    func page() async throws {
        let harness = try Self.harness()
        let response = try HTTPGet(harness, "/")
        #expect(response.status == "HTTP/1.1 200 OK")
        #expect(response.header("Content-Type") == "text/html; charset=utf-8")
        let index = try #require(PageAssets.file(at: "/"))
        #expect(response.header("Content-Length") == String(index.body.count))
        #expect(response.body == String(decoding: index.body, as: UTF8.self))
        #expect(response.header("Content-Security-Policy")?.hasPrefix("default-src 'self'; img-src 'self' data:;") == true)
        for path in ["/style.css", "/app.js"] {
            let asset = try HTTPGet(harness, path)
            #expect(asset.status == "HTTP/1.1 200 OK", "\(path)")
            #expect(asset.body == String(decoding: try #require(PageAssets.file(at: path)).body, as: UTF8.self))
        }
        #expect(await harness.stop())
    }

    @Test("The page's files name nothing outside gpsfix: no http(s) URL, no CDN")
    func nothingExternal() throws {
        for source in PageAssets.sources {
            #expect(!source.text.contains("http://") && !source.text.contains("https://") && !source.text.contains("//cdn"), "\(source.path)")
        }
        let html = try #require(PageAssets.sources.first { $0.path == "/" }).text
        #expect(html.contains("src=\"/app.js\"") || html.contains("src=\"app.js\""))
        #expect(html.contains("name=\"viewport\""))
    }

    @Test("The built-in page is what Tools/web/embed.py makes of the page's files")
    func assetsCurrent() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let result = try await runProgram(["/usr/bin/python3", root.appendingPathComponent("Tools/web/embed.py").path, "--check"])
        #expect(result.status == 0, "\(result.err)")
    }

    @Test("HEAD has the head alone; other methods 405; unknown paths 404; garbage 400")
    func errors() async throws {
        let harness = try Self.harness()
        let head = try HTTPGet(harness, "/", method: "HEAD")
        #expect(head.status == "HTTP/1.1 200 OK")
        #expect(head.body.isEmpty)
        #expect(try HTTPGet(harness, "/", method: "POST").status == "HTTP/1.1 405 Method Not Allowed")
        let missing = try HTTPGet(harness, "/secrets")
        #expect(missing.status == "HTTP/1.1 404 Not Found")
        #expect(missing.body.contains("/events, /api/now and /metrics"))
        let junk = try HTTPGet(harness, raw: "hello there\r\n\r\n")
        #expect(junk.status == "HTTP/1.1 400 Bad Request")
        #expect(await harness.stop())
    }

    @Test("A request head past the limit is refused with 431, and one that never ends is closed with 408")
    func boundedRequests() async throws {
        let harness = try Self.harness { c in
            c.httpHeadLimit = 512
            c.httpRequestTimeout = .milliseconds(400)
        }
        let long = try HTTPGet(harness, raw: "GET / HTTP/1.1\r\nX-Pad: " + String(repeating: "a", count: 600) + "\r\n\r\n")
        #expect(long.status == "HTTP/1.1 431 Request Header Fields Too Large")
        let slow = try LineClient(port: try #require(harness.server.httpAddress).port)
        slow.send("GET / HTTP/1.1\r\n")
        #expect(slow.readLine(within: 3) == "HTTP/1.1 408 Request Timeout")
        #expect(slow.waitForClose(within: 3))
        #expect(await harness.stop())
    }

    @Test("/api/now has each device's last TPV and SKY as gpsd wrote them, its state and counts")
    func snapshot() async throws {
        let harness = try Self.harness()
        harness.server.publish(.status(.streaming))
        for event in Sample.events(0..<3) { harness.server.publish(event) }
        let response = try HTTPGet(harness, "/api/now")
        #expect(response.header("Content-Type") == "application/json")
        let now = try #require(try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any])
        #expect(now["class"] as? String == "NOW")
        #expect(now["tiles"] is NSNull)
        let device = try #require((now["devices"] as? [[String: Any]])?.first)
        #expect(device["path"] as? String == "/dev/ttyTEST")
        #expect(device["state"] as? String == "streaming")
        let tpv = try #require(device["tpv"] as? [String: Any])
        let fix = try #require(Sample.events(0..<3).compactMap { if case .fix(let f) = $0 { f } else { nil } }.last)
        #expect(abs((tpv["lat"] as? Double ?? 0) - (fix.coordinate?.latitude ?? 99)) < 1e-9)
        #expect((device["sky"] as? [String: Any])?["class"] as? String == "SKY")
        let status = try #require(device["status"] as? [String: Any])
        #expect(status["epochs"] as? Int == 3)
        #expect((now["clients"] as? [String: Any])?["http"] as? Int == 1)
        #expect(await harness.stop())
    }

    @Test("/events: the last state at once, then every report as one event, in order, and STATUS each second")
    func events() async throws {
        let harness = try Self.harness()
        let events = Sample.events(0..<4)
        harness.server.publish(events[0])
        let stream = try LineClient(port: try #require(harness.server.httpAddress).port)
        stream.send("GET /events HTTP/1.1\r\nAccept: text/event-stream\r\n\r\n")
        let head = stream.readLines(9)
        #expect(head.first == "HTTP/1.1 200 OK")
        #expect(head.contains("Content-Type: text/event-stream; charset=utf-8"))
        var data: [String] = []
        // The DEVICE, TPV and STATUS the stream starts with.
        while data.count < 3, let line = stream.readLine(within: 3) {
            if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
        }
        #expect(data.map(Self.className) == ["DEVICE", "TPV", "STATUS"])
        for event in events.dropFirst() { harness.server.publish(event) }
        var later: [String] = []
        let deadline = monotonicSeconds() + 5
        while later.filter({ $0 == "TPV" }).count < 3 || !later.contains("STATUS"), monotonicSeconds() < deadline,
              let line = stream.readLine(within: 2) {
            if line.hasPrefix("data: ") { later.append(Self.className(String(line.dropFirst(6)))) }
        }
        let published = events.dropFirst().map { event -> String in
            switch event {
            case .fix: "TPV"
            case .sky: "SKY"
            default: "?"
            }
        }
        #expect(Array(later.filter { $0 != "STATUS" }.prefix(published.count)) == published, "\(later)")
        #expect(later.contains("STATUS"), "a STATUS within a second or so")
        #expect(await harness.stop())
    }

    @Test("An event stream that reads nothing has reports dropped and is closed, and a gpsd watcher is served throughout")
    func stuckStream() async throws {
        let harness = try Self.harness(clientTimeout: 1)
        let stuck = try LineClient(port: try #require(harness.server.httpAddress).port, receiveBuffer: 4096)
        stuck.send("GET /events HTTP/1.1\r\n\r\n")
        #expect(await waitUntil(.seconds(5)) { harness.server.shared.withLock { $0.clientCounts.http } == 1 })
        let watcher = try harness.watcher()
        let reader = onOwnThread { () -> Int in
            var tpvs = 0
            while let line = watcher.readLine(within: 3) { if line.contains("\"class\":\"TPV\"") { tpvs += 1 } }
            return tpvs
        }
        let events = Sample.events(0..<40)
        // About 600 kB of events: more than its 256 kB queue and the kernel's buffers hold.
        for _ in 0..<20 {
            for event in events { harness.server.publish(event) }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(await waitUntil(.seconds(5)) { harness.server.shared.withLock { $0.clientCounts.http } == 0 }, "\(harness.log)")
        #expect(harness.log.contains("is not reading"))
        let tpvs = await reader.value(within: .seconds(20))
        #expect(tpvs == 800, "every TPV reached the gpsd watcher")
        #expect(await harness.stop())
    }

    @Test("The page's clients have a pool of their own: full, a newcomer gets 503, and gpsd's clients are still taken")
    func pools() async throws {
        let harness = try Self.harness { $0.maxHTTPClients = 2 }
        let port = try #require(harness.server.httpAddress).port
        let a = try LineClient(port: port), b = try LineClient(port: port)
        a.send("GET /events HTTP/1.1\r\n\r\n")
        b.send("GET /events HTTP/1.1\r\n\r\n")
        #expect(await waitUntil(.seconds(5)) { harness.server.shared.withLock { $0.clientCounts.http } == 2 })
        let third = try HTTPGet(harness, "/")
        #expect(third.status == "HTTP/1.1 503 Service Unavailable")
        #expect(third.body.contains("Too many clients (2)"))
        let gpsd = try harness.client()
        #expect(gpsd.readLine()?.contains("\"class\":\"VERSION\"") == true)
        #expect(await harness.stop())
    }

    @Test("Metrics: label values escaped, numbers in Prometheus' forms")
    func metricsText() {
        let text = String(decoding: MetricsText.write([
            MetricFamily("gpsfix_x", .gauge, help: "A \\ help\nline.", samples: [.init(1.5, labels: [("device", "a\"b\\c\nd")]), .init(.nan), .init(-.infinity), .init(3)]),
            MetricFamily("gpsfix_empty", .gauge, help: "Never shown.", samples: []),
        ]), as: UTF8.self)
        #expect(text == """
        # HELP gpsfix_x A \\\\ help\\nline.
        # TYPE gpsfix_x gauge
        gpsfix_x{device="a\\"b\\\\c\\nd"} 1.5
        gpsfix_x NaN
        gpsfix_x -Inf
        gpsfix_x 3

        """)
    }

    @Test("/metrics says the fix, satellites by constellation, counts and clients")
    func metrics() async throws {
        let harness = try Self.harness()
        for event in Sample.events(0..<2) { harness.server.publish(event) }
        harness.server.addMetrics { [MetricFamily("gpsfix_extra", .gauge, help: "An added one.", value: 7)] }
        let response = try HTTPGet(harness, "/metrics")
        #expect(response.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        let lines = response.body.split(separator: "\n").map(String.init)
        #expect(lines.contains("gpsfix_fix_mode{device=\"/dev/ttyTEST\"} 3"))
        #expect(lines.contains("gpsfix_epochs_total{device=\"/dev/ttyTEST\"} 2"))
        #expect(lines.contains { $0.hasPrefix("gpsfix_satellites_used{device=\"/dev/ttyTEST\",constellation=\"gps\"} ") })
        #expect(lines.contains("gpsfix_clients{feed=\"http\"} 1"))
        #expect(lines.contains("gpsfix_extra 7"))
        #expect(await harness.stop())
    }

    @Test("A tile URL's origin, and nothing else, is added to the page's image policy")
    func tileOrigin() {
        #expect(ServerLoop.origin(of: "https://tile.openstreetmap.org/{z}/{x}/{y}.png") == "https://tile.openstreetmap.org")
        #expect(ServerLoop.origin(of: "http://[::1]:8080/{z}/{x}/{y}") == "http://[::1]:8080")
        #expect(ServerLoop.origin(of: "javascript:alert(1)") == nil)
        #expect(ServerLoop.origin(of: "https://a b/{z}") == nil)
    }

    static func className(_ json: String) -> String {
        guard let start = json.range(of: "\"class\":\"") else { return "?" }
        return String(json[start.upperBound...].prefix { $0 != "\"" })
    }
}

/// The request head reader, on its own.
@Suite("HTTP request heads")
struct HTTPRequestReaderTests {
    func read(_ chunks: [String], limit: Int = 8192) -> HTTPRequestReader.Outcome {
        var reader = HTTPRequestReader(limit: limit)
        var last = HTTPRequestReader.Outcome.incomplete
        for chunk in chunks {
            last = Array(chunk.utf8).withUnsafeBytes { reader.feed($0) }
            if last != .incomplete { return last }
        }
        return last
    }

    @Test("A head split anywhere, even inside its blank line, is read once whole")
    func split() {
        let text = "GET /api/now?x=1 HTTP/1.1\r\nHost: a\r\n\r\n"
        let expected = HTTPRequestReader.Outcome.request(HTTPRequestHead(method: "GET", path: "/api/now", query: "x=1"))
        for cut in 1..<text.count {
            let i = text.index(text.startIndex, offsetBy: cut)
            #expect(read([String(text[..<i]), String(text[i...])]) == expected, "cut at \(cut)")
        }
        #expect(read(["GET / HTTP/1.0\n\n"]) == .request(HTTPRequestHead(method: "GET", path: "/", query: nil)))
    }

    @Test("Random bytes in random chunks: never more than the limit held, one outcome, never a trap")
    func hostile() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("GET /HTP1.\r\n \u{0}?:ab".utf8)
        for _ in 0..<5000 {
            var reader = HTTPRequestReader(limit: 256)
            var outcomes = 0
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let chunk = (0..<Int.random(in: 0...120, using: &generator)).map { _ in
                    Bool.random(using: &generator) ? alphabet.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
                }
                if chunk.withUnsafeBytes({ reader.feed($0) }) != .incomplete { outcomes += 1 }
            }
            #expect(outcomes <= 1)
        }
    }

    @Test("What is no HTTP/1.x request line is malformed; a head past the limit is overlong")
    func refused() {
        for bad in ["GET / HTTP/2.0\r\n\r\n", "get / HTTP/1.1\r\n\r\n", "GET noslash HTTP/1.1\r\n\r\n", "GET  / HTTP/1.1\r\n\r\n",
                    "GET /a b HTTP/1.1\r\n\r\n", "\u{0}\u{1}\r\n\r\n"] {
            #expect(read([bad]) == .malformed, "\(bad.debugDescription)")
        }
        #expect(read([String(repeating: "a", count: 100)], limit: 64) == .overlong)
        #expect(read([String(repeating: "a", count: 40), String(repeating: "a", count: 40)], limit: 64) == .overlong)
    }
}

/// One HTTP exchange over a plain socket: the status line, the headers, the body to the close.
struct HTTPGet {
    let status: String
    let headers: [String]
    let body: String

    init(_ harness: ServerHarness, _ path: String = "/", method: String = "GET") throws {
        try self.init(harness, raw: "\(method) \(path) HTTP/1.1\r\nHost: test\r\n\r\n")
    }

    init(_ harness: ServerHarness, raw: String) throws {
        guard let address = harness.server.httpAddress else { throw SpawnError(description: "no web page served") }
        let client = try LineClient(port: address.port)
        client.send(raw)
        status = client.readLine() ?? ""
        var headers: [String] = []
        while let line = client.readLine(), !line.isEmpty { headers.append(line) }
        self.headers = headers
        var body: [String] = []
        while let line = client.readLine(within: 3) { body.append(line) }
        self.body = body.isEmpty ? "" : body.joined(separator: "\n") + "\n"
    }

    func header(_ name: String) -> String? {
        headers.first { $0.lowercased().hasPrefix(name.lowercased() + ": ") }.map { String($0.dropFirst(name.count + 2)) }
    }
}
