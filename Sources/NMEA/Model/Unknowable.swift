/// A `Double?` stored in the room of a `Double`, NaN standing for nil.
///
/// A fix is copied on its way to every output, and a dozen optional measurements kept as
/// `Double?` take 16 bytes each (a tag byte, padded): half of every copy was padding. No
/// received value is NaN (decoders read digits; gpsd's NaNs are read as unknown), so NaN is
/// free to mean "the receiver did not say". Setting NaN reads back as nil, which is what a NaN
/// measurement is.
///
/// Encoded as its value, or as nothing: a member that is nil is left out of a keyed container
/// (and read back as nil when absent or null), never written as NaN, which JSON cannot hold.
@propertyWrapper
public struct Unknowable: Hashable, Codable, Sendable {
    @usableFromInline var stored: Double

    /// Holds `wrappedValue`, nil as NaN: what `@Unknowable public var x: Double?` calls.
    @inlinable
    public init(wrappedValue: Double?) {
        stored = wrappedValue ?? .nan
    }

    /// The measurement, nil when unknown (stored as NaN, so a NaN set here reads back nil).
    @inlinable
    public var wrappedValue: Double? {
        get { stored.isNaN ? nil : stored }
        set { stored = newValue ?? .nan }
    }

    /// As `Double?` compares: two unknowns are equal, and 0 equals −0.
    @inlinable
    public static func == (a: Unknowable, b: Unknowable) -> Bool {
        a.stored == b.stored || (a.stored.isNaN && b.stored.isNaN)
    }

    /// Hashes as it compares: every unknown alike, 0 as −0 (as `Double` hashes them).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(wrappedValue)
    }

    /// Reads a number, or null as unknown.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        stored = container.decodeNil() ? .nan : try container.decode(Double.self)
    }

    /// Writes the number, or null when unknown (a keyed container leaves the member out).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value = wrappedValue { try container.encode(value) } else { try container.encodeNil() }
    }
}

/// A member of the engine's values that a keyed container leaves out when it holds nothing,
/// and reads as holding nothing when absent: `@Unknowable`, `@PackedDatum` and `@Centimetres`
/// (nil), and a fix's ``ErrorEstimates`` (none known). Internal: only the engine's own types
/// are encoded this way.
protocol OmittedWhenEmpty: Codable {
    associatedtype Present: Codable
    /// What is written, or nil to leave the member out.
    var present: Present? { get }
    /// What a member read back (nil: absent) holds.
    init(present: Present?)
}

// What the synthesized `Codable` of the engine's values calls for such a member (the overload
// for the narrower protocol is preferred to the standard library's): nothing is left out rather
// than written null, and a member that is absent reads as nothing rather than failing the
// whole value.
extension KeyedEncodingContainer {
    mutating func encode<T: OmittedWhenEmpty>(_ value: T, forKey key: Key) throws {
        try encodeIfPresent(value.present, forKey: key)
    }
}

extension KeyedDecodingContainer {
    func decode<T: OmittedWhenEmpty>(_ type: T.Type, forKey key: Key) throws -> T {
        T(present: try decodeIfPresent(T.Present.self, forKey: key))
    }
}

extension Unknowable: OmittedWhenEmpty {
    var present: Double? { wrappedValue }
    init(present: Double?) { self.init(wrappedValue: present) }
}
