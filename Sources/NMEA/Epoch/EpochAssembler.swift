/// What the engine reports: a fix per epoch, and a sky view per cycle that listed satellites.
public enum EngineEvent: Equatable, Sendable {
    case fix(Fix)
    case sky(SkyView)
}

/// Groups decoded sentences into reporting cycles and reports each as soon as it is complete.
///
/// A receiver sends one burst of sentences per epoch, always in the same order. Like gpsd, the
/// assembler learns which sentence closes the burst: when the time changes, the sentence seen
/// just before is an "ender". From then on an epoch is reported the moment its ender arrives,
/// not a whole cycle later when the next one begins. Until an ender is known, and whenever
/// one fails to come, the epoch is reported when the next begins; the last one at `finish`.
///
/// An ender is a signature, not just a type: `(talker, kind, n-th occurrence)`, so the second
/// of two `GNGSA` or the third `GPGSV` set can close a cycle. An ender that fires while more
/// position data is still to come was learned from a glitch: it is forgotten.
public struct EpochAssembler: Sendable {
    private var epoch = Epoch()
    /// Learned cycle enders: a handful at most.
    private var enders: [Signature] = []
    private var lastSignature: Signature?
    private var firedBy: Signature?
    private var delivered: Fix?
    /// Whether a sentence has been merged since the epoch was last reported: if not, the
    /// fix would come out the same, and building it again (a few hundred bytes) is wasted.
    private var mergedSinceReport = false
    private var skyDelivered = false
    /// The date and time of the last dated epoch, to carry the date across cycles without one.
    private var lastDate: CalendarDate?
    private var lastTime: TimeOfDay?
    private var previous: Fix?

    public private(set) var statistics = EpochStatistics()

    public init() {
        enders.reserveCapacity(8)
    }

    struct Signature: Equatable, Sendable {
        var key: UInt32
        var occurrence: Int
    }

    /// What the bookkeeping needs of a sentence, read in one pass so that the (large) decoded
    /// value is not copied once per question.
    struct Facts {
        var kind: SentenceKind
        var time: TimeOfDay?
        var position: Coordinate?
        /// For a GSV: whether it is the last part of its set; true for every other sentence.
        var closesSet = true
        var signalID = 0

        init(kind: SentenceKind) { self.kind = kind }
    }

    /// Takes one decoded sentence from talker `talker` (nil for proprietary ones).
    public mutating func consume(_ sentence: DecodedSentence, talker: Talker?, emit: (EngineEvent) -> Void) {
        switch sentence {
        case .gga(let x): consume(x, talker: talker, emit: emit)
        case .rmc(let x): consume(x, talker: talker, emit: emit)
        case .gsa(let x): consume(x, talker: talker, emit: emit)
        case .gsv(let x): consume(x, talker: talker, emit: emit)
        case .vtg(let x): consume(x, talker: talker, emit: emit)
        case .gll(let x): consume(x, talker: talker, emit: emit)
        case .zda(let x): consume(x, talker: talker, emit: emit)
        case .gns(let x): consume(x, talker: talker, emit: emit)
        case .gst(let x): consume(x, talker: talker, emit: emit)
        case .gbs(let x): consume(x, talker: talker, emit: emit)
        case .pgrme(let x): consume(x, talker: talker, emit: emit)
        case .pubx(let x): consume(x, talker: talker, emit: emit)
        }
    }

    mutating func consume<S: EpochInput>(_ sentence: S, talker: Talker?, emit: (EngineEvent) -> Void) {
        let facts = sentence.facts
        let key = Self.key(facts, talker: talker)
        if startsNewEpoch(facts, key: key) {
            close(emit: emit)
            if let lastSignature, !enders.contains(lastSignature) {
                // A receiver whose cycle keeps changing shape: start learning afresh.
                if enders.count >= 8 { enders.removeAll(keepingCapacity: true) }
                enders.append(lastSignature)
            }
        }
        if contradictsEpochPosition(facts) {
            // Two sources in one stream (a chartplotter relaying its GPS's GGA and GLL beside its
            // own RMC): report the earlier statement as it stood rather than overwrite it.
            // Its GGA comes a second off, so the earlier statement has no altitude of its own;
            // the altitude the receiver gave just before is its latest word on it.
            if epoch.altitude == nil, let last = previous, last.altitude != nil {
                epoch.altitude = last.altitude
                epoch.geoidSeparation = epoch.geoidSeparation ?? last.geoidSeparation
            }
            report(firedBy: nil, emit: emit)
            delivered = nil
            skyDelivered = false
            statistics.contradictions += 1
        }
        if epoch.time == nil, let t = facts.time { epoch.time = t }
        epoch.isEmpty = false
        sentence.merge(into: &epoch, talker: talker, key: key, statistics: &statistics)
        mergedSinceReport = true

        // Only a set's last part can close a cycle; count sets, not parts.
        guard facts.closesSet else { return }
        let signature = Signature(key: key, occurrence: epoch.count(key))
        lastSignature = signature
        if enders.contains(signature) {
            report(firedBy: signature, emit: emit)
        }
    }

