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
    /// The error ellipse: its semi-major and semi-minor axes, and the major axis's direction
    /// in degrees from true north.
    @Unknowable public var semiMajor: Double?
    @Unknowable public var semiMinor: Double?
    @Unknowable public var orientation: Double?
    @Unknowable public var latitudeError: Double?
    @Unknowable public var longitudeError: Double?
    @Unknowable public var altitudeError: Double?

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
