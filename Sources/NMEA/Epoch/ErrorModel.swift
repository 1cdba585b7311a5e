/// What gpsd computes where a receiver states nothing (its `gpsd_error_model` and `fill_dop`),
/// so that a fix from gpsfix carries the same figures gpsd's clients rely on: every DOP from
/// the used satellites' geometry, error estimates from the DOPs, speed and climb errors from
/// successive fixes, and the magnetic variation from the world magnetic model.
///
/// A receiver's stated DOPs and magnetic variation win over the computed ones, as in gpsd.
/// The error estimates (``ErrorEstimates``) are gpsd's, from the DOPs alone, as gpsd's TPV
/// has them; the accuracies an app reads (`Fix.horizontalAccuracy`, `verticalAccuracy`) are
/// the receiver's own where it gave them (GST, GBS, PUBX, PGRME), else these.
struct ErrorModel: Sendable {
    /// Range errors, metres: per horizontal axis, vertical, overall (gpsd's H, V, P UERE).
    static let rangeError = (horizontal: 15.0, vertical: 23.0, overall: 19.0)
    /// With differential corrections: a quarter of the above.
    static let differentialRangeError = (horizontal: 3.75, vertical: 5.75, overall: 4.75)
    /// Seconds: half the resolution of a receiver's clock, gpsd's constant for `ept`.
    static let timeError = 0.005
    /// A variation this small is a receiver writing "0.0,E" for none: gpsd replaces it.
    static let noVariation = 0.09

    /// The satellites last listed (GSV), their elevations and azimuths: a receiver may list
    /// them only every few seconds, and a DOP needs them every epoch (gpsd keeps its sky too).
    private var sky: [Sight] = []
    /// The satellites the receiver last said it used (GSA), as it listed them, and sorted.
    private var usedAsGiven: [SatelliteID] = []
    private var used: [SatelliteID] = []
    /// The geometry's DOPs, recomputed when the sky or the used set changes.
    private var geometry = DilutionOfPrecision()
    /// The sky or the used set changed since `geometry` was worked out.
    private var stale = false
    /// The DOPs the receiver last stated, each kept until it states that one again: a
    /// receiver that sends its GSA in one second's burst and its RMC in the next (a B&G Zeus)
    /// still has them, as gpsd keeps them.
    private var stated = DilutionOfPrecision()
    /// The dimension the receiver last stated (GSA, PUBX, PGRMZ), kept as gpsd keeps it.
    private var lastStatedMode: FixMode?
    /// The last epoch's fix, as far as the rates need it (gpsd's "last fix"), and the last
    /// one before it with another time (its "old fix"): a fix with the time of the last
    /// epoch's (a cycle a B&G Zeus sends twice) takes its rates against the old one, as in gpsd.
    private var last: Remembered?
    private var old: Remembered?

    /// A fix remembered for the rates: its time, and its position and errors if it had a fix
    /// (none: the receiver had lost it, and no rate is worked out against it).
    private struct Remembered: Sendable {
        var time: FixTime
        var fix: Previous?
    }

    private struct Sight: Equatable, Sendable {
        var id: SatelliteID
        var elevation: Double?
        var azimuth: Double?
    }

    /// What the rates read of a remembered fix, and no more: it is copied every epoch.
    private struct Previous: Sendable {
        var latitude: Double
        var longitude: Double
        /// gpsd's EMAX of its epx and epy, when it had both (gpsd's condition for `eps`).
        var horizontal: Double?
        var vertical: Double?
    }

    init() {
        sky.reserveCapacity(64)
        used.reserveCapacity(64)
        usedAsGiven.reserveCapacity(64)
    }

