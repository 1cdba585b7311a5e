/// Appends text and numbers to a byte buffer without going through `String` or `Foundation`:
/// output runs once per epoch, but replay at full speed makes that a hot path too.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    @inline(__always)
    public mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    public mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    @inline(__always)
    public mutating func append(byte: UInt8) { bytes.append(byte) }

    /// A JSON string, escaped.
    public mutating func appendJSONString(_ text: String) {
        bytes.append(0x22)
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
            default: bytes.append(b)
            }
        }
        bytes.append(0x22)
    }

    public mutating func appendHexByte(_ b: UInt8) {
        let digits: StaticString = "0123456789ABCDEF"
        bytes.append(digits.utf8Start[Int(b >> 4)])
        bytes.append(digits.utf8Start[Int(b & 0xF)])
    }

    public mutating func append(_ value: Int, width: Int = 0) {
        var v = value
        if v < 0 {
            bytes.append(0x2D)
            v = -v
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[n] = UInt8(v % 10) + 0x30
                v /= 10
                n += 1
            } while v > 0 && n < 20
            for _ in n..<max(n, width) { bytes.append(0x30) }
            while n > 0 {
                n -= 1
                bytes.append(d[n])
            }
        }
    }

    private static let scales: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    /// A number with exactly `decimals` digits after the point, rounded half away from zero,
    /// as C's `%.Nf` prints it for the magnitudes a receiver reports.
    public mutating func append(_ value: Double, decimals: Int) {
        precondition(decimals >= 0 && decimals <= 9)
        let scale = Self.scales[decimals]
        let scaled = (value.magnitude * scale).rounded()
        guard value.isFinite, scaled < 9e15 else {
            append(value.isFinite ? String(value) : "null")
            return
        }
        let units = Int(scaled)
        if value < 0 && units != 0 { bytes.append(0x2D) }
        let divisor = Int(scale)
        append(units / divisor)
        guard decimals > 0 else { return }
        bytes.append(0x2E)
        append(units % divisor, width: decimals)
    }
}
