/// A geodetic datum as NMEA's DTM names it: a code of one to four ASCII letters and digits,
/// `W84` (WGS 84), `W72` (WGS 72), `S85` (SGS 85), `P90` (PE 90), `999` (user defined) or an
/// IHO datum code (S-60: three characters, `EUR`, `TOY`…).
///
/// Kept as one number, not a `String`: a fix carries it to every output, and a fix is copied
/// on the way (see `Fix`).
public struct Datum: Hashable, Sendable, CustomStringConvertible {
    /// The code's bytes, the first in the highest of the used bytes: `W84` is 0x573834; never 0.
    @usableFromInline let packed: UInt32

    /// The longest code kept; a longer field is no datum code NMEA defines.
    public static let maximumCodeLength = 4

    /// WGS 84, the datum of GPS and of every position gpsfix reports unless a DTM says otherwise.
    public static let wgs84 = Datum(packed: 0x57_38_34)
    /// WGS 72.
    public static let wgs72 = Datum(packed: 0x57_37_32)
    /// SGS 85 (Soviet Geodetic System 1985).
    public static let sgs85 = Datum(packed: 0x53_38_35)
    /// PE 90 (Parametry Zemli 1990), GLONASS's.
    public static let pe90 = Datum(packed: 0x50_39_30)
    /// `999`: a datum the user set in the receiver.
    public static let userDefined = Datum(packed: 0x39_39_39)

    @usableFromInline init(packed: UInt32) { self.packed = packed }

    /// The datum of `code`: one to ``maximumCodeLength`` ASCII letters (upper or lower case,
    /// kept as given) and digits; nil for anything else.
    public init?(code: some StringProtocol) {
        self.init(bytes: code.utf8)
    }

    /// The datum of a field's bytes, as ``init(code:)`` judges them.
    init?(bytes: some Collection<UInt8>) {
        guard !bytes.isEmpty, bytes.count <= Self.maximumCodeLength else { return nil }
        var packed: UInt32 = 0
        for b in bytes {
            guard (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) else { return nil }
            packed = packed << 8 | UInt32(b)
        }
        self.packed = packed
    }

    /// The datum gpsd's TPV `datum` member names: gpsd's name of a datum it knows
    /// (``name``), or a code as ``init(code:)`` takes it; nil for anything else.
    public init?(gpsdName name: some StringProtocol) {
        switch String(name) {
        case "WGS84": self = .wgs84
        case "WGS72": self = .wgs72
        case "SGS85": self = .sgs85
        case "PE90": self = .pe90
        case "User Defined": self = .userDefined
        default: self.init(code: name)
        }
    }

    /// The code as the receiver sent it: `W84`.
    public var code: String {
        var bytes: [UInt8] = []
        var rest = packed
        while rest != 0 {
            bytes.append(UInt8(truncatingIfNeeded: rest))
            rest >>= 8
        }
        return String(decoding: bytes.reversed(), as: UTF8.self)
    }

    /// The name gpsd writes in its TPV's `datum` member (its `processDTM`): `WGS84`, `WGS72`,
    /// `SGS85`, `PE90` or `User Defined` for the codes NMEA defines, the code itself for any
    /// other (an IHO code).
    public var name: String {
        switch self {
        case .wgs84: "WGS84"
        case .wgs72: "WGS72"
        case .sgs85: "SGS85"
        case .pe90: "PE90"
        case .userDefined: "User Defined"
        default: code
        }
    }

    /// ``name``.
    public var description: String { name }
}

extension Datum: Codable {
    /// The datum's ``code``, as a string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }

    /// A datum from its ``code``; any other string fails to decode.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let datum = Datum(code: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a datum code: \(text)")
        }
        self = datum
    }
}

/// A `Datum?` in the room of a `UInt32`, 0 standing for nil (no code packs to 0): in a `Fix`
/// it fills the padding after the timestamp, so the datum costs a fix no bytes.
///
/// Encoded as the datum's code, or left out of a keyed container when nil, as `Unknowable` is.
@propertyWrapper
public struct PackedDatum: Hashable, Sendable, Codable {
    @usableFromInline var packed: UInt32

    /// Holds `wrappedValue`, nil as 0: what `@PackedDatum public var datum: Datum?` calls.
    @inlinable
    public init(wrappedValue: Datum?) {
        packed = wrappedValue?.packed ?? 0
    }

    /// The datum, nil when none was stated.
    @inlinable
    public var wrappedValue: Datum? {
        get { packed == 0 ? nil : Datum(packed: packed) }
        set { packed = newValue?.packed ?? 0 }
    }

    /// Reads a code, or null as none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        packed = container.decodeNil() ? 0 : try container.decode(Datum.self).packed
    }

    /// Writes the code, or null when none (a keyed container leaves the member out).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let datum = wrappedValue { try container.encode(datum) } else { try container.encodeNil() }
    }
}

// As `Unknowable`'s: a nil datum is left out, and an absent one reads as nil.
extension PackedDatum: OmittedWhenEmpty {
    var present: Datum? { wrappedValue }
    init(present: Datum?) { self.init(wrappedValue: present) }
}