    /// Takes an epoch's satellites: its GSV listing (`listed`, when it had one) and its GSA
    /// used set (`usedNow`, when it had one), and works out the geometry again if either
    /// changed. A receiver restates the same sky and the same set most epochs (elevations and
    /// azimuths in whole degrees move every few minutes), and the sums and the inverse are the
    /// cost: comparing first makes an unchanged epoch cost a pass over its satellites.
    mutating func observe(listed: [Satellite]?, usedNow: [SatelliteID]) {
        var changed = false
        if let listed {
            // One pass that stops at the first difference; most epochs find none.
            var same = sky.count == listed.count
            if same {
                for i in listed.indices {
                    let s = listed[i], k = sky[i]
                    if k.id != s.id || k.elevation != s.elevation || k.azimuth != s.azimuth {
                        same = false
                        break
                    }
                }
            }
            if !same {
                sky.removeAll(keepingCapacity: true)
                for s in listed { sky.append(Sight(id: s.id, elevation: s.elevation, azimuth: s.azimuth)) }
                changed = true
            }
        }
        if !usedNow.isEmpty, usedNow != usedAsGiven {
            usedAsGiven.removeAll(keepingCapacity: true)
            usedAsGiven.append(contentsOf: usedNow)
            used.removeAll(keepingCapacity: true)
            used.append(contentsOf: usedNow)
            // Sorted, as the sky is (by satellite), so that one walk through both finds the used.
            used.sort()
            changed = true
        }
        // gpsd works the geometry out when a sky listing completes, not when a GSA alone names
        // other satellites: a cycle with no GSV keeps the last listing's DOPs.
        stale = stale || changed
        guard stale, listed != nil else { return }
        stale = false
        var g = SatelliteGeometry()
        var u = 0
        for s in sky where s.id.svid >= 1 {
            while u < used.count && used[u] < s.id { u += 1 }
            if u < used.count && used[u] == s.id { g.add(elevation: s.elevation, azimuth: s.azimuth) }
        }
        geometry = g.dilution ?? DilutionOfPrecision()
    }

    /// Fills in what the receiver left out of `fix`: DOPs, gpsd's error estimates, the
    /// accuracies it gave none of, and the magnetic variation.
    mutating func complete(_ fix: inout Fix, faultErrors: ErrorEstimates? = nil, statedMode: FixMode? = nil) {
        if let statedMode { lastStatedMode = statedMode }
        stated = fix.dop.filled(from: stated)
        fix.dop = stated.filled(from: geometry)
        if let t = fix.timestamp, t.date != nil { fix.estimatedErrors.time = Self.timeError }
        guard fix.mode >= .twoD, let here = fix.coordinate else { return }
        let uere = fix.quality == .dgps ? Self.differentialRangeError : Self.rangeError
        let dop = fix.dop
        func estimate(_ d: Double?, _ e: Double) -> Double? {
            guard let d else { return nil }
            let v = d * e
            return Bounds.accuracy.contains(v) ? v : nil
        }
        var e = fix.estimatedErrors
        if dop.horizontal != nil {
            e.longitude = estimate(dop.longitude, uere.horizontal)
            e.latitude = estimate(dop.latitude, uere.horizontal)
        }
        // gpsd counts a fix with an altitude as 3D (where gpsfix keeps the receiver's 2D), and
        // keeps the dimension a receiver last stated through a cycle that states none (an
        // eTrex's RMC alone every other second): its vertical error is estimated wherever it
        // would call the fix 3D.
        if fix.mode == .threeD || fix.altitude != nil || (statedMode == nil && lastStatedMode == .threeD) {
            e.vertical = estimate(dop.vertical, uere.vertical)
        }
        // The rates take this fix's errors from the DOPs where there are any: gpsd works them
        // out as the cycle's first sentence arrives, before its GBS (which ends a u-blox
        // cycle) has spoken; a receiver that gives no DOPs has only its GBS's.
        var now = e
        if let gbs = faultErrors {
            now.latitude = now.latitude ?? gbs.latitude
            now.longitude = now.longitude ?? gbs.longitude
            now.vertical = now.vertical ?? gbs.vertical
            // A GBS's errors stand in gpsd's TPV where it gave them.
            e.latitude = gbs.latitude ?? e.latitude
            e.longitude = gbs.longitude ?? e.longitude
            e.vertical = gbs.vertical ?? e.vertical
        }
        rates(&e, now: now, at: here, time: fix.timestamp)
        e.horizontal = estimate(dop.horizontal, uere.overall)
        e.spherical = estimate(dop.position, uere.overall)
        fix.estimatedErrors = e
        if fix.horizontalAccuracy == nil { fix.horizontalAccuracy = e.horizontal }
        if fix.verticalAccuracy == nil { fix.verticalAccuracy = e.vertical }
        completeMagnetic(&fix, at: here)
    }

