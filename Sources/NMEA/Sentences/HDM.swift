/// HDM — Heading, Magnetic (NMEA 0183 §8.3.43, withdrawn in 3.0 but still sent).
///
/// `$--HDM,x.x,M*hh`: where the bow points, in degrees from magnetic north, as a magnetic
/// compass corrected for its deviation states it.
public struct HDM: Equatable, Sendable {
    /// Field 1, degrees magnetic, 0 up to 360 (``Bounds/heading``; 360 is read as 0); nil when
    /// field 2 is neither `M` nor empty.
    public var heading: Double?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of an HDM from any talker (`HCHDM`, …); the caller has matched the
    /// address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        let value = f.heading()
        let reference = f.next()
        heading = reference.isEmpty || reference.letter == 0x4D ? value : nil // M
        outOfRange = f.outOfRange
    }
}

extension HDM: EpochInput {
    public static var address: StaticString { "HDM" }

    var facts: EpochAssembler.Facts { .instrument() }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if let heading { epoch.attitude.magneticHeading = heading }
    }
}
