/// Splits what a client sends into requests. gpsd ends a request with `;`; people typing
/// into `nc` end it with Enter, so a newline ends one too. A `;` inside a JSON string
/// (`?WATCH={"device":"/dev/a;b"};`) is part of the string, not an end; a newline always
/// ends a request (JSON cannot hold one raw in a string, and a person who left a quote open
/// gets an answer rather than a wait). A request's JSON object ends it too, at its closing
/// brace: gpsd reads each `recv` as whole requests, so clients send `?WATCH={…}` with nothing
/// after it (Home Assistant's gps3 `?WATCH={"enable":true,"json":true}`, Signal K's and
/// OpenCPN's `?WATCH={"class":"WATCH",…}`), and would otherwise wait for ever for an answer.
/// Bytes arrive in any chunks; where a read ends never decides where a request does.
struct RequestScanner {
    /// The longest request gpsfix will hold while waiting for its end: a `?WATCH` with
    /// every member gpsd knows is under 200 bytes.
    let limit: Int
    private var pending: [UInt8] = []
    /// Inside a JSON string of the pending request, and just after its backslash.
    private var inString = false
    private var escaped = false
    /// Braces open outside strings in the pending request: its object ends where this returns
    /// to 0. Counted, not held: the limit bounds the request whatever its nesting.
    private var depth = 0

    init(limit: Int = 1024) {
        self.limit = limit
    }

    enum Outcome: Equatable {
        case request(GpsdRequest)
        /// More than `limit` bytes without an end: the client is not speaking the protocol.
        case overlong
    }

    /// Adds bytes; returns the requests they complete, in order.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [Outcome] {
        var outcomes: [Outcome] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: ";") where !inString, UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                if let request = take() { outcomes.append(.request(request)) }
            default:
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\"") {
                    inString.toggle()
                } else if byte == UInt8(ascii: "\\") && inString {
                    escaped = true
                } else if byte == UInt8(ascii: "{") && !inString {
                    depth += 1
                } else if byte == UInt8(ascii: "}") && !inString && depth > 0 {
                    depth -= 1
                    if depth == 0 {
                        // The object is whole: so is the request (a `;` after it ends nothing more).
                        guard pending.count < limit else { return outcomes + [overlong()] }
                        pending.append(byte)
                        if let request = take() { outcomes.append(.request(request)) }
                        continue
                    }
                }
                // Leading blanks between requests are not part of the next one.
                if pending.isEmpty && (byte == 0x20 || byte == 0x09) { continue }
                guard pending.count < limit else { return outcomes + [overlong()] }
                pending.append(byte)
            }
        }
        return outcomes
    }

    /// Drops the request past the limit; what follows is read afresh.
    private mutating func overlong() -> Outcome {
        pending.removeAll()
        inString = false
        escaped = false
        depth = 0
        return .overlong
    }

    private mutating func take() -> GpsdRequest? {
        defer {
            pending.removeAll(keepingCapacity: true)
            inString = false
            escaped = false
            depth = 0
        }
        // Trailing blanks, as `nc` or a careless client leaves them.
        while let last = pending.last, last == 0x20 || last == 0x09 { pending.removeLast() }
        guard !pending.isEmpty else { return nil }
        // Bytes that are not UTF-8 are no request: named back (with replacements, to be
        // readable) as unrecognized, and never handed to the JSON reader with replacements
        // that would make a `?WATCH={…}` of them look like text.
        guard let text = String(validating: pending, as: UTF8.self) else {
            return .unrecognized(String(decoding: pending, as: UTF8.self))
        }
        return GpsdRequest(Substring(text))
    }
}