    /// eps, epd and epc into `e`, from this fix's errors `now` and the last epoch's fix, as
    /// gpsd derives them.
    private mutating func rates(_ e: inout ErrorEstimates, now: ErrorEstimates, at here: Coordinate, time: FixTime?) {
        guard let t = time else { return }
        if let l = last, let moved = Self.seconds(from: l.time, to: t), abs(moved) > 0.0099 { old = l }
        guard let o = old, let p = o.fix, let dt = Self.seconds(from: o.time, to: t), dt > 0 else { return }
        if let before = p.horizontal, let after = Self.larger(now.longitude, now.latitude) {
            let v = (before + after) / dt
            e.speed = Bounds.accuracy.contains(v) ? v : nil
        }
        if let opposite = Self.larger(now.longitude, now.latitude) {
            let adjacent = Coordinate(latitude: p.latitude, longitude: p.longitude).distance(to: here)
            if adjacent.isFinite, adjacent > opposite {
                e.course = 2 * DegreeTrigonometry.atan2Degrees(opposite, adjacent)
            }
        }
        if let after = now.vertical, let before = p.vertical {
            let v = (before + after) / dt
            e.climb = Bounds.accuracy.contains(v) ? v : nil
        }
    }

    /// gpsd's EMAX, NaN and all: the larger of two errors, the second when the first is unknown.
    @inline(__always)
    private static func larger(_ a: Double?, _ b: Double?) -> Double? {
        let x = a ?? .nan, y = b ?? .nan
        let m = x > y ? x : y
        return m.isNaN ? nil : m
    }

    /// The model's variation where the receiver gave none (or 0, as some write for none).
    private func completeMagnetic(_ fix: inout Fix, at here: Coordinate) {
        if fix.magneticVariation.map({ abs($0) <= Self.noVariation }) ?? true,
           let v = MagneticModel.declination(latitude: here.latitude, longitude: here.longitude) {
            fix.magneticVariation = v
        }
    }

    /// `dop`, each one unknown taken from the receiver's last statement, else the geometry.
    func completed(_ dop: DilutionOfPrecision) -> DilutionOfPrecision {
        dop.filled(from: stated).filled(from: geometry)
    }

    /// Remembers an epoch's last fix for the next one's rates, as gpsd's "old fix": one
    /// without a time leaves the last one standing, one without a position ends it. A
    /// receiver's PGRME (`stated`) stands in for the estimates, as it does in gpsd's fix by the
    /// cycle's end.
    mutating func endEpoch(with fix: Fix, stated: ErrorEstimates? = nil) {
        guard let t = fix.timestamp else { return }
        guard fix.mode >= .twoD, let c = fix.coordinate else {
            last = Remembered(time: t, fix: nil)
            return
        }
        var latitude = fix.estimatedErrors.latitude, longitude = fix.estimatedErrors.longitude
        var vertical = fix.estimatedErrors.vertical
        if let stated {
            latitude = stated.latitude ?? latitude
            longitude = stated.longitude ?? longitude
            vertical = stated.vertical ?? vertical
        }
        let horizontal = latitude != nil && longitude != nil ? Self.larger(longitude, latitude) : nil
        last = Remembered(time: t, fix: Previous(latitude: c.latitude, longitude: c.longitude,
                                                 horizontal: horizontal, vertical: vertical))
    }

    /// Seconds from `a` to `b`: by their dates when both have one, else by time of day.
    static func seconds(from a: FixTime, to b: FixTime) -> Double? {
        if let x = a.millisecondsSinceEpoch, let y = b.millisecondsSinceEpoch { return Double(y &- x) / 1000 }
        return Double(b.time.milliseconds &- a.time.milliseconds) / 1000
    }
}