    /// Ends the stream: reports the epoch in progress, if it holds anything.
    public mutating func finish(emit: (EngineEvent) -> Void) {
        close(emit: emit)
    }

    // MARK: - Epoch boundaries

    private static func key(_ f: Facts, talker: Talker?) -> UInt32 {
        let extra = f.kind == .gsv ? UInt32(truncatingIfNeeded: f.signalID & 0xF) : 0
        let t = talker.map { UInt32($0.first) << 8 | UInt32($0.second) } ?? 0
        return t << 16 | UInt32(f.kind.rawValue) << 4 | extra
    }

    private func startsNewEpoch(_ f: Facts, key: UInt32) -> Bool {
        guard !epoch.isEmpty else { return false }
        if let t = f.time, let current = epoch.time, t != current { return true }
        switch f.kind {
        case .gsa, .gsv:
            // Several per cycle by design (one per constellation or signal).
            return false
        default:
            // The same sentence twice in one cycle: a new cycle whose time did not change
            // (a receiver without a clock yet, or one that sends no time at all).
            return epoch.occurrences(key) > 0
        }
    }

    private mutating func close(emit: (EngineEvent) -> Void) {
        guard !epoch.isEmpty else { return }
        report(firedBy: nil, emit: emit)
        previous = delivered
        statistics.epochs += 1
        statistics.incompleteSkySets += epoch.incompleteSkySets
        if let t = epoch.time, let date = resolvedDate() {
            lastDate = date
            lastTime = t
        }
        epoch.reset()
        delivered = nil
        skyDelivered = false
        firedBy = nil
    }

    /// Reports the fix (unless already reported unchanged) and the sky (if it has news).
    private mutating func report(firedBy signature: Signature?, emit: (EngineEvent) -> Void) {
        guard mergedSinceReport || delivered == nil else {
            if signature != nil { firedBy = signature }
            return
        }
        mergedSinceReport = false
        var fix = makeFix()
        if let delivered {
            // Climb was derived against the previous epoch when first reported; keep it.
            if fix.climb == nil { fix.climb = delivered.climb }
            if fix != delivered {
                // More position data after the ender fired: that ender came too early.
                if let early = firedBy, let i = enders.firstIndex(of: early) {
                    enders.remove(at: i)
                    statistics.forgottenEnders += 1
                }
                emit(.fix(fix))
                self.delivered = fix
            }
        } else {
            if fix.climb == nil { fix.climb = climb(to: fix) }
            emit(.fix(fix))
            delivered = fix
            statistics.fixes += 1
            if signature != nil { statistics.earlyReports += 1 }
        }
        if signature != nil { firedBy = signature }
        if epoch.hasSky && !skyDelivered {
            emit(.sky(makeSky(timestamp: fix.timestamp)))
            skyDelivered = true
        }
    }

    /// Whether `s` states a position that disagrees with the one this epoch already holds by
    /// more than the sentences' rounding could explain (and at least a metre), when the epoch's
    /// position has not been reported yet.
    @inline(__always)
    private func contradictsEpochPosition(_ f: borrowing Facts) -> Bool {
        guard delivered == nil, let current = epoch.coordinate, let next = f.position else { return false }
        // A GGA neither splits an epoch nor is split from: its position gives way (`Epoch.offer`).
        guard f.kind != .gga, !epoch.coordinateFromGGA else { return false }
        let resolution = max(current.resolution ?? 0, next.resolution ?? 0) * 111_195
        return current.distance(to: next) > resolution
    }

    // MARK: - Deciding

