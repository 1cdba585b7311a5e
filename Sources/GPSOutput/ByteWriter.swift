/// Appends text and numbers to a byte buffer without going through `String` or `Foundation`:
/// output runs once per epoch, but replay at full speed makes that a hot path too.
public struct ByteWriter: ~Copyable, @unchecked Sendable {
    // Owned exclusively (the type cannot be copied), so a raw buffer is safe to share with
    // no one, and every append is a bounds check and a store: no copy-on-write test per byte.
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    public private(set) var count = 0

    public init(capacity: Int = 4096) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// A copy of what has been written.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }
    public var isEmpty: Bool { count == 0 }

    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

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

    public mutating func appendHexByte(_ b: UInt8) {
        let digits: StaticString = "0123456789ABCDEF"
        append(byte: digits.utf8Start[Int(b >> 4)])
        append(byte: digits.utf8Start[Int(b & 0xF)])
    }

    /// A decimal integer, zero-padded to `width` digits.
    public mutating func append(_ value: Int, width: Int = 0) {
        if value < 0 { append(byte: 0x2D) }
        appendDigits(value.magnitude, width: width, point: -1)
    }

    /// "00" to "99": two digits per division, and a literal, so reading it needs no
    /// lazy initialisation and no bounds check.
    private static let pairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// Writes `v` in decimal, at least `width` digits, with a `.` before the last `point`
    /// digits when `point` ≥ 0. Straight into the buffer: this is most of the JSON's bytes.
    @inline(__always)
    private mutating func appendDigits(_ value: UInt, width: Int, point: Int) {
        guard point > 0 else {
            appendFixed(value, width: max(Self.digitCount(value), width))
            return
        }
        let unit = Self.powerOfTen(point)
        let whole = value / unit
        appendFixed(whole, width: max(Self.digitCount(whole), width - point))
        reserve(1)
        (base + count).pointee = 0x2E
        count += 1
        appendFixed(value - whole * unit, width: point)
    }

    /// Exactly `width` digits of `v` (leading zeros as needed), written from the end.
    @inline(__always)
    private mutating func appendFixed(_ value: UInt, width: Int) {
        reserve(width)
        let pairs = Self.pairs.utf8Start
        var p = base + count + width
        var v = value
        var left = width
        while left >= 2 {
            let r = Int(v % 100) &* 2
            v /= 100
            p -= 2
            p[0] = pairs[r]
            p[1] = pairs[r &+ 1]
            left -= 2
        }
        if left == 1 {
            p -= 1
            p.pointee = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
        }
        count += width
    }

    @inline(__always)
    private static func digitCount(_ v: UInt) -> Int {
        var digits = 1
        var bound: UInt = 10
        while v >= bound && digits < 19 {
            digits += 1
            bound = bound &* 10
        }
        return digits
    }

    @inline(__always)
    private static func powerOfTen(_ n: Int) -> UInt {
        var p: UInt = 1
        for _ in 0..<n { p &*= 10 }
        return p
    }

    @inline(__always)
    private static func scale(_ decimals: Int) -> Double {
        var s = 1.0
        for _ in 0..<decimals { s *= 10 }
        return s
    }

    /// A number with exactly `decimals` digits after the point, as gpsd's `%.Nf` prints it.
    /// Rounding is half away from zero after scaling, so an exact tie in decimal (0.15 to one
    /// decimal) rounds up where C, which rounds the exact binary value 0.1499…, prints 0.1;
    /// everywhere else the two agree.
    public mutating func append(_ value: Double, decimals: Int) {
        precondition(decimals >= 0 && decimals <= 9)
        let scaled = value.magnitude * Self.scale(decimals)
        guard value.isFinite, scaled < 9e15 else {
            append(value.isFinite ? String(value) : "null")
            return
        }
        // Half away from zero on the magnitude; a truncating conversion, not libm's round.
        let units = UInt(scaled + 0.5)
        if value < 0 && units != 0 { append(byte: 0x2D) }
        // At least one digit before the point: 0.5 is "0.5", not ".5".
        appendDigits(units, width: decimals + 1, point: decimals > 0 ? decimals : -1)
    }
}
