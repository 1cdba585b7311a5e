/// What the engine reports: a fix per epoch, and a sky view per cycle that listed satellites.
public enum EngineEvent: Equatable, Sendable {
    /// An epoch's fix: when the sentence learned to end its cycle arrives, or else when the next
    /// epoch begins or the stream finishes. A sentence of the same epoch that arrives later and
    /// changes it brings a corrected fix with the same timestamp; one that changes nothing
    /// brings none.
    case fix(Fix)
    /// The satellites the epoch's GSV sets listed, those its GSAs used marked: right after the
    /// fix it belongs to (and carrying its timestamp), only for an epoch that listed satellites.
    case sky(SkyView)
    /// A message the receiver sent as text (TXT, its parts joined), as soon as it is whole: no
    /// part of any epoch, so between fixes wherever it came.
    case note(ReceiverNote)
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
    /// The fix reported for this epoch, when `hasDelivered`. Kept with a flag rather than as
    /// an optional: asking an optional fix whether it is nil copies it. Its instruments' part
    /// is their latest reading, reported or not (`consumeInstrument`).
    private var delivered = Fix()
    private var hasDelivered = false
    /// `delivered` holds an instrument's reading not yet sent (`consumeInstrument`).
    private var instrumentNews = false
    /// The last epoch's own depth, water and wind readings: they stand in this epoch's fix
    /// until this epoch's come (`instruments(into:)`).
    private var lastMarine = MarineData()
    /// Whether a sentence has been merged since the epoch was last reported: if not, the
    /// fix would come out the same, and building it again (a few hundred bytes) is wasted.
    private var mergedSinceReport = false
    private var skyDelivered = false
    /// The date and time of the last dated epoch, to carry the date across cycles without one.
    private var lastDate: CalendarDate?
    private var lastTime: TimeOfDay?
    /// The last epoch's 3D fix, as far as climb needs it.
    private var previous: (time: FixTime, altitude: Double)?
    /// Sentences held back after a cycle's end until a time says whose they are (`holds`).
    private var held: [(any EpochInput, SentenceKind, Talker?)] = []
    private var releasing = false
    /// The last GGA's altitude and the position it belongs with: a plotter may restate that
    /// position in the next second's GLL, and the altitude is still that position's.
    private var lastAltitude: (solution: Coordinate, altitude: Double, geoidSeparation: Double?)?
    /// What gpsd computes where the receiver is silent: DOPs, error estimates, variation.
    private var errors = ErrorModel()
    /// How many satellites the epoch had listed and marked used when the error model last
    /// took them: a fix made again in the same epoch with no more of either (a correction, a
    /// fix and then its sky) need not show them to it again.
    private var observedSatellites = (listed: -1, used: -1)
    /// Whether an instrument beside the receiver (HDT … MWD) has spoken on this stream.
    private var heardInstruments = false

    /// TXT messages being joined: they belong to no epoch (`TXT.feed`).
    var notes = NoteAssembly()

    /// Whether a receiver's simulator or demo output counts as a fix (see `init`).
    public let acceptsSimulatedFixes: Bool

    /// What the assembler has done so far on this stream: epochs, fixes, and the repairs it made.
    public private(set) var statistics = EpochStatistics()

    /// With `acceptsSimulatedFixes` false (the default), a sentence the receiver marks as
    /// simulated (GGA quality 8, mode indicator S) is a statement of no fix, as an invalid one
    /// is: an app that follows `mode >= 2` must not follow a demo track.
    public init(acceptsSimulatedFixes: Bool = false) {
        self.acceptsSimulatedFixes = acceptsSimulatedFixes
        enders.reserveCapacity(8)
    }

    struct Signature: Equatable, Sendable {
        var key: UInt32
        var occurrence: Int
    }

