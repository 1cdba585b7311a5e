/// Appends text and numbers to a byte buffer without going through `String` or `Foundation`:
/// output runs once per epoch, but replay at full speed makes that a hot path too.
public struct ByteWriter: ~Copyable, @unchecked Sendable {
    // Owned exclusively (the type cannot be copied), so a raw buffer is safe to share with
    // no one, and every append is a bounds check and a store: no copy-on-write test per byte.
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far (since the start or the last ``removeAll()``).
    public private(set) var count = 0

    /// An empty writer with room for `capacity` bytes (at least 16) before it first grows; it
    /// doubles as it needs, so the capacity is a guess of the largest output, not a bound.
    public init(capacity: Int = 4096) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// A copy of what has been written.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }
    /// Whether nothing has been written since the start or the last ``removeAll()``.
    public var isEmpty: Bool { count == 0 }

    /// Calls `body` with what has been written, without copying it (to `write` it, or hand it
    /// to a queue that copies); the pointer is valid only inside `body`.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Forgets what was written, keeping the storage: a writer reused for each epoch stops
    /// allocating once it has grown to the largest.
    public mutating func removeAll() { count = 0 }

    @inline(__always)
    private mutating func reserve(_ n: Int) {
        guard count + n > capacity else { return }
        let bigger = max(capacity * 2, count + n)
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        fresh.update(from: base, count: count)
        base.deallocate()
        base = fresh
        capacity = bigger
    }

    /// A literal's UTF-8 bytes as they are (no escaping: a JSON key, a separator, a tag).
    @inline(__always)
    public mutating func append(_ text: StaticString) {
        append(raw: text.utf8Start, text.utf8CodeUnitCount)
    }

