/// Walks the comma-separated fields of a sentence body without copying.
public struct FieldCursor {
    let body: UnsafeBufferPointer<UInt8>
    var position: Int
    /// Values read through `Bounds` that lay outside them (see `Bounds.swift`).
    public internal(set) var outOfRange = 0

    init(body: UnsafeBufferPointer<UInt8>, position: Int) {
        self.body = body
        self.position = position
    }

    /// The next field. Past the last field every call returns an empty field, so a decoder
    /// reading an older, shorter version of a sentence sees "unknown", never garbage.
    @inline(__always)
    public mutating func next() -> Field {
        guard position < body.count else { return Field(bytes: UnsafeBufferPointer(start: nil, count: 0)) }
        // `position` rests on the comma before the field.
        var start = position
        if body[start] == ASCII.comma { start += 1 }
        var end = start
        while end < body.count && body[end] != ASCII.comma { end += 1 }
        position = end
        return Field(bytes: UnsafeBufferPointer(rebasing: body[start..<end]))
    }

    /// The next field as a time of day; a field that is not one (25:00:00) is counted.
    @inline(__always)
    public mutating func time() -> TimeOfDay? {
        let field = next()
        guard let t = field.timeOfDay else { reject(field); return nil }
        return t
    }

    /// The next field as a `ddmmyy` date; one that does not exist is counted.
    @inline(__always)
    public mutating func date() -> CalendarDate? {
        let field = next()
        guard let d = field.date else { reject(field); return nil }
        return d
    }

    /// Passes over `count` fields unread, as a decoder does a unit letter (`M`) or a field it
    /// does not use; past the last field it does nothing.
    public mutating func skip(_ count: Int) {
        for _ in 0..<count { _ = next() }
    }

    /// Whether every field has been read (an empty last field is a field: `,,` at the end
    /// is two).
    @inline(__always)
    public var isAtEnd: Bool { position >= body.count }

    /// How many fields remain, counting an empty last one (`,,` at the end is two fields).
    public var remaining: Int {
        guard position < body.count, let base = body.baseAddress else { return 0 }
        var n = 0
        var i = position
        // Commas counted eight bytes at a time: a comma becomes a zero byte, and each zero
        // byte sets exactly one high bit (no carry crosses a byte: 0x7F + 0x7F < 0x100).
        let commas: UInt64 = 0x2C2C_2C2C_2C2C_2C2C, lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        while i &+ 8 <= body.count {
            let v = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) ^ commas
            n &+= (~(((v & lows) &+ lows) | v | lows)).nonzeroBitCount
            i &+= 8
        }
        while i < body.count {
            if base[i] == ASCII.comma { n &+= 1 }
            i &+= 1
        }
        return n
    }
}