    /// What the bookkeeping needs of a sentence, read in one pass so that the (large) decoded
    /// value is not copied once per question.
    struct Facts {
        var kind = SentenceKind.unknown
        var time: TimeOfDay?
        var position: Coordinate?
        /// For a GSV: whether it is the last part of its set; true for every other sentence.
        var closesSet = true
        var signalID = 0
        /// Sent several times a cycle by design (one per constellation or signal: GSA, GSV),
        /// so a repeat does not start a new cycle.
        var severalPerCycle = false
        /// A position that gives way to its epoch's others rather than split from them (GGA;
        /// see `Epoch.offer`).
        var positionGivesWay = false
        /// From an instrument beside the receiver (a heading sensor, a depth sounder), sent at
        /// its own rate: never a cycle's start or end (see `consumeInstrument`).
        var outsideCycle = false

        init(time: TimeOfDay? = nil, position: Coordinate? = nil) {
            self.time = time
            self.position = position
        }
    }

    /// Takes one decoded sentence of `kind` from talker `talker` (nil for proprietary ones).
    mutating func consume<S: EpochInput>(_ sentence: S, kind: SentenceKind, talker: Talker?, emit: (EngineEvent) -> Void) {
        var facts = sentence.facts
        facts.kind = kind
        if facts.outsideCycle { return consumeInstrument(sentence, facts: facts, talker: talker, emit: emit) }
        if instrumentNews { sendInstrumentNews(emit: emit) }
        let simulated = !acceptsSimulatedFixes && sentence.isSimulated
        if simulated { facts.position = nil }
        let key = Self.key(facts, talker: talker)
        if !releasing {
            if holds(facts, key: key) {
                held.append((sentence, kind, talker))
                if held.count >= 32 { release(asNextEpoch: true, emit: emit) }
                return
            }
            if !held.isEmpty {
                // A time decides whose the held sentences are: this epoch's (its end came
                // early), or the next one's.
                let sameEpoch = facts.time != nil && facts.time == epoch.time
                release(asNextEpoch: !sameEpoch, emit: emit)
            }
        }
        if startsNewEpoch(facts, key: key) {
            if statistics.epochs == 0 {
                // The stream's first epoch began where the stream did. It is whole only if it
                // began as the next one does: otherwise what came before was missed.
                epoch.isCut = facts.time != nil ? epoch.firstTimedKey != key : epoch.firstKey != key
            }
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
            // Its GGA comes a second off, so the earlier statement has no altitude of its own,
            // and none is borrowed: an altitude from another solution is no altitude of this one.
            report(firedBy: nil, emit: emit)
            hasDelivered = false
            skyDelivered = false
            statistics.contradictions += 1
        }
        if epoch.time == nil, let t = facts.time { epoch.time = t }
        if epoch.isEmpty { epoch.firstKey = key }
        if facts.time != nil && epoch.firstTimedKey == nil { epoch.firstTimedKey = key }
        epoch.isEmpty = false
        if simulated {
            // The receiver's demo mode: its position is no fix, whatever else it says.
            epoch.invalidSignals += 1
            statistics.simulated += 1
        } else {
            sentence.merge(into: &epoch, talker: talker, key: key, statistics: &statistics)
        }
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
        if instrumentNews { sendInstrumentNews(emit: emit) }
        if !held.isEmpty { release(asNextEpoch: true, emit: emit) }
        if epoch.isEmpty { reportInstrumentsAlone(emit: emit) }
        close(emit: emit)
        notes.finish(emit: emit)
    }

    // The helpers below that only read are still `mutating`: called from a mutating method,
    // a non-mutating one is handed a copy of the whole assembler (a kilobyte, its epoch and
    // last fix inside), where a mutating one is handed its address.

    // MARK: - Sentences after a cycle's end

    /// Whether to hold a sentence back rather than merge it: the cycle was reported at its
    /// learned end and nothing has come since, and the sentence has no time of its own (nor is
    /// its kind one that ends cycles). It may be the next cycle's first (a VTG after a lost
    /// RMC) or this cycle's last (after an end that came early); merged at once, it would
    /// change a report already out with the next second's speed.
    private mutating func holds(_ f: Facts, key: UInt32) -> Bool {
        firedBy != nil && !mergedSinceReport && f.time == nil && !enders.contains { $0.key == key }
    }