    /// Text known only at run time. Literals go to the `StaticString` overload (no copy).
    @_disfavoredOverload
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append(raw: $0.baseAddress, $0.count) }
    }

    /// Bytes as they are, already encoded (a sentence's own, a cached report).
    public mutating func append(bytes more: [UInt8]) {
        more.withUnsafeBufferPointer { append(raw: $0.baseAddress, $0.count) }
    }

    @inline(__always)
    private mutating func append(raw: UnsafePointer<UInt8>?, _ n: Int) {
        guard let raw, n > 0 else { return }
        reserve(n)
        (base + count).update(from: raw, count: n)
        count += n
    }

    /// One byte as it is (a quote, a comma, a newline).
    @inline(__always)
    public mutating func append(byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// A JSON string, escaped.
    public mutating func appendJSONString(_ text: String) {
        append(byte: 0x22)
        for b in text.utf8 {
            switch b {
            case 0x22: append("\\\"")
            case 0x5C: append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0..<0x20:
                append("\\u00")
                appendHexByte(b)
            default: append(byte: b)
            }
        }
        append(byte: 0x22)
    }

    /// `b` as two upper-case hexadecimal digits (`0A`), as JSON's `\u00XX` escape writes a control.
    public mutating func appendHexByte(_ b: UInt8) {
        let digits: StaticString = "0123456789ABCDEF"
        append(byte: digits.utf8Start[Int(b >> 4)])
        append(byte: digits.utf8Start[Int(b & 0xF)])
    }

    /// A decimal integer, zero-padded to `width` digits.
    ///
    /// Most integers written are small (the parts of a time, satellite numbers, modes): those
    /// are written in place, inlined where the width is a constant; the rest out of line.
    @inline(__always)
    public mutating func append(_ value: Int, width: Int = 0) {
        guard value >= 0, value < 10_000, width <= 4 else { return appendAnyInteger(value, width: width) }
        let digits = max(width, value < 100 ? (value < 10 ? 1 : 2) : (value < 1000 ? 3 : 4))
        reserve(4)
        var p = base + count + digits
        Self.writeDigits(UInt(truncatingIfNeeded: value), count: digits, endingAt: &p)
        count &+= digits
    }

    @inline(never)
    private mutating func appendAnyInteger(_ value: Int, width: Int) {
        // 19 digits and a sign at most, beyond any padding asked for.
        reserve(max(width, 20) + 1)
        var p = base + count
        if value < 0 {
            p.pointee = 0x2D
            p += 1
        }
        let digits = max(Self.digitCount(value.magnitude), width)
        p += digits
        Self.writeDigits(value.magnitude, count: digits, endingAt: &p)
        count = p + digits - base
    }

    /// "00" to "99": two digits per division, and a literal, so reading it needs no
    /// lazy initialisation and no bounds check.
    private static let pairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// Exactly `count` digits of `value` (leading zeros as needed), written backwards so that
    /// they end where `p` points; `p` is left on the first of them.
    @inline(__always)
    private static func writeDigits(_ value: UInt, count: Int, endingAt p: inout UnsafeMutablePointer<UInt8>) {
        let pairs = Self.pairs.utf8Start
        var v = value
        var left = count
        while left >= 2 {
            let r = Int(truncatingIfNeeded: v % 100) &* 2
            v /= 100
            p -= 2
            p[0] = pairs[r]
            p[1] = pairs[r &+ 1]
            left &-= 2
        }
        if left == 1 {
            p -= 1
            p.pointee = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
        }
    }

    /// How many decimal digits `v` has (0 has one). Most numbers written are small: a few
    /// comparisons settle them; the rest take the bit length, which gives the answer to
    /// within one (log10 2 ≈ 1233/4096).
    @inline(__always)
    private static func digitCount(_ v: UInt) -> Int {
        if v < 10 { return 1 }
        if v < 100 { return 2 }
        if v < 1000 { return 3 }
        let bits = UInt.bitWidth &- v.leadingZeroBitCount
        let guess = (bits &* 1233) >> 12
        return guess &+ (v >= powerOfTen(guess) ? 1 : 0)
    }

    /// 10^n for n in 0...19, as a switch the compiler makes into a table of constants.
    @inline(__always)
    private static func powerOfTen(_ n: Int) -> UInt {
        switch n {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        default: 10_000_000_000_000_000_000
        }
    }

    /// A number with exactly `decimals` digits after the point, as gpsd's `%.Nf` prints it.
    /// Rounding is half away from zero after scaling, so an exact tie in decimal (0.15 to one
    /// decimal) rounds up where C, which rounds the exact binary value 0.1499…, prints 0.1;
    /// everywhere else the two agree.
    public mutating func append(_ value: Double, decimals: Int) {
        precondition(decimals >= 0 && decimals <= 9)
        // Each count of decimals the outputs use most gets its own copy, in which the powers of
        // ten are constants and every division by them a multiplication (a 64-bit division
        // takes tens of cycles, and SKY reports are mostly numbers).
        switch decimals {
        case 1: appendFixed1(value)
        case 2: appendFixed2(value)
        case 3: appendFixed3(value)
        case 9: appendFixed9(value)
        default: appendFixed(value, decimals: decimals)
        }
    }

    /// Degrees of a bearing (course, azimuth, an ellipse's orientation) with `decimals` digits,
    /// as `append(_:decimals:)` writes them, except that one which rounds to 360 is written as
    /// 0: the same direction, and within the `0..<360` that every reader holds it to (gpsfix's
    /// own reading a report back). 359.99996 to four decimals is `0.0000`, not `360.0000`.
    /// gpsd prints its `%.4f` as it comes and would write 360.0000; wrapping, not clamping to
    /// 359.9999, keeps the printed value the nearest one to what was measured.
    public mutating func append(bearing value: Double, decimals: Int) {
        precondition(decimals >= 0 && decimals <= 9)
        let unit = Self.powerOfTen(decimals)
        // The same scaling and rounding as `appendFixed` writes the digits with, so the two
        // cannot disagree; only values just below 360 are turned (from 360 up is out of range,
        // and written as it is for the checks downstream to see).
        let scaled = value * Double(unit)
        if value >= 359, value < 360, UInt(scaled + 0.5) == 360 * unit {
            return append(0, decimals: decimals)
        }
        append(value, decimals: decimals)
    }

    @inline(never) private mutating func appendFixed1(_ value: Double) { appendFixed(value, decimals: 1) }
    @inline(never) private mutating func appendFixed2(_ value: Double) { appendFixed(value, decimals: 2) }
    @inline(never) private mutating func appendFixed3(_ value: Double) { appendFixed(value, decimals: 3) }
    @inline(never) private mutating func appendFixed9(_ value: Double) { appendFixed(value, decimals: 9) }

    @inline(__always)
    private mutating func appendFixed(_ value: Double, decimals: Int) {
        let unit = Self.powerOfTen(decimals)
        // Powers of ten up to 10^22 are exact doubles: the scaling rounds only once.
        let scaled = value.magnitude * Double(unit)
        guard value.isFinite, scaled < 9e15 else { return appendUnscaled(value) }
        // Half away from zero on the magnitude; a truncating conversion, not libm's round.
        let units = UInt(scaled + 0.5)
        // Below 9e15: 16 digits, a sign and a point at most.
        reserve(20)
        var p = base + count
        if value < 0 && units != 0 {
            p.pointee = 0x2D
            p += 1
        }
        // At least one digit before the point: 0.5 is "0.5", not ".5".
        let whole = units / unit
        let digits = Self.digitCount(whole)
        p += digits
        var digit = p
        Self.writeDigits(whole, count: digits, endingAt: &digit)
        if decimals > 0 {
            p.pointee = 0x2E
            p += decimals &+ 1
            digit = p
            Self.writeDigits(units &- whole &* unit, count: decimals, endingAt: &digit)
        }
        count = p - base
    }

    /// What no receiver's value comes to (9e15 and beyond, infinities, NaN), written the way
    /// Swift prints it; kept out of line so the common path stays small.
    @inline(never)
    private mutating func appendUnscaled(_ value: Double) {
        append(value.isFinite ? String(value) : "null")
    }
}
