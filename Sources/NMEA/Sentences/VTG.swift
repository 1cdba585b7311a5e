/// VTG — Course Over Ground and Ground Speed (NMEA 0183 §8.3.93).
///
/// `$--VTG,x.x,T,x.x,M,x.x,N,x.x,K,m*hh`. Receivers from before NMEA 2.0 send the four values
/// without the unit letters (`$--VTG,x.x,x.x,x.x,x.x`); both are read.
public struct VTG: Equatable, Sendable {
    /// Field 1, the course over ground in degrees from true north, 0 up to 360 (``Bounds/course``).
    public var course: Double?
    /// Field 3 (field 2 of the unlabelled form), the course over ground in degrees from magnetic north,
    /// 0 up to 360 (``Bounds/course``).
    public var magneticCourse: Double?
    /// Field 5 (field 3 of the unlabelled form), the speed over ground in knots, 0 to about 23 300
    /// (``Bounds/speedKnots``).
    public var speedKnots: Double?
    /// Field 7 (field 4 of the unlabelled form), the speed over ground in km/h, 0…43 200
    /// (``Bounds/speedKilometresPerHour``).
    public var speedKilometresPerHour: Double?
    /// Field 9, the FAA mode indicator (NMEA 2.3 and later); nil when absent, and always for the
    /// unlabelled form. A VTG whose mode is `N` adds no course or speed to its epoch.
    public var mode: ModeIndicator?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of a VTG from any talker (`GPVTG`, `GNVTG`, …); the caller has matched
    /// the address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        let first = f.next(), second = f.next()
        course = f.checked(first.double, in: Bounds.course)
        if second.character == 0x54 { // T: the labelled form
            magneticCourse = f.double(in: Bounds.course)
            f.skip(1)
            speedKnots = f.double(in: Bounds.speedKnots)
            f.skip(1)
            speedKilometresPerHour = f.double(in: Bounds.speedKilometresPerHour)
            f.skip(1)
            mode = ModeIndicator(f.next())
        } else {
            magneticCourse = f.checked(second.double, in: Bounds.course)
            speedKnots = f.double(in: Bounds.speedKnots)
            speedKilometresPerHour = f.double(in: Bounds.speedKilometresPerHour)
        }
        outOfRange = f.outOfRange
    }

    /// Speed in m/s, preferring knots (more receivers fill that one).
    public var speed: Double? {
        if let k = speedKnots { return k * metresPerSecondPerKnot }
        return speedKilometresPerHour.map { $0 / 3.6 }
    }
}

extension VTG: EpochInput {
    public static var address: StaticString { "VTG" }

    var isSimulated: Bool { mode == .simulator }

    var facts: EpochAssembler.Facts {
        EpochAssembler.Facts()
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if mode != .notValid {
            if let v = speed { epoch.speed = epoch.speed ?? v }
            if let c = course { epoch.course = epoch.course ?? c }
            if let m = magneticCourse { epoch.magneticTrack = m }
        }
    }
}
