/// What one reporting cycle of a receiver determined, and nothing invented.
///
/// Every optional is nil when the receiver did not say: an empty field is unknown, never zero.
/// Names follow CoreLocation where Swift users know them; units are SI (metres, m/s, degrees).
///
/// A fix is copied on its way to every output, so it is kept small: its measurements are
/// `Unknowable` (a `Double?` in eight bytes, NaN for nil), and the members are declared
/// largest first so that the one-byte ones share the tail rather than each being padded.
public struct Fix: Hashable, Codable, Sendable {
    /// Where the receiver is; nil without a fix (``mode`` ``FixMode/noFix``), as the engine
    /// reports no position the receiver did not call valid.
    public var coordinate: Coordinate?
    /// Metres above mean sea level (the geoid).
    @Unknowable public var altitude: Double?
    /// Metres above the WGS 84 ellipsoid.
    @Unknowable public var ellipsoidalAltitude: Double?
    /// Metres of the geoid above the ellipsoid, as the receiver reported it.
    @Unknowable public var geoidSeparation: Double?
    /// Metres per second over ground.
    @Unknowable public var speed: Double?
    /// Degrees true, clockwise from north.
    @Unknowable public var course: Double?
    /// Degrees, east positive: the receiver's (RMC), else the world magnetic model's at the
    /// fix's position (``MagneticModel``), as gpsd fills it.
    @Unknowable public var magneticVariation: Double?
    /// Degrees magnetic of the track the receiver stated (VTG's magnetic course), as gpsd
    /// passes it on in `magtrack`; nil when it stated none (see ``magneticCourse``).
    @Unknowable public var magneticTrack: Double?
    /// Metres per second, up positive: from the receiver, or from consecutive 3D altitudes.
    @Unknowable public var climb: Double?
    /// Metres of horizontal error, what CoreLocation calls `horizontalAccuracy`: the
    /// receiver's own estimate where it gave one (GST's latitude and longitude errors
    /// combined, GBS, PUBX, PGRME), else gpsd's (``ErrorEstimates/horizontal``, HDOP × 19 m);
    /// ``accuracyIsEstimated`` says which.
    @Unknowable public var horizontalAccuracy: Double?
    /// Metres of altitude error: GST's altitude error, else PUBX's vertical accuracy, else
    /// PGRME's vertical error, else gpsd's (``ErrorEstimates/vertical``, VDOP × 23 m).
    @Unknowable public var verticalAccuracy: Double?
    /// Latitude error, metres, one sigma, from GST or GBS (the receiver's own only; gpsd's
    /// estimate is ``ErrorEstimates/latitude``).
    @Unknowable public var latitudeError: Double?
    /// Longitude error, metres, one sigma, from GST or GBS (the receiver's own only).
    @Unknowable public var longitudeError: Double?
    /// Garmin's estimated position error (PGRME), metres (the receiver's own only; gpsd's
    /// estimate is ``ErrorEstimates/spherical``).
    @Unknowable public var sphericalError: Double?
    /// System time (Unix seconds) at which the epoch's first byte was read: the moment the
    /// receiver's time of the epoch is held against when it feeds a clock (chrony). Set by a
    /// live source that reads the bytes itself (a serial port, a TCP stream); nil from the
    /// engine, which has no clock, from replays, which are not live, and from gpsd.
    @Unknowable public var arrival: Double?
    /// Heading, magnetic heading, pitch, roll and rate of turn from the instruments on the
    /// receiver's wire this epoch (HDT, THS, HDG, HDM, ROT, XDR: ``Attitude``); nil when none
    /// said any. Inline, as the rest: a fix with no reference in it is copied as plain bytes
    /// (a reference, even nil, made every copy count and every drop release).
    public var attitude: Attitude?
    /// Depth, water temperature and wind from the instruments on the receiver's wire this
    /// epoch, or the last epoch's until restated (DBT, DPT, MTW, MWV, MWD: ``MarineData``); nil
    /// when none said any. Kept out of line.
    public var marine: MarineData?
    /// The dilutions of precision the receiver stated for this cycle (GSA, GGA, GNS, PUBX),
    /// reported with or without a fix.
    public var dop = DilutionOfPrecision()
    /// UTC time of the epoch; its date is nil until the stream has told one (RMC or ZDA).
    public var timestamp: FixTime?
    /// The datum the coordinate is in, as the cycle's DTM named it (gpsd's TPV `datum`); nil
    /// when the receiver sent no DTM, which means WGS 84 for every receiver gpsfix knows.
    /// Reported with a fix only. (Four bytes, here where the timestamp leaves them free.)
    @PackedDatum public var datum: Datum?
    /// Satellites used in the solution, 0…140 (``Bounds/satellites``), as GGA, GNS or PUBX
    /// count them; nil when the receiver did not say.
    public var satellitesUsed: Int?
    /// The epoch's GST, whole; nil when the epoch had none. Reported with or without a fix,
    /// as gpsd reports a GST that the receiver sent before it had a solution.
    public var errorStatistics: ErrorStatistics?
    /// How many dimensions the fix has: the receiver's own word (GSA, PUBX, PGRMZ) where it
    /// gave one, else 3D with an altitude and 2D without; ``FixMode/noFix`` whenever there is
    /// no ``coordinate``.
    public var mode: FixMode = .noFix
    /// The kind of solution (autonomous, differential, RTK, …) from GGA's quality or a mode
    /// indicator; nil without a fix or when no sentence stated it.
    public var quality: FixQuality?
    /// NMEA 4.10's integrity verdict (RMC or GNS field 13); nil from older receivers.
    public var navigationalStatus: NavigationalStatus?
    /// The stream began part-way through this epoch's cycle, so what the receiver sent before
    /// was missed (a 3D receiver's fix can look 2D without its GGA). Only a stream's first
    /// epoch can be cut; a request for "the current fix" waits for a whole one.
    public var isPartialEpoch = false
    /// The fix's errors as gpsd estimates them from the DOPs and successive fixes: what a
    /// gpsd TPV carries (`eph`, `epx`, `epy`, `epv`, `sep`, `eps`, `epd`, `epc`, `ept`).
    public var estimatedErrors = ErrorEstimates()

