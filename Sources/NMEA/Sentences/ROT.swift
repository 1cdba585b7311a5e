/// ROT — Rate Of Turn (NMEA 0183 §8.3.72).
///
/// `$--ROT,x.x,A*hh`: degrees per minute, negative when the bow turns to port, and whether
/// the figure is valid (`A`) or not (`V`).
public struct ROT: Equatable, Sendable {
    /// Field 1, degrees per minute, to starboard positive (``Bounds/rateOfTurn``); nil when
    /// field 2 is not `A` (valid).
    public var rateOfTurn: Double?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of a ROT from any talker (`HEROT`, `TIROT`, …); the caller has matched
    /// the address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        let value = f.double(in: Bounds.rateOfTurn)
        rateOfTurn = f.next().letter == 0x41 ? value : nil // A
        outOfRange = f.outOfRange
    }
}

extension ROT: EpochInput {
    public static var address: StaticString { "ROT" }

    var facts: EpochAssembler.Facts { .instrument() }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if let rateOfTurn { epoch.attitude.rateOfTurn = rateOfTurn }
    }
}
