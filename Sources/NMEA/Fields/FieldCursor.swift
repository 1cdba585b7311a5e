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

    public mutating func skip(_ count: Int) {
        for _ in 0..<count { _ = next() }
    }

    /// How many fields remain, counting an empty last one (`,,` at the end is two fields).
    public var remaining: Int {
        guard position < body.count else { return 0 }
        var n = 0
        for i in position..<body.count where body[i] == ASCII.comma { n += 1 }
        return n
    }
}
