/// GNS — GNSS Fix Data (NMEA 0183 §8.3.44).
///
/// `$--GNS,hhmmss.ss,llll.ll,a,yyyyy.yy,a,c--c,xx,x.x,x.x,x.x,x.x,x.x[,s]*hh`
/// Like GGA, with one mode character per constellation instead of a quality number.
public struct GNS: Equatable, Sendable {
    /// Field 1, the UTC time of the fix; nil when empty or not a time of day (counted in
    /// ``outOfRange``).
    public var time: TimeOfDay?
    /// Fields 2–5, the position; nil when a half is missing or out of ``Bounds/latitude`` or
    /// ``Bounds/longitude``.
    public var coordinate: Coordinate?
    /// The best of the per-constellation mode characters; nil when none is valid.
    public var mode: ModeIndicator?
    /// True when the mode field was present and every character was `N`.
    public var isInvalid: Bool
    /// Field 7, the satellites used in the solution, 0…140 (``Bounds/satellites``).
    public var satellitesUsed: Int?
    /// Field 8, the horizontal dilution of precision, 0.01…999.99 (``Bounds/dop``).
    public var hdop: Double?
    /// Field 9, metres above mean sea level, −11 000…1 000 000 (``Bounds/altitude``).
    public var altitude: Double?
    /// Field 10, metres of the geoid above the WGS 84 ellipsoid, −200…200
    /// (``Bounds/geoidSeparation``).
    public var geoidSeparation: Double?
    /// Field 11, seconds since the last differential correction, 0…10 000
    /// (``Bounds/differentialAge``); nil without differential corrections.
    public var differentialAge: Double?
    /// Field 13, the navigational status (NMEA 4.10 and later); nil when absent.
    public var navigationalStatus: NavigationalStatus?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of a GNS from any talker (`GPGNS`, `GNGNS`, …); the caller has matched
    /// the address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        time = f.time()
        coordinate = Coordinate.read(&f)
        let modes = f.next()
        var best: ModeIndicator?
        var sawAny = false
        for c in modes.bytes {
            guard let m = ModeIndicator(rawValue: c) else { continue }
            sawAny = true
            guard m.isValid else { continue }
            if best == nil || m.rank > best!.rank { best = m }
        }
        mode = best
        isInvalid = sawAny && best == nil
        satellitesUsed = f.integer(in: Bounds.satellites)
        hdop = f.double(in: Bounds.dop)
        altitude = f.double(in: Bounds.altitude)
        geoidSeparation = f.double(in: Bounds.geoidSeparation)
        differentialAge = f.double(in: Bounds.differentialAge)
        f.skip(1)
        navigationalStatus = NavigationalStatus(f.next())
        outOfRange = f.outOfRange
    }
}

extension GNS: EpochInput {
    public static var address: StaticString { "GNS" }

    var isSimulated: Bool { mode == .simulator }

    var facts: EpochAssembler.Facts {
        EpochAssembler.Facts(time: time, position: mode != nil ? coordinate : nil)
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if let m = mode {
            epoch.validSignals += 1
            epoch.offer(coordinate)
            epoch.offer(m.quality)
            if let a = altitude {
                epoch.altitude = a
                epoch.altitudeSolution = nil
            }
            if let g = geoidSeparation { epoch.geoidSeparation = g }
        } else if isInvalid {
            epoch.invalidSignals += 1
        }
        if let n = satellitesUsed { epoch.satellitesUsed = epoch.satellitesUsed ?? n }
        if let h = hdop { epoch.ggaHDOP = epoch.ggaHDOP ?? h }
        if let n = navigationalStatus { epoch.navigationalStatus = n }
    }
}