    /// Hands the held sentences on: to this epoch, or (`asNextEpoch`) to a new one.
    private mutating func release(asNextEpoch: Bool, emit: (EngineEvent) -> Void) {
        if asNextEpoch { close(emit: emit) }
        var sentences: [(any EpochInput, SentenceKind, Talker?)] = []
        swap(&sentences, &held)
        releasing = true
        for (sentence, kind, talker) in sentences { consume(sentence, kind: kind, talker: talker, emit: emit) }
        releasing = false
        sentences.removeAll(keepingCapacity: true)
        swap(&sentences, &held)
    }

    // MARK: - Epoch boundaries

    /// Talker (16 bits), kind (8) and, for the sets sent once per signal, the signal (4).
    private static func key(_ f: Facts, talker: Talker?) -> UInt32 {
        let extra = UInt32(truncatingIfNeeded: f.signalID & 0xF)
        let t = talker.map { UInt32($0.first) << 8 | UInt32($0.second) } ?? 0
        return t << 16 | UInt32(truncatingIfNeeded: f.kind.rawValue & 0xFF) << 4 | extra
    }

    private mutating func startsNewEpoch(_ f: Facts, key: UInt32) -> Bool {
        guard !epoch.isEmpty else { return false }
        if let t = f.time, let current = epoch.time, t != current { return true }
        // The same sentence twice in one cycle: a new cycle whose time did not change (a
        // receiver without a clock yet, or one that sends no time at all).
        return !f.severalPerCycle && epoch.occurrences(key) > 0
    }

    private mutating func close(emit: (EngineEvent) -> Void) {
        guard !epoch.isEmpty else { return }
        report(firedBy: nil, emit: emit)
        previous = nil
        if hasDelivered, delivered.mode == .threeD, let t = delivered.timestamp, let a = delivered.altitude {
            previous = (t, a)
        }
        statistics.epochs += 1
        statistics.incompleteSkySets += epoch.incompleteSkySets
        if let t = epoch.time, let date = resolvedDate() {
            lastDate = date
            lastTime = t
        }
        if let solution = epoch.altitudeSolution, let a = epoch.altitude {
            lastAltitude = (solution, a, epoch.geoidSeparation)
        }
        // A cycle that says nothing of the fix (a ZDA sent twice, the instruments alone) does
        // not lose it: gpsd's old fix, its merged fix, stands through such a cycle.
        if hasDelivered, epoch.speaksOfFix { errors.endEpoch(with: delivered, stated: epoch.garminErrors) }
        observedSatellites = (-1, -1)
        lastMarine = epoch.marine
        epoch.reset()
        hasDelivered = false
        skyDelivered = false
        firedBy = nil
    }

