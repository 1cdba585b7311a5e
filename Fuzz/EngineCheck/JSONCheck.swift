import GPSLocation
import GPSOutput

/// The JSON reader on the same hostile bytes, line by line: whatever it accepts, written back
/// as JSON, must read again as the same value (a surrogate split, an escape misread, a number
/// taken loosely would not), and reading an object's members in order must agree with
/// reading it whole. Nothing it does may trap.
extension Checker {
    /// Lines looked at per input: enough for any seed, few enough to keep the fuzzer fast.
    static let jsonLinesPerInput = 64

    mutating func checkJSON(_ stream: UnsafeRawBufferPointer) {
        var start = 0
        var lines = 0
        while start < stream.count, lines < Self.jsonLinesPerInput {
            var end = start
            while end < stream.count, stream[end] != 0x0A { end += 1 }
            if end > start { checkJSON(line: Array(stream[start..<end])) }
            lines += 1
            start = end + 1
        }
    }

    private mutating func checkJSON(line: [UInt8]) {
        let members = JSONValue.members(parsing: line)
        guard let value = JSONValue(parsing: line) else {
            if members != nil { fail("an object's members read, the object not: \(String(decoding: line, as: UTF8.self))") }
            return
        }
        if case .object(let whole) = value {
            guard let members, Set(members.map(\.key)) == Set(whole.keys) else {
                return fail("an object read, its members not: \(String(decoding: line, as: UTF8.self))")
            }
        } else if members != nil {
            fail("members read from what is no object")
        }
        var w = ByteWriter()
        write(value, into: &w)
        guard let again = JSONValue(parsing: w.bytes) else {
            return fail("JSON read and written is not read again: \(String(decoding: w.bytes, as: UTF8.self))")
        }
        if again != value { fail("JSON read, written and read again differs: \(String(decoding: w.bytes, as: UTF8.self))") }
    }

    private func write(_ value: JSONValue, into w: inout ByteWriter) {
        switch value {
        case .number(let n): w.append(n.description)
        case .string(let s): w.appendJSONString(s)
        case .bool(let b): w.append(b ? "true" : "false")
        case .null: w.append("null")
        case .array(let items):
            w.append(byte: 0x5B)
            for (i, item) in items.enumerated() {
                if i > 0 { w.append(byte: 0x2C) }
                write(item, into: &w)
            }
            w.append(byte: 0x5D)
        case .object(let members):
            w.append(byte: 0x7B)
            for (i, (key, item)) in members.enumerated() {
                if i > 0 { w.append(byte: 0x2C) }
                w.appendJSONString(key)
                w.append(byte: 0x3A)
                write(item, into: &w)
            }
            w.append(byte: 0x7D)
        }
    }
}
