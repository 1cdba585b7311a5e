import GPSLocation

/// The one kind of JSON a gpsd client sends: a flat object whose members are true, false,
/// null, numbers or strings (`{"enable":true,"json":true,"device":"/dev/ttyUSB0"}`). Read by
/// the package's one strict reader (`JSONValue`: RFC 8259, bounded), so a request is held to
/// the same rules as a gpsd's lines and a broker's reports; a nested array or object is no
/// such request. Not Foundation's parser: it would bring Foundation and ICU into every start
/// of the `gpsfix` binary for one request a session.
enum FlatJSON {
    enum Value: Equatable, Sendable {
        case bool(Bool)
        case number(Double)
        case string(String)
        case null
    }

    /// The members in order, or nil when the text is not such an object.
    static func object(_ text: Substring) -> [(key: String, value: Value)]? {
        guard let members = JSONValue.members(parsing: Array(text.utf8)) else { return nil }
        var flat: [(key: String, value: Value)] = []
        flat.reserveCapacity(members.count)
        for (key, value) in members {
            switch value {
            case .bool(let b): flat.append((key, .bool(b)))
            case .number(let n): flat.append((key, .number(n)))
            case .string(let s): flat.append((key, .string(s)))
            case .null: flat.append((key, .null))
            case .array, .object: return nil
            }
        }
        return flat
    }
}