    /// Reports the fix (unless already reported unchanged) and the sky (if it has news).
    private mutating func report(firedBy signature: Signature?, emit: (EngineEvent) -> Void) {
        guard mergedSinceReport || !hasDelivered else {
            if signature != nil { firedBy = signature }
            return
        }
        mergedSinceReport = false
        var fix = makeFix()
        if hasDelivered {
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
            hasDelivered = true
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
    /// more than the sentences' rounding could explain, when the epoch's
    /// position has not been reported yet.
    @inline(__always)
    private mutating func contradictsEpochPosition(_ f: borrowing Facts) -> Bool {
        guard !hasDelivered, let current = epoch.coordinate, let next = f.position else { return false }
        // A GGA neither splits an epoch nor is split from: its position gives way (`Epoch.offer`).
        guard !f.positionGivesWay, !epoch.coordinateFromGGA else { return false }
        let resolution = max(current.resolution ?? 0, next.resolution ?? 0) * metresPerDegree
        return current.distance(to: next) > resolution
    }

    // MARK: - Deciding

    private mutating func resolvedDate() -> CalendarDate? {
        guard let t = epoch.time else { return nil }
        if let d = epoch.date { return d }
        guard let d = lastDate, let last = lastTime else { return nil }
        // Time of day went back by more than half a day: midnight has passed. Past the last
        // day of the window (2179-12-31) there is no date the table accepts: none is given.
        guard t.milliseconds < last.milliseconds - 43_200_000 else { return d }
        let next = d.nextDay
        return Bounds.year.contains(next.year) ? next : nil
    }

    private mutating func makeFix() -> Fix {
        var fix = makeStatedFix()
        if epoch.hasSky || !epoch.lists.used.isEmpty {
            let shape = (listed: epoch.lists.sky.count, used: epoch.lists.used.count)
            if shape != observedSatellites {
                observedSatellites = shape
                errors.observe(listed: epoch.hasSky ? epoch.lists.sky : nil, usedNow: epoch.lists.used)
            }
        }
        errors.complete(&fix, faultErrors: epoch.faultErrors, statedMode: epoch.gsaMode ?? epoch.pubxMode ?? epoch.pgrmzMode)
        return fix
    }

    /// The fix as the epoch's sentences state it, nothing estimated.
    private mutating func makeStatedFix() -> Fix {
        var fix = Fix()
        instruments(into: &fix)
        if let t = epoch.time { fix.timestamp = FixTime(date: resolvedDate(), time: t) }
        fix.isPartialEpoch = epoch.isCut
        let claimsFix = epoch.validSignals > 0
        let (altitude, geoidSeparation) = altitudeOfPosition()
        // The receiver's own statement of dimension wins (GSA, else PUBX); without one, a
        // valid position with an altitude is 3D, as every receiver that omits GSA means it.
        if let gsa = epoch.gsaMode {
            fix.mode = gsa >= .twoD && (claimsFix || epoch.invalidSignals == 0) ? gsa : .noFix
        } else if let pubx = epoch.pubxMode {
            fix.mode = pubx
        } else if let garmin = epoch.pgrmzMode, claimsFix {
            // Garmin's own word on the dimension; its 2D altitude is one the user entered.
            fix.mode = garmin == .threeD && altitude == nil ? .twoD : garmin
        } else if claimsFix {
            fix.mode = altitude != nil ? .threeD : .twoD
        }
        fix.satellitesUsed = epoch.satellitesUsed
        fix.dop = epoch.dop
        if fix.dop.horizontal == nil { fix.dop.horizontal = epoch.ggaHDOP }
        fix.navigationalStatus = epoch.navigationalStatus
        fix.errorStatistics = epoch.errorStatistics
        guard fix.mode >= .twoD, epoch.coordinate != nil else {
            if fix.mode >= .twoD && epoch.coordinate == nil { fix.mode = .noFix }
            return fix
        }
        fix.coordinate = epoch.coordinate
        fix.quality = epoch.quality
        fix.altitude = altitude
        fix.geoidSeparation = geoidSeparation
        if let h = epoch.ellipsoidalAltitude {
            fix.ellipsoidalAltitude = h
            // Derived only when the two heights agree on a separation the Earth has: PUBX's and
            // a GGA's altitude from different solutions can differ by kilometres.
            if fix.geoidSeparation == nil, let a = altitude, Bounds.geoidSeparation.contains(h - a) {
                fix.geoidSeparation = h - a
            }
        } else if let a = altitude, let g = epoch.geoidSeparation, Bounds.altitude.contains(a + g) {
            // Derived values are held to the table as stated ones are: an MSL altitude at the
            // table's floor with a negative separation is no height the Earth has.
            fix.ellipsoidalAltitude = a + g
        }
        fix.speed = epoch.speed
        fix.course = epoch.course
        fix.magneticVariation = epoch.magneticVariation
        fix.magneticTrack = epoch.magneticTrack
        fix.climb = epoch.climb
        fix.latitudeError = epoch.latitudeError
        fix.longitudeError = epoch.longitudeError
        if let y = epoch.latitudeError, let x = epoch.longitudeError {
            let combined = (x * x + y * y).squareRoot()
            fix.horizontalAccuracy = Bounds.accuracy.contains(combined) ? combined : nil
        } else {
            fix.horizontalAccuracy = epoch.horizontalAccuracy
        }
        fix.verticalAccuracy = epoch.altitudeError ?? epoch.verticalAccuracy
        fix.sphericalError = epoch.sphericalError
        fix.datum = epoch.datum
        return fix
    }

    /// The altitude (and geoid separation) of the position to be reported: a GGA's goes only
    /// with its own solution's position (`Epoch.isSameSolution`), in this epoch or, restated by
    /// a relaying plotter, in the next.
    private mutating func altitudeOfPosition() -> (Double?, Double?) {
        guard let c = epoch.coordinate else { return (epoch.altitude, epoch.geoidSeparation) }
        if let solution = epoch.altitudeSolution, !Epoch.isSameSolution(solution, c) {
            guard let last = lastAltitude, Epoch.isSameSolution(last.solution, c) else { return (nil, nil) }
            return (last.altitude, last.geoidSeparation)
        }
        if epoch.altitude == nil, let last = lastAltitude, Epoch.isSameSolution(last.solution, c) {
            return (last.altitude, epoch.geoidSeparation ?? last.geoidSeparation)
        }
        return (epoch.altitude, epoch.geoidSeparation)
    }

    /// Vertical speed from the previous 3D fix, when it is recent enough to mean anything.
    private mutating func climb(to fix: Fix) -> Double? {
        guard fix.mode == .threeD, let a = fix.altitude, let t = fix.timestamp,
              let (pt, pa) = previous
        else { return nil }
        var dt = t.time.milliseconds - pt.time.milliseconds
        if let m = t.millisecondsSinceEpoch, let pm = pt.millisecondsSinceEpoch { dt = m - pm }
        guard dt > 0, dt <= 5_000 else { return nil }
        // Two altitudes a tenth of a second apart can differ by anything a receiver (or a
        // hand-made feed) states: a climb no vehicle makes is unknown, as a stated one would be.
        let climb = (a - pa) / (Double(dt) / 1000)
        return Bounds.verticalSpeed.contains(climb) ? climb : nil
    }

    private mutating func makeSky(timestamp: FixTime?) -> SkyView {
        var satellites = epoch.lists.sky
        for i in satellites.indices where epoch.lists.used.contains(satellites[i].id) {
            satellites[i].used = true
        }
        var dop = epoch.dop
        if dop.horizontal == nil { dop.horizontal = epoch.ggaHDOP }
        epoch.applyResiduals(to: &satellites)
        return SkyView(timestamp: timestamp, satellites: satellites, dop: errors.completed(dop))
    }

    // MARK: - Instruments beside the receiver

    /// A sentence of an instrument on the receiver's wire (a heading sensor, a depth sounder, a
    /// wind instrument: `Facts.outsideCycle`). It comes at the instrument's own rate, not in the
    /// receiver's cycle (a compass at 10 Hz beside a 1 Hz receiver), so it never starts or ends
    /// an epoch and is never learned as an ender: its measurement joins the epoch in progress,
    /// the latest of each kind, and goes out with the epoch's fix. One that comes after that fix
    /// is out goes out in a corrected fix: an attitude that adds a member the fix lacked at once
    /// (a heading sensor that speaks after the receiver's burst), as gpsd sends an ATT when an
    /// HDT arrives; a new depth, water temperature or wind when the receiver speaks again (or
    /// the stream ends), so that a sounder's, a thermometer's and a wind instrument's sentences
    /// in a row make one correction, not one each. A newer compass reading of a heading already
    /// out is kept (in `delivered` too, so that it alone never makes a correction that would
    /// unlearn the ender) and goes out only with a correction something else makes: not a fix
    /// again for every reading of a 10 Hz compass.
    private mutating func consumeInstrument<S: EpochInput>(_ sentence: S, facts: Facts, talker: Talker?,
                                                           emit: (EngineEvent) -> Void) {
        let key = Self.key(facts, talker: talker)
        heardInstruments = true
        if epoch.isEmpty {
            // Nothing from a receiver yet, or no receiver on the wire: an instrument's sentence
            // repeated ends what the instruments said, in a fix of their own.
            if epoch.occurrences(key) > 0 { reportInstrumentsAlone(emit: emit) }
            _ = epoch.count(key)
        }
        sentence.merge(into: &epoch, talker: talker, key: key, statistics: &statistics)
        guard hasDelivered else { return }
        var fix = delivered
        instruments(into: &fix)
        let attitude = fix.attitude?.adds(to: delivered.attitude) == true
        let marine = fix.marine != delivered.marine
        delivered = fix
        if attitude {
            instrumentNews = false
            emit(.fix(fix))
        } else if marine {
            instrumentNews = true
        }
    }

    /// The corrected fix an instrument's reading made (`consumeInstrument`), before the next of
    /// the receiver's sentences is taken.
    private mutating func sendInstrumentNews(emit: (EngineEvent) -> Void) {
        instrumentNews = false
        if hasDelivered { emit(.fix(delivered)) }
    }

    /// What the instruments beside the receiver said this epoch, boxed only where one did. A
    /// depth, water temperature or wind this epoch has not stated (yet) is the last epoch's:
    /// a sounder or a wind instrument speaks once a cycle, often after the receiver's fix is
    /// out, and its reading stands until its next, for one epoch at most, rather than blink
    /// off in every fix that goes out before it. A heading is this epoch's only: an ATT is a
    /// heading sensor's sentence, as gpsd sends it.
    private mutating func instruments(into fix: inout Fix) {
        // Most streams have no instrument: nothing to look at, every epoch.
        guard heardInstruments else { return }
        if !epoch.attitude.isEmpty { fix.attitude = epoch.attitude }
        let marine = epoch.marine.filled(from: lastMarine)
        if !marine.isEmpty { fix.marine = marine }
    }

    /// Reports what the instruments said while no receiver did, in a fix of its own (no
    /// position, no time), and starts afresh.
    private mutating func reportInstrumentsAlone(emit: (EngineEvent) -> Void) {
        var fix = Fix()
        instruments(into: &fix)
        epoch.reset()
        guard fix.attitude != nil || fix.marine != nil else { return }
        emit(.fix(fix))
        statistics.fixes += 1
    }
}

/// Counts kept by the assembler, for `gpsfix` statistics and tests.
public struct EpochStatistics: Hashable, Codable, Sendable {
    /// Reporting cycles closed, each with at least one sentence.
    public var epochs = 0
    /// Fixes reported, one per epoch or one per part where an epoch was split, and those of
    /// instruments alone on the wire; a corrected fix for an epoch already reported (an
    /// instrument's reading after it included) is not counted again.
    public var fixes = 0
    /// Epochs reported at their learned ender rather than when the next began.
    public var earlyReports = 0
    /// Learned cycle enders dropped because data of their epoch still came after them: a
    /// receiver whose cycle changed shape, or one glitch it was learned from.
    public var forgottenEnders = 0
    /// Epochs in which two sentences stated positions too far apart to be the same fix.
    public var contradictions = 0
    /// GSV sets still missing a part when their epoch closed (a lost sentence, or a receiver
    /// that numbers its parts oddly).
    public var incompleteSkySets = 0
    /// GSV parts received twice within one epoch, the repeat ignored.
    public var repeatedSkyParts = 0
    /// Sentences marked simulated (GGA quality 8, mode S), taken as no fix.
    public var simulated = 0
    /// Satellites in view beyond `Bounds.satellites` in one cycle, left out of its sky view.
    public var satellitesLeftOut = 0

    /// All counts zero: a stream not yet read, or a source with no epochs of its own.
    public init() {}
}
