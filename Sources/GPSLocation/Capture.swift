/// A capture in gpsfake's format: `#` header lines (`# Name: …`), then the receiver's raw bytes.
public struct CaptureHeader: Equatable, Sendable {
    /// `Key: value` pairs in file order; continuation lines (`#   …`) are appended to the last value.
    public var fields: [(key: String, value: String)]
    /// Where the raw bytes begin.
    public var bodyOffset: Int

    public static func == (a: CaptureHeader, b: CaptureHeader) -> Bool {
        a.bodyOffset == b.bodyOffset && a.fields.elementsEqual(b.fields) { $0.key == $1.key && $0.value == $1.value }
    }

    /// The value of the first field named `key`, compared without case (`header["device"]`
    /// finds `# Device: …`); nil when the header has none.
    public subscript(key: String) -> String? {
        fields.first { $0.key.lowercased() == key.lowercased() }?.value
    }

    /// Reads the header at the start of `bytes`. Bytes without one have an empty header.
    public init(parsing bytes: UnsafeRawBufferPointer) {
        fields = []
        var offset = 0
        while offset < bytes.count, bytes[offset] == UInt8(ascii: "#") {
            var end = offset
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            var text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(offset + 1)..<end]), as: UTF8.self)
            if text.hasSuffix("\r") { text.removeLast() }
            let indented = text.hasPrefix("  ")
            let body = text.trimmingSpaces
            if !indented, let colon = body.firstIndex(of: ":"),
               case let key = body[..<colon].trimmingSpaces, !key.isEmpty, key.split(separator: " ").count <= 2 {
                fields.append((key, body[body.index(after: colon)...].trimmingSpaces))
            } else if indented, !fields.isEmpty, !body.isEmpty {
                // An indented line continues the previous value (gpsd's multi-line Location).
                fields[fields.count - 1].value += " " + body
            } else if !body.isEmpty {
                fields.append(("Comment", body))
            }
            offset = min(end + 1, bytes.count)
        }
        bodyOffset = offset
    }

    /// A header to write, with `fields` in the order given (`text` writes it); ``bodyOffset`` is 0,
    /// as nothing has been read.
    public init(fields: [(key: String, value: String)]) {
        self.fields = fields
        bodyOffset = 0
    }

    /// The header as it is written at the top of a capture.
    public var text: String {
        fields.map { "# \($0.key): \($0.value)\n" }.joined()
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return String(s)
    }
}
