/// What the sentences of one reporting cycle have said so far.
///
/// Kept separate from `Fix` because sentences disagree and overlap: the epoch records who said
/// what, and `EpochAssembler` decides once, when the cycle is complete.
@dynamicMemberLookup
struct Epoch {
    /// Everything the cycle's sentences stated, apart from its lists: put back to its start
    /// at once by `reset`, member for member, with no list to copy or release.
    struct Statements {
        var time: TimeOfDay?
        var date: CalendarDate?
        var isEmpty = true
        /// The first sentence's key, and the first with a time of its own: to tell whether the
        /// stream's first epoch began at the start of its cycle.
        var firstKey: UInt32?
        var firstTimedKey: UInt32?
        /// The stream began part-way through this epoch.
        var isCut = false

        // Validity, as each kind of sentence states it.
        var validSignals = 0
        var invalidSignals = 0
        var gsaMode: FixMode?
        var pubxMode: FixMode?
        var pgrmzMode: FixMode?

        var coordinate: Coordinate?
        /// Whether `coordinate` came from a GGA (see `offer`).
        var coordinateFromGGA = false
        /// The position of the GGA whose altitude `altitude` is, if a GGA gave it: that altitude
        /// belongs with that solution only (see `altitudeFits`).
        var altitudeSolution: Coordinate?
        @Unknowable var altitude: Double?
        @Unknowable var geoidSeparation: Double?
        @Unknowable var ellipsoidalAltitude: Double?
        var quality: FixQuality?
        @Unknowable var speed: Double?
        @Unknowable var course: Double?
        @Unknowable var magneticVariation: Double?
        /// A magnetic track the receiver stated (VTG), the last of the cycle.
        @Unknowable var magneticTrack: Double?
        @Unknowable var climb: Double?
        var satellitesUsed: Int?
        var dop = DilutionOfPrecision()
        @Unknowable var ggaHDOP: Double?
        @Unknowable var latitudeError: Double?
        @Unknowable var longitudeError: Double?
        @Unknowable var altitudeError: Double?
        var errorStatistics: ErrorStatistics?
        /// A GBS's errors, which gpsd's TPV carries as they are.
        var faultErrors: ErrorEstimates?
        /// A PGRME's errors as gpsd holds them (scaled to its 95 % figures): what gpsd's fix
        /// carries at the cycle's end, so what the next cycle's rates start from.
        var garminErrors: ErrorEstimates?
        @Unknowable var horizontalAccuracy: Double?
        @Unknowable var verticalAccuracy: Double?
        @Unknowable var sphericalError: Double?
        var navigationalStatus: NavigationalStatus?
        var hasSky = false
        /// What the instruments beside the receiver said (HDT … MWD), the latest of each.
        var attitude = Attitude()
        var marine = MarineData()
        /// The local datum of the cycle's first DTM.
        var datum: Datum?
    }

    var said = Statements()

    /// Whether any sentence of the cycle stated a position or whether the receiver has a fix.
    var speaksOfFix: Bool {
        said.coordinate != nil || said.validSignals > 0 || said.invalidSignals > 0
            || said.gsaMode != nil || said.pubxMode != nil || said.pgrmzMode != nil
    }

    /// `epoch.altitude` is `epoch.said.altitude`: the sentences' files speak of the epoch.
    /// Key paths to stored members, resolved by the compiler into plain loads and stores.
    subscript<T>(dynamicMember member: WritableKeyPath<Statements, T>) -> T {
        @inline(__always) get { said[keyPath: member] }
        @inline(__always) set { said[keyPath: member] = newValue }
    }

    /// Metres within which a GGA's and an RMC/GLL/GNS's positions are one solution's.
    static let sameSolution = 1.0

    /// What the cycle lists: kept apart so that `reset` can keep their storage.
    var lists = Lists()

    struct SkySet: Sendable {
        var key: UInt32
        var total: Int
        var parts: UInt32
    }

    struct KeyCount: Sendable {
        var key: UInt32
        var count: Int
    }

    struct Lists {
        /// Satellites listed as used by this cycle's GSAs.
        var used: [SatelliteID] = []
        /// Satellites in view from this cycle's GSVs, in `SatelliteID` order.
        var sky: [Satellite] = []
        /// GSV sets of this cycle: which parts arrived.
        var skySets: [SkySet] = []
        /// (talker, kind) keys seen, for the repeat rule, and occurrence counts for signatures.
        var seen: [KeyCount] = []
        /// Each GSA's used satellites in order, and each GRS's residuals: paired in the sky view
        /// (`applyResiduals`).
        var usedGroups: [UsedGroup] = []
        var residualGroups: [ResidualGroup] = []

        mutating func reserve() {
            used.reserveCapacity(64)
            sky.reserveCapacity(64)
            skySets.reserveCapacity(16)
            seen.reserveCapacity(32)
            usedGroups.reserveCapacity(16)
            residualGroups.reserveCapacity(16)
        }

        /// Empties them, keeping their storage. An empty one (most epochs list no
        /// satellites) is left alone: emptying goes through Array's general replacement.
        mutating func removeAll() {
            if !used.isEmpty { used.removeAll(keepingCapacity: true) }
            if !sky.isEmpty { sky.removeAll(keepingCapacity: true) }
            if !skySets.isEmpty { skySets.removeAll(keepingCapacity: true) }
            if !seen.isEmpty { seen.removeAll(keepingCapacity: true) }
            if !usedGroups.isEmpty { usedGroups.removeAll(keepingCapacity: true) }
            if !residualGroups.isEmpty { residualGroups.removeAll(keepingCapacity: true) }
        }
    }

    init() {
        lists.reserve()
    }

