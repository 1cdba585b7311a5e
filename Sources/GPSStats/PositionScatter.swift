/// How a run of fixes of one place scatters around their mean: gpsprof's "space" figures.
///
/// What is counted and what is modelled are kept apart. ``cep50`` and ``cep95`` are counted
/// from the fixes (the radius that half, or 95 %, of them lie within, as gpsprof's "actual"
/// CEP); ``cepFromSigma``, ``drms2`` and ``r95`` are the standard formulas from the
/// standard deviations, which hold for a normal scatter.
public struct PositionScatter: Hashable, Sendable {
    /// Fixes in the scatter.
    public let count: Int
    /// The mean position, degrees (the arithmetic mean of latitudes and of longitudes, as
    /// gpsprof's centroid; longitude in −180 ..< 180).
    public let latitude: Double
    /// The mean longitude, degrees, in −180 ..< 180 (see ``latitude``).
    public let longitude: Double
    /// The mean altitude of the 3D fixes, metres (above the ellipsoid where the receiver
    /// stated it, else above mean sea level); nil with no 3D fix.
    public let altitude: Double?
    /// Standard deviations about the mean, metres, north and east on the local plane
    /// (``LocalOffsets``), and up; sample deviations (n − 1), as gpsprof's and numpy's `ddof=1`.
    public let sigmaNorth: Double
    /// The standard deviation east, metres (see ``sigmaNorth``).
    public let sigmaEast: Double
    /// The standard deviation of the 3D fixes' altitudes, metres; nil with no 3D fix.
    public let sigmaUp: Double?
    /// The radius about the mean that half the fixes lie within, metres: counted, the fix at
    /// rank ⌊n/2⌋ by distance (gpsprof's CEP(50)).
    public let cep50: Double
    /// The radius about the mean that 95 % of the fixes lie within, metres, counted the same way.
    public let cep95: Double
    /// The farthest fix from the mean, metres (gpsprof's "2d max").
    public let maximum: Double
    /// Each fix's metres east and north of the mean, in the order they came (for a plot).
    public let offsets: [(east: Double, north: Double)]

    /// CEP from the deviations, RCC 261-00 §3.1.1: 0.5887 (σN + σE), metres. Exact for a
    /// circular normal scatter, close to it while σE/σN stays above about 0.3.
    public var cepFromSigma: Double { 0.5887 * (sigmaNorth + sigmaEast) }
    /// Twice the distance root mean square, RCC 261-00 §3.1.4: 2 √(σN² + σE²), metres; holds
    /// 95.4 to 98.2 % of a normal scatter, depending on its ellipticity.
    public var drms2: Double { 2 * (sigmaNorth * sigmaNorth + sigmaEast * sigmaEast).squareRoot() }
    /// The radius holding 95 % of a circular normal scatter: Rayleigh's 95th percentile,
    /// σ √(−2 ln 0.05) = 2.4477 σ, with σ the mean of σN and σE as RCC's CEP takes it:
    /// 1.2239 (σN + σE), metres (2.08 times ``cepFromSigma``).
    public var r95: Double { 1.2239 * (sigmaNorth + sigmaEast) }

    /// From positions given as degrees from `origin` (latitude, longitude: the first fix's,
    /// so that sums of small numbers keep their precision) and the 3D fixes' altitudes.
    init?(origin: (latitude: Double, longitude: Double), deltas: [(latitude: Double, longitude: Double)], altitudes: [Double]) {
        guard !deltas.isEmpty else { return nil }
        count = deltas.count
        let meanDeltaLatitude = Distribution.mean(deltas.map(\.latitude))
        let meanDeltaLongitude = Distribution.mean(deltas.map(\.longitude))
        latitude = max(-90, min(90, origin.latitude + meanDeltaLatitude))
        longitude = LocalOffsets.longitudeDifference(origin.longitude + meanDeltaLongitude, from: 0)
        let scale = LocalOffsets(latitude: latitude)
        let offsets = deltas.map { delta in
            (east: (delta.longitude - meanDeltaLongitude) * scale.metresPerDegreeEast,
             north: (delta.latitude - meanDeltaLatitude) * scale.metresPerDegreeNorth)
        }
        self.offsets = offsets
        sigmaNorth = Distribution.standardDeviation(offsets.map(\.north), mean: 0)
        sigmaEast = Distribution.standardDeviation(offsets.map(\.east), mean: 0)
        let distances = offsets.map { ($0.east * $0.east + $0.north * $0.north).squareRoot() }.sorted()
        cep50 = Distribution.percentile(0.5, of: distances)
        cep95 = Distribution.percentile(0.95, of: distances)
        maximum = distances[distances.count - 1]
        let up = Distribution(altitudes)
        altitude = up?.mean
        sigmaUp = up?.standardDeviation
    }

    public static func == (a: PositionScatter, b: PositionScatter) -> Bool {
        a.count == b.count && a.latitude == b.latitude && a.longitude == b.longitude && a.altitude == b.altitude
            && a.sigmaNorth == b.sigmaNorth && a.sigmaEast == b.sigmaEast && a.sigmaUp == b.sigmaUp
            && a.cep50 == b.cep50 && a.cep95 == b.cep95 && a.maximum == b.maximum
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(latitude)
        hasher.combine(longitude)
        hasher.combine(cep50)
    }
}
