/// The head of one HTTP/1.x request, read from a peer's bytes: its method and path. What
/// the page's server needs and no more: no body, no keep-alive, no chunks. Pure, bounded:
/// a head is at most `limit` bytes, and anything after it is ignored.
struct HTTPRequestHead: Equatable, Sendable {
    /// `GET`, `HEAD`, … as sent (upper case letters only, or it is no request).
    var method: String
    /// The target's path, without its query (`/events`).
    var path: String
    /// The query after `?`, if any, undecoded.
    var query: String?
}

/// Collects a peer's bytes until its request head ends (a blank line), within a limit.
struct HTTPRequestReader {
    enum Outcome: Equatable {
        /// More bytes are needed.
        case incomplete
        /// The head, read whole.
        case request(HTTPRequestHead)
        /// Not a request we can read (a 400).
        case malformed
        /// Longer than the limit without ending (a 431).
        case overlong
    }

    let limit: Int
    private var bytes: [UInt8] = []
    private var done = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes the next bytes; once an outcome other than `.incomplete` has been given, the
    /// rest is ignored (the connection answers one request and closes).
    mutating func feed(_ chunk: UnsafeRawBufferPointer) -> Outcome {
        guard !done else { return .incomplete }
        let room = limit - bytes.count
        let taken = min(room, chunk.count)
        // Only the new bytes and the three before them can complete the blank line.
        let searchFrom = max(0, bytes.count - 3)
        bytes.append(contentsOf: chunk[..<taken])
        if let end = Self.endOfHead(bytes, from: searchFrom) {
            done = true
            return Self.parse(bytes[..<end]).map(Outcome.request) ?? .malformed
        }
        if bytes.count >= limit {
            done = true
            return .overlong
        }
        return .incomplete
    }

    /// Where the head ends (the index of its blank line's first byte): CR LF CR LF, or LF LF
    /// as lenient servers accept.
    private static func endOfHead(_ b: [UInt8], from start: Int) -> Int? {
        var i = start
        while i < b.count {
            if b[i] == 0x0A {
                if i + 1 < b.count, b[i + 1] == 0x0A { return i }
                if i + 2 < b.count, b[i + 1] == 0x0D, b[i + 2] == 0x0A { return i }
            }
            i += 1
        }
        return nil
    }

    /// The request line: `METHOD SP TARGET SP HTTP/1.x`. Headers are not needed.
    static func parse(_ head: ArraySlice<UInt8>) -> HTTPRequestHead? {
        let lineEnd = head.firstIndex(of: 0x0A) ?? head.endIndex
        var line = head[head.startIndex..<lineEnd]
        if line.last == 0x0D { line = line.dropLast() }
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].count <= 16,
              parts[0].allSatisfy({ (0x41...0x5A).contains($0) }),
              parts[2].elementsEqual("HTTP/1.1".utf8) || parts[2].elementsEqual("HTTP/1.0".utf8),
              parts[1].first == 0x2F, parts[1].allSatisfy({ (0x21...0x7E).contains($0) })
        else { return nil }
        let method = String(decoding: parts[0], as: UTF8.self)
        let target = parts[1]
        if let q = target.firstIndex(of: 0x3F) {
            return HTTPRequestHead(method: method, path: String(decoding: target[..<q], as: UTF8.self),
                                   query: String(decoding: target[(q + 1)...], as: UTF8.self))
        }
        return HTTPRequestHead(method: method, path: String(decoding: target, as: UTF8.self), query: nil)
    }
}
