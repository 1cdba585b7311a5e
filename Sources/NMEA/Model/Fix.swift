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
    /// Degrees, east positive.
    @Unknowable public var magneticVariation: Double?
    /// Metres per second, up positive: from the receiver, or from consecutive 3D altitudes.
    @Unknowable public var climb: Double?
    /// Metres, one sigma, from GST, GBS, PUBX or PGRME (the receiver's own estimates only).
    @Unknowable public var horizontalAccuracy: Double?
    /// Metres of altitude error, one sigma: GST's altitude error, else PUBX's vertical accuracy,
    /// else PGRME's vertical error (the receiver's own estimates only; gpsd's `epv`).
    @Unknowable public var verticalAccuracy: Double?
    /// Latitude error, metres, one sigma, from GST or GBS (gpsd's `epy`).
    @Unknowable public var latitudeError: Double?
    /// Longitude error, metres, one sigma, from GST or GBS (gpsd's `epx`).
    @Unknowable public var longitudeError: Double?
    /// Garmin's estimated position error (PGRME), metres.
    @Unknowable public var sphericalError: Double?
    /// System time (Unix seconds) at which the epoch's first byte was read: the moment the
    /// receiver's time of the epoch is held against when it feeds a clock (chrony). Set by a
    /// live source that reads the bytes itself (a serial port, a TCP stream); nil from the
    /// engine, which has no clock, from replays, which are not live, and from gpsd.
    @Unknowable public var arrival: Double?
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
                arrival: Double? = nil, dop: DilutionOfPrecision = DilutionOfPrecision(),
                timestamp: FixTime? = nil, satellitesUsed: Int? = nil, errorStatistics: ErrorStatistics? = nil,
                mode: FixMode? = nil, quality: FixQuality? = nil, navigationalStatus: NavigationalStatus? = nil,
                isPartialEpoch: Bool = false,
                datum: Datum? = nil) {
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
        self.arrival = arrival
        self.dop = dop
        self.timestamp = timestamp
        self.satellitesUsed = satellitesUsed
        self.errorStatistics = errorStatistics
        self.mode = mode ?? (coordinate == nil ? .noFix : altitude == nil ? .twoD : .threeD)
        self.quality = quality
        self.navigationalStatus = navigationalStatus
        self.isPartialEpoch = isPartialEpoch
        self.datum = datum
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
