/// DTM — Datum Reference (NMEA 0183 §8.3.25).
///
/// `$--DTM,ccc,a,x.x,a,x.x,a,x.x,ccc*hh`: the local datum the positions are in, its
/// subdivision, its offsets from the reference datum (latitude and longitude in minutes,
/// altitude in metres) and that reference datum. u-blox receivers send
/// `$GPDTM,W84,,0.0,N,0.0,E,0.0,W84`, a Saab R4 `$GPDTM,W84,C` (the datum alone).
///
/// The local datum is the fix's ``Fix/datum`` (gpsd's TPV `datum`); the offsets are for an
/// app that converts positions itself.
public struct DTM: Equatable, Sendable {
    /// Field 1, the local datum's code (`W84`, `999`, an IHO code); nil when empty or not
    /// one to four letters and digits (counted in ``outOfRange``).
    public var localDatum: Datum?
    /// Field 2, the local datum's subdivision code, a letter as sent (IHO S-60); nil when empty.
    public var subdivision: Unicode.Scalar?
    /// Fields 3 and 4, the latitude offset in minutes of arc, north positive, 0…60 before its
    /// sign (``Bounds/datumOffset``); nil without an `N` or `S`.
    public var latitudeOffset: Double?
    /// Fields 5 and 6, the longitude offset in minutes of arc, east positive, 0…60 before its
    /// sign (``Bounds/datumOffset``); nil without an `E` or `W`.
    public var longitudeOffset: Double?
    /// Field 7, the altitude offset in metres, −10 000…10 000 (``Bounds/datumAltitudeOffset``).
    public var altitudeOffset: Double?
    /// Field 8, the reference datum's code (the standard says `W84`); nil when empty or not a
    /// code (counted in ``outOfRange``).
    public var referenceDatum: Datum?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of a DTM from any talker (`GPDTM`, `GNDTM`, …); the caller has matched
    /// the address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        localDatum = Self.datum(f.next(), &f)
        let sub = f.next()
        if sub.bytes.count == 1, let c = sub.character, c >= 0x21, c <= 0x7E { subdivision = Unicode.Scalar(c) }
        latitudeOffset = Self.offset(&f, positive: 0x4E, negative: 0x53)   // N, S
        longitudeOffset = Self.offset(&f, positive: 0x45, negative: 0x57)  // E, W
        altitudeOffset = f.double(in: Bounds.datumAltitudeOffset)
        referenceDatum = Self.datum(f.next(), &f)
        outOfRange = f.outOfRange
    }

    private static func datum(_ field: Field, _ f: inout FieldCursor) -> Datum? {
        guard !field.isEmpty else { return nil }
        guard let datum = Datum(bytes: field.bytes) else {
            f.reject(field)
            return nil
        }
        return datum
    }

    /// Minutes and their hemisphere letter; an offset without its letter has no sign, so no value.
    private static func offset(_ f: inout FieldCursor, positive: UInt8, negative: UInt8) -> Double? {
        let minutes = f.double(in: Bounds.datumOffset)
        let sign = f.next().character
        guard let minutes else { return nil }
        switch sign {
        case positive: return minutes
        case negative: return -minutes
        default: return nil
        }
    }
}

extension DTM: EpochInput {
    public static var address: StaticString { "DTM" }

    var facts: EpochAssembler.Facts { EpochAssembler.Facts() }

    /// The first local datum of the cycle is its fixes' datum.
    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if epoch.datum == nil { epoch.datum = localDatum }
    }
}
