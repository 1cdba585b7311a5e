/// HDT — Heading, True (NMEA 0183 §8.3.43).
///
/// `$--HDT,x.x,T*hh`: where the bow points, in degrees from true north. A gyrocompass, a
/// satellite compass or a dual-antenna receiver (Unicore UM982, u-blox F9P moving base,
/// Hemisphere) sends it, often from a talker of its own (`HE`, `GP`).
public struct HDT: Equatable, Sendable {
    /// Field 1, degrees true, 0 up to 360 (``Bounds/heading``; 360 is read as 0); nil when
    /// field 2 is neither `T` nor empty.
    public var heading: Double?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of an HDT from any talker (`HEHDT`, `GPHDT`, …); the caller has matched
    /// the address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        let value = f.heading()
        let reference = f.next()
        heading = reference.isEmpty || reference.letter == 0x54 ? value : nil // T
        outOfRange = f.outOfRange
    }
}

extension HDT: EpochInput {
    public static var address: StaticString { "HDT" }

    var facts: EpochAssembler.Facts { .instrument() }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if let heading { epoch.attitude.heading = heading }
    }
}
