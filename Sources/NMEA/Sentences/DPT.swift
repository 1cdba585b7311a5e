/// DPT — Depth (NMEA 0183 §8.3.24).
///
/// `$--DPT,x.x,x.x[,x.x]*hh`: the water's depth below the transducer in metres, the
/// transducer's offset in metres (positive: from the transducer up to the waterline;
/// negative: from the transducer to the keel) and, from NMEA 3.0, the range scale in use.
/// The depth is the transducer's, as DBT's is, and is reported so (gpsd's `depth`); the
/// offset is kept beside it (``MarineData/transducerOffset``): the depth plus the offset is
/// the water's depth, or what is left under the keel.
public struct DPT: Equatable, Sendable {
    /// Field 1, metres below the transducer, 0 to 11 000 (``Bounds/depth``).
    public var depth: Double?
    /// Field 2, metres, −100 to 100 (``Bounds/transducerOffset``).
    public var offset: Double?
    /// Field 3, the range scale in metres (NMEA 3.0), 0 to 11 000 (``Bounds/depth``).
    public var rangeScale: Double?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of a DPT from any talker (`SDDPT`, …); the caller has matched the
    /// address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        depth = f.double(in: Bounds.depth)
        offset = f.double(in: Bounds.transducerOffset)
        rangeScale = f.double(in: Bounds.depth)
        outOfRange = f.outOfRange
    }
}

extension DPT: EpochInput {
    public static var address: StaticString { "DPT" }

    var facts: EpochAssembler.Facts { .instrument() }

    /// The depth where the epoch has none yet: a DBT's is the depth gpsd reports (it reads no
    /// DPT), and a sounder sending both may round them apart (DBT 6.2 m, DPT 6.1 m in one
    /// second of gpsd's bundg_zeus_9 capture).
    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        guard let depth else { return }
        if epoch.marine.depth == nil { epoch.marine.depth = depth }
        epoch.marine.transducerOffset = offset
    }
}
