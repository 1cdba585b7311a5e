/// An optional value kept out of line, behind one reference: nil costs the eight bytes of
/// the reference and nothing else.
///
/// A fix is copied on its way to every output, and most fixes carry no attitude and no
/// marine data (most receivers are alone on their wire). Inline, those two groups would add
/// fourteen measurements, 112 bytes, to every copy; boxed they add two references. The box is
/// never changed in place: setting the value makes a new one, so copies of a fix share it
/// safely across threads.
///
/// Encoded as its value, or as nothing: a member that is nil is left out of a keyed
/// container (and read back as nil when absent or null).
@propertyWrapper
public struct Boxed<Value: Hashable & Codable & Sendable>: Hashable, Codable, Sendable {
    final class Box: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private var box: Box?

    /// Holds `wrappedValue`, boxed unless nil: what `@Boxed public var x: Value?` calls.
    public init(wrappedValue: Value?) {
        box = wrappedValue.map(Box.init)
    }

    /// The value, nil when there is none.
    public var wrappedValue: Value? {
        get { box?.value }
        set { box = newValue.map(Box.init) }
    }

    /// As the values compare: the same box is equal without looking inside.
    public static func == (a: Boxed, b: Boxed) -> Bool {
        switch (a.box, b.box) {
        case (nil, nil): true
        case let (x?, y?): x === y || x.value == y.value
        default: false
        }
    }

    /// Hashes as it compares: by its value.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(wrappedValue)
    }

    /// Reads a value, or null as none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        box = container.decodeNil() ? nil : Box(try container.decode(Value.self))
    }

    /// Writes the value, or null when there is none (a keyed container leaves the member out).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value = wrappedValue { try container.encode(value) } else { try container.encodeNil() }
    }
}

// As for `Unknowable`: what the synthesized `Codable` of the engine's values calls for a
// `@Boxed` member, so that nil is left out rather than written null, and an absent member
// reads as nil.
extension KeyedEncodingContainer {
    mutating func encode<Value>(_ value: Boxed<Value>, forKey key: Key) throws {
        try encodeIfPresent(value.wrappedValue, forKey: key)
    }
}

extension KeyedDecodingContainer {
    func decode<Value>(_ type: Boxed<Value>.Type, forKey key: Key) throws -> Boxed<Value> {
        Boxed(wrappedValue: try decodeIfPresent(Value.self, forKey: key))
    }
}
