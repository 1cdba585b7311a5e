/// How late a receiver's NMEA is, measured: each epoch's arrival against the second it names,
/// by the system clock (`reference == .system`) or by the receiver's pulse
/// (`reference == .pulse`), and the pulses' health. What `gpsfix timing` reports; facts only,
/// the advice is the CLI's.
///
/// At most `limit` delays are kept for the statistics (a day of one epoch a second); the
/// counts go on past it.
public struct TimingMeasurement: Sendable {
    /// What the NMEA's arrival is held against.
    public enum Reference: String, Sendable, CaseIterable {
        /// The receiver's pulse: the start of each second to the microsecond.
        case pulse = "pps"
        /// The system clock: only as good as what keeps it.
        case system
    }

    /// What the arrivals are held against.
    public let reference: Reference
    /// The most delays, and phases, kept for the statistics.
    public static let limit = 100_000
    /// Seconds after the start of its second each epoch began to arrive.
    public private(set) var delays: [Double] = []
    /// Epochs measured, including those past `limit`.
    public private(set) var count = 0
    /// Each paired pulse's edge, as seconds after the system clock's second began (its phase).
    public private(set) var phases: [Double] = []

    /// Nothing measured yet, against `reference`.
    public init(reference: Reference) { self.reference = reference }

    /// Takes what a time feed made.
    public mutating func take(_ event: TimingEvent) {
        switch (event, reference) {
        case (.nmea(let sample), .system):
            add(sample.arrival - sample.trueTime, to: \.delays)
            count += 1
        case (.pulse(let sample), .pulse):
            add(sample.nmeaDelay, to: \.delays)
            count += 1
            add(-sample.offset, to: \.phases)
        case (.pulse(let sample), .system):
            add(-sample.offset, to: \.phases)
        default:
            break
        }
    }

    private mutating func add(_ value: Double, to list: WritableKeyPath<TimingMeasurement, [Double]>) {
        if self[keyPath: list].count < Self.limit { self[keyPath: list].append(value) }
    }

    /// The figures of a list of seconds.
    public struct Statistics: Equatable, Sendable {
        /// The middle value: the figure to use, which an outlier does not move.
        public let median: Double
        /// The average.
        public let mean: Double
        /// The standard deviation: what chrony calls a source's jitter.
        public let standardDeviation: Double
        /// The smallest value.
        public let minimum: Double
        /// The largest value.
        public let maximum: Double
        /// The 50th and 99th percentiles of the distance from the median.
        public let deviation50: Double
        /// The 99th percentile of the distance from the median.
        public let deviation99: Double

        init?(_ values: [Double]) {
            guard !values.isEmpty else { return nil }
            let sorted = values.sorted()
            median = Self.percentile(sorted, 0.5)
            mean = values.reduce(0, +) / Double(values.count)
            let mean = mean
            standardDeviation = (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)).squareRoot()
            minimum = sorted[0]
            maximum = sorted[sorted.count - 1]
            let median = median
            let deviations = values.map { abs($0 - median) }.sorted()
            deviation50 = Self.percentile(deviations, 0.5)
            deviation99 = Self.percentile(deviations, 0.99)
        }

        /// Nearest rank.
        private static func percentile(_ sorted: [Double], _ p: Double) -> Double {
            let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
            return sorted[max(0, min(sorted.count - 1, rank))]
        }
    }

    /// The NMEA's delay after the second, seconds; nil with no epoch measured.
    public var delay: Statistics? { Statistics(delays) }

    /// Where in the system clock's second the pulses came, seconds: the clock's offset from
    /// them (modulo a second), and their jitter as this machine stamps them.
    public var phase: Statistics? { Statistics(phases) }
}