    private func resolvedDate() -> CalendarDate? {
        guard let t = epoch.time else { return nil }
        if let d = epoch.date { return d }
        guard let d = lastDate, let last = lastTime else { return nil }
        // Time of day went back by more than half a day: midnight has passed.
        return t.milliseconds < last.milliseconds - 43_200_000 ? d.nextDay : d
    }

    private func makeFix() -> Fix {
        var fix = Fix()
        if let t = epoch.time { fix.timestamp = FixTime(date: resolvedDate(), time: t) }
        let claimsFix = epoch.validSignals > 0
        // The receiver's own statement of dimension wins (GSA, else PUBX); without one, a
        // valid position with an altitude is 3D, as every receiver that omits GSA means it.
        if let gsa = epoch.gsaMode {
            fix.mode = gsa >= .twoD && (claimsFix || epoch.invalidSignals == 0) ? gsa : .noFix
        } else if let pubx = epoch.pubxMode {
            fix.mode = pubx
        } else if claimsFix {
            fix.mode = epoch.altitude != nil ? .threeD : .twoD
        }
        fix.satellitesUsed = epoch.satellitesUsed
        fix.dop = epoch.dop
        if fix.dop.horizontal == nil { fix.dop.horizontal = epoch.ggaHDOP }
        fix.navigationalStatus = epoch.navigationalStatus
        guard fix.mode >= .twoD, epoch.coordinate != nil else {
            if fix.mode >= .twoD && epoch.coordinate == nil { fix.mode = .noFix }
            return fix
        }
        fix.coordinate = epoch.coordinate
        fix.quality = epoch.quality
        fix.altitude = epoch.altitude
        fix.geoidSeparation = epoch.geoidSeparation
        if let h = epoch.ellipsoidalAltitude {
            fix.ellipsoidalAltitude = h
            if fix.geoidSeparation == nil, let a = epoch.altitude { fix.geoidSeparation = h - a }
        } else if let a = epoch.altitude, let g = epoch.geoidSeparation {
            fix.ellipsoidalAltitude = a + g
        }
        fix.speed = epoch.speed
        fix.course = epoch.course
        fix.magneticVariation = epoch.magneticVariation
        fix.climb = epoch.climb
        fix.latitudeError = epoch.latitudeError
        fix.longitudeError = epoch.longitudeError
        if let y = epoch.latitudeError, let x = epoch.longitudeError {
            fix.horizontalAccuracy = (x * x + y * y).squareRoot()
        } else {
            fix.horizontalAccuracy = epoch.horizontalAccuracy
        }
        fix.verticalAccuracy = epoch.altitudeError ?? epoch.verticalAccuracy
        fix.sphericalError = epoch.sphericalError
        return fix
    }

    /// Vertical speed from the previous 3D fix, when it is recent enough to mean anything.
    private func climb(to fix: Fix) -> Double? {
        guard fix.mode == .threeD, let a = fix.altitude, let t = fix.timestamp,
              let p = previous, p.mode == .threeD, let pa = p.altitude, let pt = p.timestamp
        else { return nil }
        var dt = t.time.milliseconds - pt.time.milliseconds
        if let m = t.millisecondsSinceEpoch, let pm = pt.millisecondsSinceEpoch { dt = m - pm }
        guard dt > 0, dt <= 5_000 else { return nil }
        return (a - pa) / (Double(dt) / 1000)
    }

    private func makeSky(timestamp: FixTime?) -> SkyView {
        var satellites = epoch.sky
        for i in satellites.indices where epoch.used.contains(satellites[i].id) {
            satellites[i].used = true
        }
        satellites.sort { $0.id < $1.id }
        var dop = epoch.dop
        if dop.horizontal == nil { dop.horizontal = epoch.ggaHDOP }
        return SkyView(timestamp: timestamp, satellites: satellites, dop: dop)
    }
}

/// Counts kept by the assembler, for `gpsfix` statistics and tests.
public struct EpochStatistics: Equatable, Sendable {
    public var epochs = 0
    public var fixes = 0
    /// Epochs reported at their learned ender rather than when the next began.
    public var earlyReports = 0
    public var forgottenEnders = 0
    /// Epochs in which two sentences stated positions too far apart to be the same fix.
    public var contradictions = 0
    public var incompleteSkySets = 0
    public var repeatedSkyParts = 0

    public init() {}
}
