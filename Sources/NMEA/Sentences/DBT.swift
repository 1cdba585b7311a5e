/// DBT — Depth Below Transducer (NMEA 0183 §8.3.21).
///
/// `$--DBT,x.x,f,x.x,M,x.x,F*hh`: the water's depth below the sounder's transducer in feet,
/// metres and fathoms. Real sounders often fill only some of the three.
public struct DBT: Equatable, Sendable {
    /// Metres below the transducer, 0 to 11 000 (``Bounds/depth``): field 3 when its unit
    /// is `M`, else field 1 in feet (`f`), else field 5 in fathoms (`F`), as gpsd prefers them.
    public var depth: Double?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of a DBT from any talker (`SDDBT`, …); the caller has matched the
    /// address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        let feet = f.next(), feetUnit = f.next(), metres = f.next(), metresUnit = f.next()
        let fathoms = f.next(), fathomsUnit = f.next()
        if let m = metres.double, metresUnit.letter == 0x4D { // M
            depth = f.checked(m, in: Bounds.depth)
        } else if let ft = feet.double, feetUnit.letter == 0x66 { // f
            depth = f.checked(ft * metresPerFoot, in: Bounds.depth)
        } else if let fm = fathoms.double, fathomsUnit.letter == 0x46 { // F
            depth = f.checked(fm * metresPerFathom, in: Bounds.depth)
        }
        outOfRange = f.outOfRange
    }
}

extension DBT: EpochInput {
    public static var address: StaticString { "DBT" }

    var facts: EpochAssembler.Facts { .instrument() }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if let depth { epoch.marine.depth = depth }
    }
}