    /// No fix: ``mode`` ``FixMode/noFix`` and every measurement unknown, for a source to fill in.
    public init() {}

    /// A fix with the members given, every other one unknown: for tests, and for sources
    /// that are not NMEA. `mode` nil is what the members say: 3D with a coordinate and an
    /// altitude, 2D with a coordinate alone, else no fix.
    ///
    ///     Fix(coordinate: .init(latitude: 52.1, longitude: 4.3), altitude: 3)
    public init(coordinate: Coordinate? = nil, altitude: Double? = nil, ellipsoidalAltitude: Double? = nil,
                geoidSeparation: Double? = nil, speed: Double? = nil, course: Double? = nil,
                magneticVariation: Double? = nil, climb: Double? = nil,
                horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil,
                latitudeError: Double? = nil, longitudeError: Double? = nil, sphericalError: Double? = nil,
                estimatedErrors: ErrorEstimates = ErrorEstimates(),
                arrival: Double? = nil, dop: DilutionOfPrecision = DilutionOfPrecision(),
                timestamp: FixTime? = nil, satellitesUsed: Int? = nil, errorStatistics: ErrorStatistics? = nil,
                mode: FixMode? = nil, quality: FixQuality? = nil, navigationalStatus: NavigationalStatus? = nil,
                isPartialEpoch: Bool = false,
                attitude: Attitude? = nil, marine: MarineData? = nil, datum: Datum? = nil) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.ellipsoidalAltitude = ellipsoidalAltitude
        self.geoidSeparation = geoidSeparation
        self.speed = speed
        self.course = course
        self.magneticVariation = magneticVariation
        self.climb = climb
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.latitudeError = latitudeError
        self.longitudeError = longitudeError
        self.sphericalError = sphericalError
        self.estimatedErrors = estimatedErrors
        self.arrival = arrival
        self.dop = dop
        self.timestamp = timestamp
        self.satellitesUsed = satellitesUsed
        self.errorStatistics = errorStatistics
        self.mode = mode ?? (coordinate == nil ? .noFix : altitude == nil ? .twoD : .threeD)
        self.quality = quality
        self.navigationalStatus = navigationalStatus
        self.isPartialEpoch = isPartialEpoch
        self.attitude = attitude
        self.marine = marine
        self.datum = datum
    }

    /// Whether ``horizontalAccuracy`` is gpsd's estimate from the DOPs
    /// (``ErrorEstimates/horizontal``) rather than the receiver's own figure: an estimate from
    /// geometry alone, that knows nothing of multipath or a poor sky, so an app may want to
    /// treat it more warily. (A receiver's figure equal to the estimate to the last bit reads
    /// as estimated: it is the same number.)
    public var accuracyIsEstimated: Bool {
        horizontalAccuracy != nil && horizontalAccuracy == estimatedErrors.horizontal
    }

    /// Metres per second of speed error, as CoreLocation's `speedAccuracy`: gpsd's estimate
    /// from successive fixes (``ErrorEstimates/speed``), as no NMEA sentence states one.
    public var speedAccuracy: Double? { estimatedErrors.speed }

    /// Degrees of course error, as CoreLocation's `courseAccuracy`: gpsd's estimate
    /// (``ErrorEstimates/course``).
    public var courseAccuracy: Double? { estimatedErrors.course }

    /// Degrees magnetic, clockwise from magnetic north: the receiver's (``magneticTrack``),
    /// else ``course`` less the (east positive) ``magneticVariation``, 0 up to 360, as a
    /// compass reads it.
    public var magneticCourse: Double? {
        if let m = magneticTrack { return m }
        guard let c = course, let v = magneticVariation else { return nil }
        return Self.bearing(c - v)
    }

    /// gpsd's `magtrack`: the receiver's ``magneticTrack``, else ``course`` *plus* the
    /// variation, 0 up to 360, as gpsd computes it (its sign is the opposite of a compass's:
    /// 20° east on a course of 181° gives gpsd 201°, a compass 161°). Written in gpsd's TPV so
    /// that its clients see what gpsd shows them; an app wants ``magneticCourse``.
    public var gpsdMagneticTrack: Double? {
        if let m = magneticTrack { return m }
        guard let c = course, let v = magneticVariation else { return nil }
        return Self.bearing(c + v)
    }

    private static func bearing(_ degrees: Double) -> Double? {
        guard degrees.isFinite else { return nil }
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d < 0 { d += 360 }
        return d < 360 ? d : 0
    }

    /// Whether this is a position fix, 2D or 3D; false when the receiver has none.
    public var hasFix: Bool { mode >= .twoD }
}