    /// Forgets the cycle but keeps the lists' storage, so steady state allocates nothing.
    mutating func reset() {
        said = Statements()
        lists.removeAll()
    }

    /// Counts one more occurrence of `key` in this cycle and returns the new count.
    mutating func count(_ key: UInt32) -> Int {
        for i in lists.seen.indices where lists.seen[i].key == key {
            lists.seen[i].count += 1
            return lists.seen[i].count
        }
        lists.seen.append(KeyCount(key: key, count: 1))
        return 1
    }

    /// `mutating` only so that it is handed the epoch's address, not a copy (see
    /// `EpochAssembler`).
    mutating func occurrences(_ key: UInt32) -> Int {
        for i in lists.seen.indices where lists.seen[i].key == key { return lists.seen[i].count }
        return 0
    }

    /// The latest valid position of the cycle wins, as in gpsd: some receivers (a B&G Zeus
    /// among gpsd's captures) send a GLL that differs from the GGA before it, and the later
    /// sentence is the receiver's latest word. A GGA is the exception: a chartplotter relays
    /// its GGA from an older solution than the RMC and GLL it sends in the same second, and
    /// gpsd, which reports on RMC and GLL, never shows that GGA's position. So a GGA position
    /// that disagrees with an RMC/GLL/GNS position of its epoch gives way; one that agrees
    /// within rounding still lends its finer resolution.
    mutating func offer(_ c: Coordinate?, fromGGA: Bool = false) {
        guard let c else { return }
        if fromGGA, let current = said.coordinate, !said.coordinateFromGGA {
            let rounding = max(current.resolution ?? 0, c.resolution ?? 0) * metresPerDegree
            guard current.distance(to: c) <= rounding, (c.resolution ?? 1) < (current.resolution ?? 1) else { return }
        }
        said.coordinate = c
        said.coordinateFromGGA = fromGGA
    }

    /// Whether two positions are one solution's. A GGA's altitude is of the GGA's solution:
    /// where a relaying plotter's RMC or GLL states another (a second older or newer, so a
    /// second of travel away), the altitude is not that position's. One solution printed by
    /// two sentences differs only by their rounding, and by a few decimetres where the plotter
    /// computes each sentence apart.
    static func isSameSolution(_ a: Coordinate, _ b: Coordinate) -> Bool {
        // Most epochs state one position in every sentence: no distance to work out.
        if a == b { return true }
        let rounding = max(a.resolution ?? 0, b.resolution ?? 0) * metresPerDegree
        return a.distance(to: b) <= max(rounding, sameSolution)
    }

    mutating func offer(_ q: FixQuality?) {
        guard let q else { return }
        if said.quality == nil || q > said.quality! { said.quality = q }
    }

    mutating func markUsed(_ numbers: FixedList<16, UInt16>, hint: Constellation?) {
        for n in numbers {
            guard let id = SatelliteID(nmea: Int(n), hint: hint), !lists.used.contains(id),
                  lists.used.count < Bounds.satellites.upperBound else { continue }
            lists.used.append(id)
        }
    }

    /// Adds a GSV's satellites; returns how many were left out past `Bounds.satellites`.
    mutating func addInView(_ gsv: GSV, hint: Constellation?) -> Int {
        said.hasSky = true
        var leftOut = 0
        for entry in gsv.entries {
            guard let id = SatelliteID(nmea: entry.number, hint: hint) else { continue }
            // Kept in order as it is built, so the sky view needs no sorting: receivers list
            // their satellites mostly in order, so the place is found at once from the end.
            var i = lists.sky.count
            while i > 0 && id < lists.sky[i - 1].id { i -= 1 }
            if i > 0 && lists.sky[i - 1].id == id {
                // The same satellite on another signal (NMEA 4.10): one entry, strongest signal.
                i -= 1
                if lists.sky[i].elevation == nil { lists.sky[i].elevation = entry.elevation }
                if lists.sky[i].azimuth == nil { lists.sky[i].azimuth = entry.azimuth }
                if let s = entry.snr, s > (lists.sky[i].snr ?? -1) { lists.sky[i].snr = s }
            } else {
                // A sky view lists at most gpsd's MAXCHANNELS satellites: libgps drops a whole
                // SKY that lists more. The first listed are kept; later ones are counted.
                guard lists.sky.count < Bounds.satellites.upperBound else {
                    leftOut &+= 1
                    continue
                }
                let satellite = Satellite(id: id, elevation: entry.elevation, azimuth: entry.azimuth, snr: entry.snr)
                // At the end, an append: an insert moves what follows, even nothing, by a call.
                if i == lists.sky.count { lists.sky.append(satellite) } else { lists.sky.insert(satellite, at: i) }
            }
        }
        return leftOut
    }

    /// Records a GSV part; returns false when it repeats a part this cycle already has.
    mutating func recordPart(_ gsv: GSV, key: UInt32) -> Bool {
        let total = max(1, min(gsv.totalParts ?? 1, 31))
        let part = max(1, min(gsv.part ?? 1, 31))
        let bit = UInt32(1) << UInt32(part - 1)
        for i in lists.skySets.indices where lists.skySets[i].key == key {
            if lists.skySets[i].parts & bit != 0 { return false }
            lists.skySets[i].parts |= bit
            lists.skySets[i].total = total
            return true
        }
        lists.skySets.append(SkySet(key: key, total: total, parts: bit))
        return true
    }

    /// GSV sets of this cycle with a part missing.
    /// (`mutating` as `occurrences` is.)
    var incompleteSkySets: Int {
        mutating get {
            lists.skySets.reduce(0) { $0 + ($1.parts == (UInt32(1) << UInt32($1.total)) - 1 ? 0 : 1) }
        }
    }
}
