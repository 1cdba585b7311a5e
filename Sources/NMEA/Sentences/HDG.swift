/// HDG — Heading, Deviation and Variation (NMEA 0183 §8.3.42).
///
/// `$--HDG,x.x,x.x,a,x.x,a*hh`: a magnetic compass's reading, the compass's own deviation
/// (east or west) and the local magnetic variation (east or west). The reading plus an
/// easterly deviation (minus a westerly one) is the magnetic heading; that plus the variation
/// the true heading. Deviation and variation are empty when the compass does not know them.
public struct HDG: Equatable, Sendable {
    /// Field 1, the compass's own reading in degrees, 0 up to 360 (``Bounds/heading``).
    public var sensorHeading: Double?
    /// Fields 2 and 3, the compass's deviation in degrees, east positive, −180 to 180
    /// (``Bounds/magneticVariation`` before its sign); nil when either is empty or the letter is
    /// neither `E` nor `W`.
    public var deviation: Double?
    /// Fields 4 and 5, the magnetic variation in degrees, east positive, −180 to 180; nil when
    /// either is empty or the letter is neither `E` nor `W`. Not taken into the fix: the
    /// receiver's variation (RMC) is the fix's, as gpsd reports it.
    public var variation: Double?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of an HDG from any talker (`SDHDG`, `HCHDG`, …); the caller has matched
    /// the address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        sensorHeading = f.heading()
        deviation = Self.signed(&f)
        variation = Self.signed(&f)
        outOfRange = f.outOfRange
    }

    /// An angle and its E/W letter, east positive.
    private static func signed(_ f: inout FieldCursor) -> Double? {
        let value = f.double(in: Bounds.magneticVariation), letter = f.next().letter
        switch letter {
        case 0x45: return value // E
        case 0x57: return value.map { -$0 } // W
        default: return nil
        }
    }

    /// The magnetic heading in degrees, 0 up to 360: the reading with its deviation applied
    /// (a compass that states none is taken as corrected already, as gpsd takes it).
    public var magneticHeading: Double? {
        sensorHeading.map { bearing($0, plus: deviation ?? 0) }
    }
}

extension HDG: EpochInput {
    public static var address: StaticString { "HDG" }

    var facts: EpochAssembler.Facts { .instrument() }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if let m = magneticHeading { epoch.attitude.magneticHeading = m }
        // gpsd takes a compass's reading for the fix's magnetic track (its `magtrack`), as it
        // comes, deviation and all: so does the TPV gpsfix writes for gpsd's clients.
        if let h = sensorHeading { epoch.magneticTrack = h }
    }
}