/// One satellite as seen in a reporting cycle.
public struct Satellite: Hashable, Codable, Sendable {
    /// Which satellite: its constellation and number.
    public var id: SatelliteID
    /// Degrees above the horizon.
    @Unknowable public var elevation: Double?
    /// Degrees true.
    @Unknowable public var azimuth: Double?
    /// dB-Hz; the strongest of the signals reported for this satellite.
    @Unknowable public var snr: Double?
    /// Whether the receiver used it in the solution (GSA).
    public var used: Bool
    /// Metres its measured range lies from the solution (GRS), for integrity monitoring, to the
    /// centimetre; nil when the receiver sent no GRS for it. (Four bytes, in `used`'s padding.)
    @Centimetres public var rangeResidual: Double?

    /// A satellite as stated, every measurement left out unknown and not used; not checked
    /// against ``Bounds``: for tests, and for sources that are not NMEA.
    public init(id: SatelliteID, elevation: Double? = nil, azimuth: Double? = nil, snr: Double? = nil, used: Bool = false,
                rangeResidual: Double? = nil) {
        self.id = id
        self.elevation = elevation
        self.azimuth = azimuth
        self.snr = snr
        self.used = used
        self.rangeResidual = rangeResidual
    }
}

/// Every constellation's satellites in view for one cycle, one entry per satellite.
public struct SkyView: Hashable, Codable, Sendable {
    /// UTC time of the cycle the satellites were seen in, as its fix has it; nil when the
    /// cycle stated no time.
    public var timestamp: FixTime?
    /// Sorted by constellation, then number.
    public var satellites: [Satellite]
    /// The dilutions of precision of the cycle, as its fix has them.
    public var dop: DilutionOfPrecision

    /// A sky as stated (satellites in the order given): for tests, and for sources that are
    /// not NMEA.
    public init(timestamp: FixTime? = nil, satellites: [Satellite] = [], dop: DilutionOfPrecision = DilutionOfPrecision()) {
        self.timestamp = timestamp
        self.satellites = satellites
        self.dop = dop
    }

    /// How many of ``satellites`` the receiver used in its solution (GSA), counted here.
    public var satellitesUsed: Int { satellites.reduce(0) { $0 + ($1.used ? 1 : 0) } }
}
