/// GGA — Global Positioning System Fix Data (NMEA 0183 §8.3.40).
///
/// `$--GGA,hhmmss.ss,llll.ll,a,yyyyy.yy,a,q,nn,h.h,a.a,M,g.g,M,t.t,ssss*hh`
/// The only standard sentence with altitude above mean sea level and the geoid separation.
public struct GGA: Equatable, Sendable {
    public var time: TimeOfDay?
    public var coordinate: Coordinate?
    /// Field 6; 0 means the fix is not valid.
    public var qualityIndicator: Int?
    public var satellitesUsed: Int?
    public var hdop: Double?
    /// Metres above mean sea level.
    public var altitude: Double?
    /// Metres of the geoid above the WGS 84 ellipsoid.
    public var geoidSeparation: Double?
    public var differentialAge: Double?
    public var differentialStation: Int?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    public var quality: FixQuality? { qualityIndicator.flatMap(FixQuality.init(ggaQuality:)) }
    /// A fix by its quality indicator.
    public var isValid: Bool { quality != nil }

    /// Whether this GGA alone is evidence of a fix. One that uses no satellites is not: Hemisphere
    /// receivers send quality 1 with 00 satellites while coasting (gpsd reports no fix), while
    /// Garmins send 00 with a fix that their RMC, GLL and GSA confirm.
    public var claimsFix: Bool { isValid && satellitesUsed != 0 }

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
