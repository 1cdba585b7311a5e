/// Reads the one kind of JSON a gpsd client sends: a flat object whose members are true,
/// false, null, numbers or strings (`{"enable":true,"json":true,"device":"/dev/ttyUSB0"}`).
/// Small on purpose: Foundation's parser would bring Foundation and ICU into every start of
/// the `gpsfix` binary for one request a session.
enum FlatJSON {
    enum Value: Equatable, Sendable {
        case bool(Bool)
        case number(Double)
        case string(String)
        case null
    }

    /// The members in order, or nil when the text is not such an object.
    static func object(_ text: Substring) -> [(key: String, value: Value)]? {
        var reader = Reader(bytes: Array(text.utf8))
        return reader.object()
    }

    private struct Reader {
        let bytes: [UInt8]
        var i = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func object() -> [(key: String, value: Value)]? {
            var members: [(key: String, value: Value)] = []
            skipBlanks()
            guard take(UInt8(ascii: "{")) else { return nil }
            skipBlanks()
            if !take(UInt8(ascii: "}")) {
                while true {
                    skipBlanks()
                    guard let key = string() else { return nil }
                    skipBlanks()
                    guard take(UInt8(ascii: ":")) else { return nil }
                    skipBlanks()
                    guard let value = value() else { return nil }
                    members.append((key, value))
                    skipBlanks()
                    if take(UInt8(ascii: ",")) { continue }
                    guard take(UInt8(ascii: "}")) else { return nil }
                    break
                }
            }
            skipBlanks()
            return i == bytes.count ? members : nil
        }

        private mutating func value() -> Value? {
            guard i < bytes.count else { return nil }
            switch bytes[i] {
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return number().map(Value.number)
            }
        }

        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var out: [UInt8] = []
            while i < bytes.count {
                let b = bytes[i]
                i += 1
                switch b {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard i < bytes.count else { return nil }
                    let e = bytes[i]
                    i += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        guard i + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16) else { return nil }
                        i += 4
                        // A lone surrogate half cannot be a character: it becomes U+FFFD.
                        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default:
                        return nil
                    }
                case 0..<0x20:
                    return nil
                default:
                    out.append(b)
                }
            }
            return nil
        }

        private mutating func number() -> Double? {
            let start = i
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
            while i < bytes.count, isNumberByte(bytes[i]) { i += 1 }
            guard i > start else { return nil }
            return Double(String(decoding: bytes[start..<i], as: UTF8.self))
        }

        private func isNumberByte(_ b: UInt8) -> Bool {
            (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: ".") || b == UInt8(ascii: "e")
                || b == UInt8(ascii: "E") || b == UInt8(ascii: "+") || b == UInt8(ascii: "-")
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard i + n <= bytes.count else { return false }
            for k in 0..<n where bytes[i + k] != word.utf8Start[k] { return false }
            i += n
            return true
        }

        private mutating func take(_ b: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == b else { return false }
            i += 1
            return true
        }

        private mutating func skipBlanks() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
        }
    }
}
