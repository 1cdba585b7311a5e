/// The one JSON reader for what comes off the network (a broker's reports, a gpsd's lines, a
/// gpsd client's requests): one value, strict RFC 8259, held to limits (size, depth, members
/// per container, a number's length) so that whatever a peer sends cannot make it work hard,
/// hold much or trap.
///
/// Strict means what is not JSON is refused, not guessed at: numbers only in JSON's shape
/// (`+1`, `01`, `.9`, `0.`, `1e` are not numbers), only JSON's escapes (`"\V"` is none) with
/// exactly four hex digits (`\u-000` is none), no raw control characters in strings, and valid
/// UTF-8 only (no overlong forms, no encoded surrogates, nothing past U+10FFFF). A surrogate
/// pair (`\ud83d\ude00`) is joined into its one character; a lone surrogate half is an error,
/// since it is no character at all. A repeated member keeps its last value.
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
    /// Items of one array or members of one object: a SKY of libgps 3.27's 184 satellites
    /// is far below; anything near it is no report.
    package static let maximumCount = 4_096
    /// Characters of one number: longer than any number gpsd writes, refused rather than
    /// converted.
    package static let maximumNumberLength = 32

    /// Nil for anything that is not one whole JSON value within the limits.
    package init?(parsing bytes: [UInt8]) {
        guard bytes.count <= Self.maximumSize else { return nil }
        var reader = Reader(bytes: bytes)
        guard let value = reader.value(depth: 0), reader.atEnd() else { return nil }
        self = value
    }

    /// The members of one whole JSON object in the order written (a repeated member each
    /// time), within the same limits; nil for anything else. For a reader that answers about
    /// members in turn (a gpsd client's `?WATCH={…}`), so that which is named first is told
    /// first.
    package static func members(parsing bytes: [UInt8]) -> [(key: String, value: JSONValue)]? {
        guard bytes.count <= maximumSize else { return nil }
        var reader = Reader(bytes: bytes)
        reader.skipSpace()
        guard let members = reader.members(depth: 0), reader.atEnd() else { return nil }
        return members
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
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        /// Whether only blanks are left.
        mutating func atEnd() -> Bool {
            skipSpace()
            return index == bytes.count
        }

        mutating func value(depth: Int) -> JSONValue? {
            guard depth <= JSONValue.maximumDepth else { return nil }
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return members(depth: depth).map { .object(Dictionary($0, uniquingKeysWith: { _, last in last })) }
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(JSONValue.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default: return number()
            }
        }

        private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
            let n = word.utf8CodeUnitCount
            guard index + n <= bytes.count else { return nil }
            for k in 0..<n where bytes[index + k] != word.utf8Start[k] { return nil }
            index += n
            return value
        }

        private func digit(at i: Int) -> Bool {
            i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9")
        }

        /// `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`, and nothing looser.
        private mutating func number() -> JSONValue? {
            let start = index
            var i = index
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digit(at: i) else { return nil }
            if bytes[i] == UInt8(ascii: "0") {
                i += 1
                // A leading zero stands alone: `01` is no number.
                guard !digit(at: i) else { return nil }
            } else {
                while digit(at: i) { i += 1 }
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                guard digit(at: i) else { return nil }
                while digit(at: i) { i += 1 }
            }
            if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                guard digit(at: i) else { return nil }
                while digit(at: i) { i += 1 }
            }
            guard i - start <= JSONValue.maximumNumberLength,
                  let n = Double(String(decoding: bytes[start..<i], as: UTF8.self)), n.isFinite else { return nil }
            index = i
            return .number(n)
        }

        private func hex(at i: Int) -> UInt32? {
            guard i + 4 <= bytes.count else { return nil }
            var code: UInt32 = 0
            for b in bytes[i..<i + 4] {
                let v: UInt8
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): v = b - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): v = b - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): v = b - UInt8(ascii: "A") + 10
                default: return nil
                }
                code = code << 4 | UInt32(v)
            }
            return code
        }

        /// The scalar of a `\u` escape whose four digits start at `index`, joining a surrogate
        /// pair written as two escapes; nil for a lone half.
        private mutating func escapedScalar() -> Unicode.Scalar? {
            guard let first = hex(at: index) else { return nil }
            index += 4
            switch first {
            case 0xD800...0xDBFF:
                guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                      let second = hex(at: index + 2), (0xDC00...0xDFFF).contains(second) else { return nil }
                index += 6
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
            case 0xDC00...0xDFFF:
                return nil
            default:
                return Unicode.Scalar(first)
            }
        }

        /// The length of the well-formed UTF-8 sequence at `i` (its lead byte 0x80 or above),
        /// or nil: Unicode's table 3-7, so no overlong form, no surrogate, nothing past U+10FFFF.
        private func utf8Length(at i: Int) -> Int? {
            let lead = bytes[i]
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return nil
            }
            guard i + length <= bytes.count else { return nil }
            guard (low...high).contains(bytes[i + 1]) else { return nil }
            for k in 2..<length where !(0x80...0xBF).contains(bytes[i + k]) { return nil }
            return length
        }

        mutating func string() -> String? {
            index += 1
            var out: [UInt8] = []
            while index < bytes.count {
                let c = bytes[index]
                switch c {
                case UInt8(ascii: "\""):
                    index += 1
                    // Every byte was checked to be well-formed UTF-8 on the way in.
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index + 1 < bytes.count else { return nil }
                    let e = bytes[index + 1]
                    index += 2
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let scalar = escapedScalar() else { return nil }
                        out.append(contentsOf: String(Character(scalar)).utf8)
                    default:
                        return nil
                    }
                case 0..<0x20:
                    return nil
                case 0x80...:
                    guard let n = utf8Length(at: index) else { return nil }
                    out.append(contentsOf: bytes[index..<index + n])
                    index += n
                default:
                    out.append(c)
                    index += 1
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
                guard items.count < JSONValue.maximumCount, let item = value(depth: depth + 1) else { return nil }
                items.append(item)
                skipSpace()
                guard index < bytes.count else { return nil }
                let c = bytes[index]
                index += 1
                if c == UInt8(ascii: "]") { return .array(items) }
                guard c == UInt8(ascii: ",") else { return nil }
            }
        }

        /// An object at `index` (its `{`), as its members in order.
        mutating func members(depth: Int) -> [(key: String, value: JSONValue)]? {
            guard depth <= JSONValue.maximumDepth, index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
            index += 1
            var members: [(key: String, value: JSONValue)] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return members }
            while true {
                skipSpace()
                guard members.count < JSONValue.maximumCount, index < bytes.count, bytes[index] == UInt8(ascii: "\""),
                      let key = string() else { return nil }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let item = value(depth: depth + 1) else { return nil }
                members.append((key, item))
                skipSpace()
                guard index < bytes.count else { return nil }
                let c = bytes[index]
                index += 1
                if c == UInt8(ascii: "}") { return members }
                guard c == UInt8(ascii: ",") else { return nil }
            }
        }
    }
}
