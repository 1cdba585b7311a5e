/// GSV — GNSS Satellites in View (NMEA 0183 §8.3.47).
///
/// `$--GSV,t,n,c,ss,ee,aaa,rr,…[,s]*hh`: part `n` of `t` of a set listing `c` satellites,
/// up to four per sentence (the standard's limit; more are dropped). NMEA 4.10 appends a signal ID, one set per signal.
public struct GSV: Equatable, Sendable {
    /// One satellite. Stored as `Float`: GSV values are whole degrees and dB-Hz (a few
    /// receivers add one decimal), and a small entry keeps the decoded sentence cheap to copy.
    public struct Entry: Equatable, Sendable {
        public var number: Int { Int(storedNumber) }
        public var elevation: Double? { storedElevation.map(Double.init) }
        public var azimuth: Double? { storedAzimuth.map(Double.init) }
        /// Carrier-to-noise density, dB-Hz; nil when not tracked.
        public var snr: Double? { storedSNR.map(Double.init) }

        private let storedNumber: UInt16
        private let storedElevation: Float?
        private let storedAzimuth: Float?
        private let storedSNR: Float?

        /// A value as an entry keeps it (a `Float`), so that its range is checked on what is kept.
        @inline(__always)
        static func asStored(_ value: Double?) -> Double? { value.map { Double(Float($0)) } }

        public init(number: Int, elevation: Double?, azimuth: Double?, snr: Double?) {
            storedNumber = UInt16(clamping: number)
            storedElevation = elevation.map(Float.init)
            storedAzimuth = azimuth.map(Float.init)
            storedSNR = snr.map(Float.init)
        }
    }

    public var totalParts: Int?
    public var part: Int?
    public var satellitesInView: Int?
    public var entries = FixedList<4, Entry>()
    public var signalID: Int?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    public init(_ s: Sentence) {
        var f = s.fields
        totalParts = f.integer(in: Bounds.gsvParts)
        part = f.integer(in: Bounds.gsvParts)
        satellitesInView = f.integer(in: Bounds.satellites)
        // Four fields per satellite; one left over is the 4.10 signal ID, two or three are
        // a cut satellite, ignored. Read as they come, without counting them first.
        while !f.isAtEnd {
            let n = f.next()
            if f.isAtEnd {
                signalID = n.integer
                break
            }
            let e = f.next()
            guard !f.isAtEnd else { break }
            let a = f.next()
            guard !f.isAtEnd else { break }
            let c = f.next()
            guard let number = f.checked(n.integer, in: 1...999) else { continue }
            // Checked as stored: 359.99999 is below 360 as a Double but is the Float 360.0.
            entries.append(Entry(number: number,
                                 elevation: f.checked(Entry.asStored(e.double), in: Bounds.elevation),
                                 azimuth: f.checked(Entry.asStored(a.double), in: Bounds.azimuth),
                                 snr: f.checked(Entry.asStored(c.double), in: Bounds.snr)))
        }
        outOfRange = f.outOfRange
    }

    public var isLastPart: Bool {
        guard let part, let totalParts else { return true }
        return part >= totalParts
    }
}

extension GSV: EpochInput {
    public static var address: StaticString { "GSV" }

    var facts: EpochAssembler.Facts {
        var f = EpochAssembler.Facts()
        f.severalPerCycle = true
        f.closesSet = isLastPart
        f.signalID = signalID ?? 0
        return f
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if !epoch.recordPart(self, key: key) { statistics.repeatedSkyParts += 1 }
        statistics.satellitesLeftOut &+= epoch.addInView(self, hint: talker?.constellation)
    }
}
