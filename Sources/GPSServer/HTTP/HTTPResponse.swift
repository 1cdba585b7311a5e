import GPSOutput

/// The responses the page's server writes: whole, with their length, and closed after
/// (`Connection: close`), so a connection is one request and nothing waits on a peer's next.
enum HTTPResponse {
    /// The headers every response has: nothing is cached, nothing is sniffed, and the page
    /// may load only what its own server gives it (and the tiles the user named).
    static func head(status: String, type: String, length: Int?, policy: String, extra: String = "") -> [UInt8] {
        var w = ByteWriter(capacity: 384)
        w.append("HTTP/1.1 ")
        w.append(status)
        w.append("\r\nContent-Type: ")
        w.append(type)
        if let length {
            w.append("\r\nContent-Length: ")
            w.append(length)
        }
        w.append("\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\nContent-Security-Policy: ")
        w.append(policy)
        w.append("\r\n")
        w.append(extra)
        w.append("Connection: close\r\n\r\n")
        return w.bytes
    }

    /// A whole response: the head, and the body unless the request was HEAD.
    static func whole(status: String = "200 OK", type: String, body: [UInt8], policy: String, headOnly: Bool,
                      extra: String = "") -> [UInt8] {
        var bytes = head(status: status, type: type, length: body.count, policy: policy, extra: extra)
        if !headOnly { bytes += body }
        return bytes
    }

    /// An error, with a line of text that says what to do.
    static func error(_ status: String, _ message: String, policy: String, headOnly: Bool, extra: String = "") -> [UInt8] {
        whole(status: status, type: "text/plain; charset=utf-8", body: Array((message + "\n").utf8), policy: policy,
              headOnly: headOnly, extra: extra)
    }

    /// The start of an event stream: no length, kept open; `retry` tells the browser how soon
    /// to reconnect after the server goes.
    static func eventStreamHead(policy: String) -> [UInt8] {
        head(status: "200 OK", type: "text/event-stream; charset=utf-8", length: nil, policy: policy,
             extra: "X-Accel-Buffering: no\r\n") + Array("retry: 2000\n\n".utf8)
    }
}

/// Server-Sent Events: each gpsd report one event, its JSON the event's one `data:` line.
enum EventStream {
    /// `lines` (reports of gpsd's, each ending in CR LF, one or several) as events.
    static func frame(_ lines: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(lines.count + 16)
        var start = lines.startIndex
        while start < lines.endIndex {
            var end = lines[start...].firstIndex(of: 0x0A) ?? lines.endIndex
            let next = end == lines.endIndex ? end : end + 1
            if end > start, lines[end - 1] == 0x0D { end -= 1 }
            // A report has no line end inside it (JSON escapes them), so it is one data line.
            if end > start {
                out.append(contentsOf: "data: ".utf8)
                out.append(contentsOf: lines[start..<end])
                out.append(contentsOf: [0x0A, 0x0A])
            }
            start = next
        }
        return out
    }

    /// A comment: what keeps a quiet stream's proxies from closing it, and finds a closed tab.
    static let keepAlive: [UInt8] = Array(": keep-alive\n\n".utf8)
}
