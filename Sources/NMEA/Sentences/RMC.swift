/// RMC — Recommended Minimum Specific GNSS Data (NMEA 0183 §8.3.77).
///
/// `$--RMC,hhmmss.ss,A,llll.ll,a,yyyyy.yy,a,x.x,x.x,ddmmyy,x.x,a,m,s*hh`
/// Mode indicator from NMEA 2.3, navigational status from 4.10: both optional.
public struct RMC: Equatable, Sendable {
    /// Field 1, the UTC time of the fix; nil when empty or not a time of day (counted in
    /// ``outOfRange``).
    public var time: TimeOfDay?
    /// Field 2: `A` valid, `V` warning; nil when empty.
    public var isValid: Bool?
    /// Fields 3–6, the position; nil when a half is missing or out of ``Bounds/latitude`` or
    /// ``Bounds/longitude``. Receivers often repeat their last position under status `V`: see
    /// ``hasFix``.
    public var coordinate: Coordinate?
    /// Field 7, the speed over ground in knots, 0 to about 23 300 (``Bounds/speedKnots``, the
    /// 12 km/s of ``Bounds/speed``).
    public var speedKnots: Double?
    /// Field 8, the course over ground in degrees from true north, 0 up to 360 (``Bounds/course``).
    public var course: Double?
    /// Field 9, the UTC date (`ddmmyy`, years 80–99 read as 19xx and 00–79 as 20xx); nil when empty
    /// or no real date (30 February, counted in ``outOfRange``).
    public var date: CalendarDate?
    /// Fields 10 and 11, the magnetic variation in degrees, east positive, −180…180
    /// (``Bounds/magneticVariation`` before its sign).
    public var magneticVariation: Double?
    /// Field 12, the FAA mode indicator (NMEA 2.3 and later); nil when absent, as from older receivers.
    public var mode: ModeIndicator?
    /// Field 13, the navigational status (NMEA 4.10 and later); nil when absent.
    public var navigationalStatus: NavigationalStatus?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of an RMC from any talker (`GPRMC`, `GNRMC`, …); the caller has matched
    /// the address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        time = f.time()
        switch f.next().character {
        case 0x41?: isValid = true
        case 0x56?: isValid = false
        default: isValid = nil
        }
        coordinate = Coordinate.read(&f)
        speedKnots = f.double(in: Bounds.speedKnots)
        course = f.double(in: Bounds.course)
        date = f.date()
        let variation = f.double(in: Bounds.magneticVariation), direction = f.next().character
        magneticVariation = variation.map { direction == 0x57 ? -$0 : $0 }
        mode = ModeIndicator(f.next())
        navigationalStatus = NavigationalStatus(f.next())
        outOfRange = f.outOfRange
    }

    /// Valid by its status and, where present, by its mode indicator.
    public var hasFix: Bool { isValid == true && mode?.isValid != false }
}

extension RMC: EpochInput {
    public static var address: StaticString { "RMC" }

    var isSimulated: Bool { mode == .simulator }

    var facts: EpochAssembler.Facts {
        EpochAssembler.Facts(time: time, position: hasFix ? coordinate : nil)
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if hasFix {
            epoch.validSignals += 1
            epoch.offer(coordinate)
            epoch.offer(mode?.quality)
            if let v = speedKnots { epoch.speed = v * metresPerSecondPerKnot }
            if let c = course { epoch.course = c }
            if let m = magneticVariation { epoch.magneticVariation = m }
            if let d = date { epoch.date = d }
        } else if isValid == false || mode == .notValid {
            epoch.invalidSignals += 1
        }
        if let n = navigationalStatus { epoch.navigationalStatus = n }
    }
}
