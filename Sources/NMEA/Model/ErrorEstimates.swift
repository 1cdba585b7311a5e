/// A fix's errors as gpsd estimates them: what gpsd's TPV carries as `eph`, `epx`, `epy`,
/// `epv`, `sep`, `eps`, `epd`, `epc` and `ept`, computed as gpsd computes them, so that a
/// gpsd client reading gpsfix sees gpsd's numbers.
///
/// They come from the dilutions of precision and gpsd's assumed range error (UERE: 15 m per
/// horizontal axis, 23 m vertically, 19 m overall; a quarter of that with differential
/// corrections), and from successive fixes for the rates; gpsd gives them "certainty
/// unknown". A receiver's own statistics (GST, GBS, PUBX, PGRME) are not in them, as gpsd
/// leaves them out of its TPV: they are ``Fix/errorStatistics`` and, where the receiver gave
/// them, ``Fix/horizontalAccuracy`` and ``Fix/verticalAccuracy``. Metres, metres per second,
/// degrees and seconds; each nil where gpsd would have none.
public struct ErrorEstimates: Hashable, Codable, Sendable {
    /// Horizontal position error, metres (`eph`): HDOP × 19 m (4.75 m with corrections).
    @Unknowable public var horizontal: Double?
    /// Latitude error, metres (`epy`): YDOP × 15 m (3.75 m).
    @Unknowable public var latitude: Double?
    /// Longitude error, metres (`epx`): XDOP × 15 m (3.75 m).
    @Unknowable public var longitude: Double?
    /// Altitude error, metres (`epv`), for a fix with an altitude: VDOP × 23 m (5.75 m).
    @Unknowable public var vertical: Double?
    /// Spherical (3D) position error, metres (`sep`): PDOP × 19 m (4.75 m).
    @Unknowable public var spherical: Double?
    /// Speed error, metres per second (`eps`): the larger horizontal error of this fix and of
    /// the last epoch's, added, over the seconds between them.
    @Unknowable public var speed: Double?
    /// Course error, degrees (`epd`): the angle this fix's larger horizontal error subtends
    /// seen from the last epoch's position; nil when the two are closer than that error.
    @Unknowable public var course: Double?
    /// Climb error, metres per second (`epc`): this fix's and the last epoch's altitude
    /// errors, added, over the seconds between them.
    @Unknowable public var climb: Double?
    /// Time error, seconds (`ept`): 0.005, half the resolution of a receiver's clock, for a
    /// fix with a date and time.
    @Unknowable public var time: Double?

    /// Estimates as stated, every one left out unknown: for tests, and for sources that are
    /// not NMEA (gpsd's own TPV).
    public init(horizontal: Double? = nil, latitude: Double? = nil, longitude: Double? = nil, vertical: Double? = nil,
                spherical: Double? = nil, speed: Double? = nil, course: Double? = nil, climb: Double? = nil,
                time: Double? = nil) {
        self.horizontal = horizontal
        self.latitude = latitude
        self.longitude = longitude
        self.vertical = vertical
        self.spherical = spherical
        self.speed = speed
        self.course = course
        self.climb = climb
        self.time = time
    }
}

// A fix without estimates (every source but the engine's, and fixes stored before there were
// any) leaves them out, and one stored without them reads back with none, as its `@Unknowable`
// members do (see `Unknowable`).
extension ErrorEstimates: OmittedWhenEmpty {
    var present: ErrorEstimates? { self == ErrorEstimates() ? nil : self }
    init(present: ErrorEstimates?) { self = present ?? ErrorEstimates() }
}
