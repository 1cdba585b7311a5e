public import NMEA

/// One constellation over a run's sky views: how many of its satellites were seen and used,
/// and how strong their signals were.
public struct ConstellationFigures: Hashable, Sendable {
    /// Which constellation.
    public let constellation: Constellation
    /// Sky views that listed any satellite of any constellation (the denominator of the means).
    public let skyViews: Int
    /// Its satellites listed per sky view, on average, and at most.
    public let meanSeen: Double
    /// The most of its satellites listed in one sky view.
    public let maximumSeen: Int
    /// Its satellites used in the solution per sky view, on average, and at most.
    public let meanUsed: Double
    /// The most of its satellites used in one sky view.
    public let maximumUsed: Int
    /// The signal-to-noise ratio of its satellites that had one (dB-Hz), over every sky view:
    /// the mean and the strongest; nil when none was heard.
    public let meanSNR: Double?
    /// The strongest signal heard from it, dB-Hz; nil when none was heard.
    public let maximumSNR: Double?

    /// Running sums, so that a day of sky views costs no more than a minute's.
    struct Tally: Hashable, Sendable {
        var seen = 0, used = 0, maximumSeen = 0, maximumUsed = 0
        var snrCount = 0, snrSum = 0.0, maximumSNR = -Double.infinity

        /// One sky view's count of its satellites listed and used.
        mutating func add(seen: Int, used: Int) {
            self.seen += seen
            self.used += used
            maximumSeen = max(maximumSeen, seen)
            maximumUsed = max(maximumUsed, used)
        }

        /// One satellite's signal; 0 (not tracked) and what is not a number are not signals.
        mutating func add(snr: Double) {
            guard snr.isFinite && snr > 0 else { return }
            snrCount += 1
            snrSum += snr
            maximumSNR = max(maximumSNR, snr)
        }

        func figures(_ constellation: Constellation, skyViews: Int) -> ConstellationFigures {
            let views = Double(max(skyViews, 1))
            return ConstellationFigures(constellation: constellation, skyViews: skyViews,
                                        meanSeen: Double(seen) / views, maximumSeen: maximumSeen,
                                        meanUsed: Double(used) / views, maximumUsed: maximumUsed,
                                        meanSNR: snrCount > 0 ? snrSum / Double(snrCount) : nil,
                                        maximumSNR: snrCount > 0 ? maximumSNR : nil)
        }
    }
}
