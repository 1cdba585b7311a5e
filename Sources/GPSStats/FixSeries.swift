public import NMEA

/// What a run's plot draws: each epoch's place in time with its altitude, HDOP, satellites
/// used and time offset, and each satellite heard with its place in the sky and its signal.
/// Kept by ``FixStatistics/Collector`` under its limit.
public struct FixSeries: Hashable, Sendable {
    /// One epoch.
    public struct Epoch: Hashable, Sendable {
        /// Seconds after the run's first epoch, by the receiver's clock.
        public let seconds: Double
        /// Its fix mode.
        public let mode: FixMode
        /// Metres (above the ellipsoid where stated, else mean sea level), with a fix only.
        public let altitude: Double?
        /// Its HDOP, as the receiver stated it.
        public let hdop: Double?
        /// Satellites used, as the receiver counted them.
        public let satellitesUsed: Int?
        /// Seconds from the second the epoch names to when its first byte arrived (a live
        /// source's; nil from a capture).
        public let timeOffset: Double?
    }

    /// One satellite in one sky view, heard (an SNR above 0) at a known place.
    public struct SkySample: Hashable, Sendable {
        /// Its constellation.
        public let constellation: Constellation
        /// Degrees above the horizon, and clockwise from true north.
        public let elevation: Double
        /// Degrees clockwise from true north.
        public let azimuth: Double
        /// dB-Hz.
        public let snr: Double
        /// Whether the solution used it.
        public let used: Bool
    }

    /// Every epoch with a time, in order.
    public internal(set) var epochs: [Epoch] = []
    /// Every heard satellite of every sky view, in order.
    public internal(set) var sky: [SkySample] = []
}
