/// THS — True Heading and Status (NMEA 0183 4.0, §8.3.85).
///
/// `$--THS,x.x,a*hh`: the heading in degrees from true north and how it was found. It replaces
/// HDT in NMEA 4.x; dual-antenna receivers (Unicore, SkyTraq PX1172RH) and OpenCPN's users ask
/// for it.
public struct THS: Equatable, Sendable {
    /// How the heading was found (field 2).
    public enum Mode: UInt8, Sendable {
        /// `A`: from the receiver's own solution.
        case autonomous = 0x41
        /// `E`: estimated (dead reckoning).
        case estimated = 0x45
        /// `M`: entered by hand.
        case manual = 0x4D
        /// `S`: the receiver's simulator.
        case simulator = 0x53
        /// `V`: not valid; the heading is not used.
        case invalid = 0x56
    }

    /// Field 1, degrees true, 0 up to 360 (``Bounds/heading``; 360 is read as 0); nil when the
    /// mode says the heading is not valid or comes from a simulator, as a simulated position
    /// is no fix.
    public var heading: Double?
    /// Field 2; nil when empty or not a mode the standard names.
    public var mode: Mode?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of a THS from any talker (`GNTHS`, `HETHS`, …); the caller has matched
    /// the address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        let value = f.heading()
        mode = f.next().letter.flatMap(Mode.init(rawValue:))
        // gpsd takes no heading without a mode: one of unknown standing is not a heading.
        switch mode {
        case .autonomous?, .estimated?, .manual?: heading = value
        default: heading = nil
        }
        outOfRange = f.outOfRange
    }
}

extension THS: EpochInput {
    public static var address: StaticString { "THS" }

    var facts: EpochAssembler.Facts { .instrument() }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if let heading { epoch.attitude.heading = heading }
    }
}
