/// A receiver's own estimate of its solution's error, as one GST sentence states it: the
/// statistics behind `Fix.horizontalAccuracy` and `verticalAccuracy`, kept whole so that an
/// output can pass them on (gpsd's `GST` report) rather than only the accuracies derived from
/// them.
///
/// Metres, one sigma, except `orientation`; every member is nil when the receiver left its
/// field empty, as receivers without a solution do. Each is eight bytes (see `Unknowable`):
/// a fix carries them.
public struct ErrorStatistics: Hashable, Codable, Sendable {
    /// RMS of the standard deviations of the ranges that went into the solution.
    @Unknowable public var rms: Double?
    /// The error ellipse's semi-major axis (its long half-axis), metres.
    @Unknowable public var semiMajor: Double?
    /// The error ellipse's semi-minor axis (its short half-axis), metres.
    @Unknowable public var semiMinor: Double?
    /// The direction of the error ellipse's semi-major axis, degrees clockwise from true north,
    /// −180 up to 360 (``Bounds/orientation``: some receivers write it from −180).
    @Unknowable public var orientation: Double?
    /// The standard deviation of the latitude error, metres (gpsd's `lat` in a GST report).
    @Unknowable public var latitudeError: Double?
    /// The standard deviation of the longitude error, metres (gpsd's `lon` in a GST report).
    @Unknowable public var longitudeError: Double?
    /// The standard deviation of the altitude error, metres (gpsd's `alt` in a GST report).
    @Unknowable public var altitudeError: Double?

    /// Statistics as stated, every one left out unknown: for tests, and for sources that are
    /// not NMEA (a gpsd GST report). Not checked against ``Bounds/accuracy``.
    public init(rms: Double? = nil, semiMajor: Double? = nil, semiMinor: Double? = nil, orientation: Double? = nil,
                latitudeError: Double? = nil, longitudeError: Double? = nil, altitudeError: Double? = nil) {
        self.rms = rms
        self.semiMajor = semiMajor
        self.semiMinor = semiMinor
        self.orientation = orientation
        self.latitudeError = latitudeError
        self.longitudeError = longitudeError
        self.altitudeError = altitudeError
    }
}
