/// A small JSON reader for what comes off the network (a broker's reports, a gpsd's lines): one
/// value, held to limits (size, depth, a number's length) so that whatever a peer sends cannot
/// make it work hard or trap.
package enum JSONValue: Equatable {
    case number(Double)
    case string(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    /// A gpsd report is a few kB; a SKY of 140 satellites about 11 kB.
    package static let maximumSize = 65_536
    package static let maximumDepth = 8

    /// Nil for anything that is not one whole JSON value within the limits.
    package init?(parsing bytes: [UInt8]) {
        guard bytes.count <= Self.maximumSize else { return nil }
        var reader = Reader(bytes: bytes)
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        guard reader.index == bytes.count else { return nil }
        self = value
    }

    package subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    package var double: Double? { if case .number(let n) = self { n } else { nil } }
    package var string: String? { if case .string(let s) = self { s } else { nil } }
    package var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    package var array: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    /// A number that is a whole number within `Int`'s range.
    package var int: Int? {
        guard let n = double, n == n.rounded(), abs(n) < 1e15 else { return nil }
        return Int(n)
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) -> JSONValue? {
            guard depth <= JSONValue.maximumDepth else { return nil }
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(JSONValue.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default: return number()
            }
        }

        private mutating func literal(_ word: String, _ value: JSONValue) -> JSONValue? {
            let w = Array(word.utf8)
            guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else { return nil }
            index += w.count
            return value
        }

        private mutating func number() -> JSONValue? {
            let start = index
            while index < bytes.count, index - start <= 32,
                  let c = Optional(bytes[index]), (c >= 0x30 && c <= 0x39) || [0x2D, 0x2B, 0x2E, 0x65, 0x45].contains(c) {
                index += 1
            }
            // Longer than any number gpsd writes: refused rather than converted.
            guard index > start, index - start <= 32,
                  let n = Double(String(decoding: bytes[start..<index], as: UTF8.self)), n.isFinite else { return nil }
            return .number(n)
        }

        private mutating func string() -> String? {
            index += 1
            var out: [UInt8] = []
            while index < bytes.count {
                let c = bytes[index]
                index += 1
                switch c {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return nil }
                    let e = bytes[index]
                    index += 1
                    switch e {
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "u"):
                        guard index + 4 <= bytes.count,
                              let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else { return nil }
                        index += 4
                        // Surrogates (characters beyond the BMP) become U+FFFD: device names do not need them.
                        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default: out.append(e)
                    }
                default:
                    guard c >= 0x20 else { return nil }
                    out.append(c)
                }
            }
            return nil
        }

        private mutating func array(depth: Int) -> JSONValue? {
            index += 1
            var items: [JSONValue] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            while true {
                guard let item = value(depth: depth + 1) else { return nil }
                items.append(item)
                skipSpace()
                guard index < bytes.count else { return nil }
                let c = bytes[index]
                index += 1
                if c == UInt8(ascii: "]") { return .array(items) }
                guard c == UInt8(ascii: ",") else { return nil }
            }
        }

        private mutating func object(depth: Int) -> JSONValue? {
            index += 1
            var members: [String: JSONValue] = [:]
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let item = value(depth: depth + 1) else { return nil }
                members[key] = item
                skipSpace()
                guard index < bytes.count else { return nil }
                let c = bytes[index]
                index += 1
                if c == UInt8(ascii: "}") { return .object(members) }
                guard c == UInt8(ascii: ",") else { return nil }
            }
        }
    }
}
