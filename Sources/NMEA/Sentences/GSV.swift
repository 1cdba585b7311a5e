/// GSV — GNSS Satellites in View (NMEA 0183 §8.3.47).
///
/// `$--GSV,t,n,c,ss,ee,aaa,rr,…[,s]*hh`: part `n` of `t` of a set listing `c` satellites,
/// up to four per sentence (the standard's limit; more are dropped). NMEA 4.10 appends a signal ID, one set per signal.
public struct GSV: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var number: Int
        public var elevation: Double?
        public var azimuth: Double?
        /// Carrier-to-noise density, dB-Hz; nil when not tracked.
        public var snr: Double?
    }

    public var totalParts: Int?
    public var part: Int?
    public var satellitesInView: Int?
    public var entries = FixedList<4, Entry>()
    public var signalID: Int?

    public init(_ s: Sentence) {
        var f = s.fields
        let count = f.remaining
        totalParts = f.next().integer
        part = f.next().integer
        satellitesInView = f.next().integer
        // Four fields per satellite; one left over is the 4.10 signal ID.
        let quads = max(0, count - 3) / 4
        for _ in 0..<quads {
            let n = f.next(), e = f.next(), a = f.next(), c = f.next()
            guard let number = n.integer, number > 0 else { continue }
            entries.append(Entry(number: number, elevation: e.double, azimuth: a.double, snr: c.double))
        }
        if (count - 3) % 4 == 1 { signalID = f.next().integer }
    }

    public var isLastPart: Bool {
        guard let part, let totalParts else { return true }
        return part >= totalParts
    }
}
