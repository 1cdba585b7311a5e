/// Splits what a client sends into requests. gpsd ends a request with `;`; people typing
/// into `nc` end it with Enter, so a newline ends one too. Bytes arrive in any chunks.
struct RequestScanner {
    /// The longest request gpsfix will hold while waiting for its end: a `?WATCH` with
    /// every member gpsd knows is under 200 bytes.
    let limit: Int
    private var pending: [UInt8] = []

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
            case UInt8(ascii: ";"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                if let request = take() { outcomes.append(.request(request)) }
            default:
                // Leading blanks between requests are not part of the next one.
                if pending.isEmpty && (byte == 0x20 || byte == 0x09) { continue }
                guard pending.count < limit else {
                    pending.removeAll()
                    return outcomes + [.overlong]
                }
                pending.append(byte)
            }
        }
        return outcomes
    }

    private mutating func take() -> GpsdRequest? {
        defer { pending.removeAll(keepingCapacity: true) }
        // Trailing blanks, as `nc` or a careless client leaves them.
        while let last = pending.last, last == 0x20 || last == 0x09 { pending.removeLast() }
        guard !pending.isEmpty else { return nil }
        let text = String(decoding: pending, as: UTF8.self)
        return GpsdRequest(Substring(text))
    }
}
