/// MWV — Wind Speed and Angle (NMEA 0183 §8.3.60).
///
/// `$--MWV,x.x,a,x.x,a,A*hh`: the angle the wind blows from, clockwise from the bow; whether
/// it is relative (`R`: the apparent wind, as felt on board) or theoretical (`T`: the true
/// wind, the boat's own motion taken out); its speed and unit (`K` km/h, `M` m/s, `N` knots,
/// `S` statute mph); and whether the data is valid (`A`) or not (`V`). A wind instrument
/// usually sends one of each reference every cycle.
public struct MWV: Equatable, Sendable {
    /// Field 2: the apparent or the true wind.
    public enum Reference: UInt8, Sendable {
        /// `R`: relative to the vessel's bow (the apparent wind).
        case relative = 0x52
        /// `T`: theoretical, calculated from the vessel's motion (the true wind).
        case theoretical = 0x54
    }

    /// Field 1, degrees from the bow, 0 up to 360 (``Bounds/heading``; 360 is read as 0); nil
    /// when field 5 is not `A` (valid).
    public var angle: Double?
    /// Field 2; nil when neither `R` nor `T` (the sentence then says nothing usable).
    public var reference: Reference?
    /// Fields 3 and 4 in metres per second, 0 to 150 (``Bounds/windSpeed``); nil for a unit
    /// other than `K`, `M`, `N` or `S`, or when field 5 is not `A`.
    public var speed: Double?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of an MWV from any talker (`WIMWV`, `IIMWV`, …); the caller has
    /// matched the address, as ``SentenceTable/decode(_:)`` does. A field that is empty,
    /// malformed or outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range),
    /// never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        let angle = f.heading()
        reference = f.next().letter.flatMap(Reference.init(rawValue:))
        let value = f.next().double, unit = f.next().letter
        let speed = f.windSpeed(value, unit: unit)
        if f.next().letter == 0x41 { // A: valid
            self.angle = angle
            self.speed = speed
        }
        outOfRange = f.outOfRange
    }
}

extension MWV: EpochInput {
    public static var address: StaticString { "MWV" }

    /// The relative and the true wind told apart: one of each in a cycle is no repeat.
    var facts: EpochAssembler.Facts { .instrument(variant: reference == .theoretical ? 1 : 0) }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        switch reference {
        case .relative?:
            if let angle { epoch.marine.apparentWindAngle = angle }
            if let speed { epoch.marine.apparentWindSpeed = speed }
        case .theoretical?:
            if let angle { epoch.marine.trueWindAngle = angle }
            // MWD's speed, where one came, is the true wind's as well: it is not replaced.
            if let speed, epoch.marine.trueWindDirection == nil { epoch.marine.trueWindSpeed = speed }
        case nil:
            break
        }
    }
}
