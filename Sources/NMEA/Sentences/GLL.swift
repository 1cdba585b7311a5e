/// GLL — Geographic Position, Latitude/Longitude (NMEA 0183 §8.3.38).
///
/// `$--GLL,llll.ll,a,yyyyy.yy,a,hhmmss.ss,A,a*hh`; NMEA 1.x sends only the four position fields.
public struct GLL: Equatable, Sendable {
    /// Fields 1–4, the position; nil when a half is missing or out of ``Bounds/latitude`` or
    /// ``Bounds/longitude``.
    public var coordinate: Coordinate?
    /// Field 5, the UTC time of the position; nil when empty, as in the NMEA 1.x short form, or not
    /// a time of day (counted in ``outOfRange``).
    public var time: TimeOfDay?
    /// `A` valid, `V` not; nil for the old short form, which has no status.
    public var isValid: Bool?
    /// Field 7, the FAA mode indicator (NMEA 2.3 and later); nil when absent.
    public var mode: ModeIndicator?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of a GLL from any talker (`GPGLL`, `GNGLL`, …); the caller has matched
    /// the address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        coordinate = Coordinate.read(&f)
        time = f.time()
        switch f.next().character {
        case 0x41?: isValid = true
        case 0x56?: isValid = false
        default: isValid = nil
        }
        mode = ModeIndicator(f.next())
        outOfRange = f.outOfRange
    }

    /// Whether the position is a fix: status `A` (field 6) and a mode indicator, where present, that
    /// is not `N`. The short form, which has no status, is never one by this test.
    public var hasFix: Bool { isValid == true && mode?.isValid != false }
}

extension GLL: EpochInput {
    public static var address: StaticString { "GLL" }

    var isSimulated: Bool { mode == .simulator }

    var facts: EpochAssembler.Facts {
        EpochAssembler.Facts(time: time, position: hasFix ? coordinate : nil)
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if hasFix || (isValid == nil && coordinate != nil) {
            // The NMEA 1.x short form has no status: a position is its only claim.
            epoch.validSignals += 1
            epoch.offer(coordinate)
        } else if isValid == false || mode == .notValid {
            epoch.invalidSignals += 1
        }
    }
}
