/// GSV — GNSS Satellites in View (NMEA 0183 §8.3.47).
///
/// `$--GSV,t,n,c,ss,ee,aaa,rr,…[,s]*hh`: part `n` of `t` of a set listing `c` satellites,
/// up to four per sentence (the standard's limit; more are dropped). NMEA 4.10 appends a signal ID, one set per signal.
public struct GSV: Equatable, Sendable {
    /// One satellite. Stored as `Float`: GSV values are whole degrees and dB-Hz (a few
    /// receivers add one decimal), and a small entry keeps the decoded sentence cheap to copy.
    public struct Entry: Equatable, Sendable {
        /// The satellite's number as the GSV writes it, 1…999: one numbering for every constellation
        /// in NMEA 2.x and 3.x (GPS 1–32, SBAS 33–64, GLONASS 65–96, …), a number within the
        /// talker's constellation in 4.10. ``SatelliteID/init(nmea:hint:)`` tells which satellite.
        public var number: Int { Int(storedNumber) }
        /// Degrees above the horizon, −90…90 (``Bounds/elevation``); nil when the receiver sent none.
        public var elevation: Double? { storedElevation.map(Double.init) }
        /// Degrees clockwise from true north, 0 up to 360 (``Bounds/azimuth``); nil when the receiver sent
        /// none.
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

        /// An entry as a GSV would list it, for tests and for sources that build sky views; each value is
        /// stored as a `Float` and `number` is clamped to 0…65535.
        public init(number: Int, elevation: Double?, azimuth: Double?, snr: Double?) {
            storedNumber = UInt16(clamping: number)
            storedElevation = elevation.map(Float.init)
            storedAzimuth = azimuth.map(Float.init)
            storedSNR = snr.map(Float.init)
        }
    }

    /// Field 1, how many GSV sentences make up this set, 1…31 (``Bounds/gsvParts``).
    public var totalParts: Int?
    /// Field 2, which of them this is, 1…31 (``Bounds/gsvParts``).
    public var part: Int?
    /// Field 3, the satellites the whole set lists, 0…140 (``Bounds/satellites``).
    public var satellitesInView: Int?
    /// The satellites of this part, from each group of four fields (number, elevation, azimuth,
    /// carrier-to-noise): at most four; a group whose number is empty or outside 1…999 is skipped,
    /// and a group cut short at the end of the sentence is dropped.
    public var entries = FixedList<4, Entry>()
    /// The NMEA 4.10 signal ID (the field left over after the groups): which signal of the
    /// constellation the set describes, as each receiver sends one set per signal; nil before 4.10.
    public var signalID: Int?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of a GSV from any talker (`GPGSV`, `GNGSV`, …); the caller has matched
    /// the address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
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

    /// Whether this part completes its set (its part number reaches the total); true when either is
    /// missing, so that a receiver that leaves them empty still closes its sets.
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
