/// GGA — Global Positioning System Fix Data (NMEA 0183 §8.3.40).
///
/// `$--GGA,hhmmss.ss,llll.ll,a,yyyyy.yy,a,q,nn,h.h,a.a,M,g.g,M,t.t,ssss*hh`
/// The only standard sentence with altitude above mean sea level and the geoid separation.
public struct GGA: Equatable, Sendable {
    /// Field 1, the UTC time of the fix; nil when empty or not a time of day (counted in
    /// ``outOfRange``).
    public var time: TimeOfDay?
    /// Fields 2–5, the position; nil when a half is missing or out of ``Bounds/latitude`` or
    /// ``Bounds/longitude``. Present even when the quality says no fix: see ``isValid``.
    public var coordinate: Coordinate?
    /// Field 6, the quality indicator as sent, 0…8 (``Bounds/ggaQuality``): 0 means the fix is
    /// not valid, 8 that the receiver is simulating. ``quality`` reads it.
    public var qualityIndicator: Int?
    /// Field 7, the satellites used in the solution, 0…140 (``Bounds/satellites``).
    public var satellitesUsed: Int?
    /// Field 8, the horizontal dilution of precision, 0.01…999.99 (``Bounds/dop``).
    public var hdop: Double?
    /// Field 9, metres above mean sea level, −11 000…1 000 000 (``Bounds/altitude``).
    public var altitude: Double?
    /// Field 11, metres of the geoid above the WGS 84 ellipsoid, −200…200
    /// (``Bounds/geoidSeparation``).
    public var geoidSeparation: Double?
    /// Field 13, seconds since the last differential correction, 0…10 000
    /// (``Bounds/differentialAge``); nil without differential corrections.
    public var differentialAge: Double?
    /// Field 14, the ID of the differential reference station, 0…1023
    /// (``Bounds/differentialStation``).
    public var differentialStation: Int?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// The kind of solution field 6 states, in gpsd's numbering; nil for 0 (invalid) or an empty field.
    public var quality: FixQuality? { qualityIndicator.flatMap(FixQuality.init(ggaQuality:)) }
    /// A fix by its quality indicator.
    public var isValid: Bool { quality != nil }

    /// Whether this GGA alone is evidence of a fix. One that uses no satellites is not: Hemisphere
    /// receivers send quality 1 with 00 satellites while coasting (gpsd reports no fix), while
    /// Garmins send 00 with a fix that their RMC, GLL and GSA confirm.
    public var claimsFix: Bool { isValid && satellitesUsed != 0 }

    /// Reads the fields of a GGA from any talker (`GPGGA`, `GNGGA`, …); the caller has matched
    /// the address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        time = f.time()
        coordinate = Coordinate.read(&f)
        qualityIndicator = f.integer(in: Bounds.ggaQuality)
        satellitesUsed = f.integer(in: Bounds.satellites)
        hdop = f.double(in: Bounds.dop)
        altitude = f.double(in: Bounds.altitude)
        f.skip(1)
        geoidSeparation = f.double(in: Bounds.geoidSeparation)
        f.skip(1)
        differentialAge = f.double(in: Bounds.differentialAge)
        differentialStation = f.integer(in: Bounds.differentialStation)
        outOfRange = f.outOfRange
    }
}

extension GGA: EpochInput {
    public static var address: StaticString { "GGA" }

    var isSimulated: Bool { qualityIndicator == 8 }

    var facts: EpochAssembler.Facts {
        var f = EpochAssembler.Facts()
        f.positionGivesWay = true
        f.time = time
        f.position = isValid ? coordinate : nil
        return f
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if isValid {
            if claimsFix { epoch.validSignals += 1 }
            epoch.offer(coordinate, fromGGA: true)
            epoch.offer(quality)
            if let a = altitude {
                epoch.altitude = a
                epoch.altitudeSolution = coordinate
            }
            if let g = geoidSeparation { epoch.geoidSeparation = g }
        } else if qualityIndicator != nil {
            epoch.invalidSignals += 1
        }
        if let n = satellitesUsed { epoch.satellitesUsed = n }
        if let h = hdop { epoch.ggaHDOP = h }
    }
}
