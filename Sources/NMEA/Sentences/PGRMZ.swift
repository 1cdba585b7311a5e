/// PGRMZ — Garmin altitude (Garmin proprietary).
///
/// `$PGRMZ,a.a,f,d*hh`: altitude in feet (above mean sea level, as GGA's: gpsd's regressions
/// match the two), and the fix's dimension (1 none, 2 2D, 3 3D). Garmin receivers send it in
/// epochs whose GGA came in the second before, so it is often that epoch's only altitude.
public struct PGRMZ: Equatable, Sendable {
    /// Field 1 converted from feet, metres above mean sea level, −11 000…1 000 000
    /// (``Bounds/altitude``); nil when field 2 is not `f`, the only unit defined.
    public var altitude: Double?
    /// Field 3, the fix's dimension: 2 means the altitude is one the user entered, not measured;
    /// 3 a GPS altitude.
    public var mode: FixMode?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of a `$PGRMZ` sentence; the caller has matched
    /// the address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        let feet = f.next().double, unit = f.next().character
        // Only feet are defined; another unit letter is a value this decoder cannot read.
        altitude = f.checked(unit == 0x66 ? feet.map { $0 * metresPerFoot } : nil, in: Bounds.altitude)
        mode = f.integer(in: 1...3).flatMap(FixMode.init(rawValue:))
        outOfRange = f.outOfRange
    }
}

/// One international foot, exactly.
let metresPerFoot = 0.3048

extension PGRMZ: EpochInput {
    public static var address: StaticString { "PGRMZ" }

    var facts: EpochAssembler.Facts { EpochAssembler.Facts() }

    /// A measured altitude where no GGA or GNS gave one; the receiver's dimension where no GSA
    /// or PUBX stated it.
    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if mode == .threeD, let a = altitude, epoch.altitude == nil { epoch.altitude = a }
        if let m = mode, epoch.pgrmzMode == nil { epoch.pgrmzMode = m }
    }
}
