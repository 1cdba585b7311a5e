/// A `Double?` stored in the room of a `Double`, NaN standing for nil.
///
/// A fix is copied on its way to every output, and a dozen optional measurements kept as
/// `Double?` take 16 bytes each (a tag byte, padded): half of every copy was padding. No
/// received value is NaN (decoders read digits; gpsd's NaNs are read as unknown), so NaN is
/// free to mean "the receiver did not say". Setting NaN reads back as nil, which is what a NaN
/// measurement is.
@propertyWrapper
public struct Unknowable: Equatable, Sendable {
    @usableFromInline var stored: Double

    @inlinable
    public init(wrappedValue: Double?) {
        stored = wrappedValue ?? .nan
    }

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
}
