public import NMEA

/// What a run of epochs says of a receiver: how its fixes of one place scatter, how often it
/// had a fix of each kind, how soon, how regularly it updated, what it saw of the sky. The
/// figures of `gpsfix stats`; made by a ``Collector`` from the fixes and sky views of a
/// capture or a live run. Facts only: what is good enough is the reader's to say.
public struct FixStatistics: Hashable, Sendable {
    /// Every epoch (fix event), with or without a position.
    public let epochs: Int
    /// Epochs by mode: without a fix, 2D and 3D.
    public let noFix: Int
    /// Epochs with a 2D fix.
    public let twoD: Int
    /// Epochs with a 3D fix.
    public let threeD: Int
    /// Epochs with a position (2D or 3D).
    public var fixes: Int { twoD + threeD }
    /// The scatter of the positions (the first ``Collector/limit``); nil with none.
    public let scatter: PositionScatter?
    /// Positions past ``Collector/limit``, counted and left out of the scatter.
    public let positionsLeftOut: Int
    /// Seconds from the first epoch's time to the first epoch with a position, by the
    /// receiver's clock; nil when either had no time. A capture's, not a cold start's, unless
    /// the capture began at power-on.
    public let timeToFirstFix: Double?
    /// Seconds between consecutive epochs' times (the receiver's update interval): the median
    /// is the rate, the standard deviation its jitter. A repeated time is not an update.
    public let interval: Distribution?
    /// The HDOP of the epochs with a position.
    public let hdop: Distribution?
    /// Sky views that listed any satellite.
    public let skyViews: Int
    /// Each constellation that appeared in any sky view, in constellation order.
    public let constellations: [ConstellationFigures]
    /// What a plot draws over time and over the sky (``FixSeries``), held to the same limit.
    public let series: FixSeries

    /// Takes fixes and sky views in the order a source reported them. Every list it keeps is
    /// held to ``limit`` entries (by default a million: about 24 MB of positions, eleven days
    /// at 1 Hz); what comes after is counted.
    public struct Collector: Sendable {
        /// A million entries: about 24 MB of positions, eleven days at 1 Hz.
        public static let defaultLimit = 1_000_000
        /// The most positions, intervals and HDOPs kept.
        public let limit: Int

        private var epochs = 0, noFix = 0, twoD = 0, threeD = 0
        private var origin: (latitude: Double, longitude: Double)?
        private var deltas: [(latitude: Double, longitude: Double)] = []
        private var altitudes: [Double] = []
        private var leftOut = 0
        private var firstTime: Int?
        private var timeToFirstFix: Double?
        private var sawFix = false
        private var lastTime: Int?
        private var intervals: [Double] = []
        private var hdops: [Double] = []
        private var skyViews = 0
        private var tallies: [Constellation: ConstellationFigures.Tally] = [:]
        private var series = FixSeries()

        /// Nothing collected yet; `limit` bounds each list kept (at least 1).
        public init(limit: Int = defaultLimit) { self.limit = max(1, limit) }

        /// One epoch, with or without a position.
        public mutating func add(_ fix: Fix) {
            epochs += 1
            switch fix.mode {
            case .noFix: noFix += 1
            case .twoD: twoD += 1
            case .threeD: threeD += 1
            }
            let time = fix.timestamp.map { $0.time.milliseconds }
            if let time {
                if firstTime == nil { firstTime = time }
                if let last = lastTime, intervals.count < limit {
                    let step = Self.step(from: last, to: time)
                    if step > 0 { intervals.append(Double(step) / 1000) }
                }
                lastTime = time
            }
            if series.epochs.count < limit, let time {
                let start = firstTime ?? time
                let offset = fix.arrival.flatMap { arrival in fix.timestamp?.millisecondsSinceEpoch.map { arrival - Double($0) / 1000 } }
                series.epochs.append(.init(seconds: Double(Self.step(from: start, to: time)) / 1000, mode: fix.mode,
                                           altitude: fix.hasFix ? fix.ellipsoidalAltitude ?? fix.altitude : nil,
                                           hdop: fix.dop.horizontal, satellitesUsed: fix.satellitesUsed, timeOffset: offset))
            }
            guard fix.hasFix, let coordinate = fix.coordinate else { return }
            if !sawFix {
                sawFix = true
                if let first = firstTime, let time { timeToFirstFix = Double(Self.step(from: first, to: time)) / 1000 }
            }
            if let hdop = fix.dop.horizontal, hdops.count < limit { hdops.append(hdop) }
            guard deltas.count < limit else {
                leftOut += 1
                return
            }
            let origin = self.origin ?? (coordinate.latitude, coordinate.longitude)
            self.origin = origin
            deltas.append((coordinate.latitude - origin.latitude,
                           LocalOffsets.longitudeDifference(coordinate.longitude, from: origin.longitude)))
            if fix.mode == .threeD, let up = fix.ellipsoidalAltitude ?? fix.altitude { altitudes.append(up) }
        }

        /// One sky view; an empty one (no satellite listed) is not counted.
        public mutating func add(_ sky: SkyView) {
            guard !sky.satellites.isEmpty else { return }
            skyViews += 1
            // This view's counts per constellation; signals go straight to the running tallies.
            var counts: [Constellation: (seen: Int, used: Int)] = [:]
            for satellite in sky.satellites {
                let constellation = satellite.id.constellation
                counts[constellation, default: (0, 0)].seen += 1
                if satellite.used { counts[constellation, default: (0, 0)].used += 1 }
                guard let snr = satellite.snr else { continue }
                tallies[constellation, default: .init()].add(snr: snr)
                if series.sky.count < limit, snr > 0, let elevation = satellite.elevation, let azimuth = satellite.azimuth {
                    series.sky.append(.init(constellation: constellation, elevation: elevation, azimuth: azimuth, snr: snr, used: satellite.used))
                }
            }
            for (constellation, count) in counts {
                tallies[constellation, default: .init()].add(seen: count.seen, used: count.used)
            }
        }

        /// The figures so far.
        public var statistics: FixStatistics {
            FixStatistics(epochs: epochs, noFix: noFix, twoD: twoD, threeD: threeD,
                          scatter: origin.flatMap { PositionScatter(origin: $0, deltas: deltas, altitudes: altitudes) },
                          positionsLeftOut: leftOut, timeToFirstFix: timeToFirstFix,
                          interval: Distribution(intervals), hdop: Distribution(hdops), skyViews: skyViews,
                          constellations: tallies.keys.sorted().map { tallies[$0]!.figures($0, skyViews: skyViews) },
                          series: series)
        }

        /// Milliseconds from one time of day to the next, across midnight.
        private static func step(from a: Int, to b: Int) -> Int {
            let day = 86_400_000
            return ((b - a) % day + day) % day
        }
    }
}
