/// The dilutions of precision that the satellites used in a solution imply, from their
/// elevations and azimuths: what gpsd computes (its `fill_dop`) where the receiver states none.
///
/// Each used satellite gives a row of the line-of-sight matrix G, `[sin az·cos el,
/// cos az·cos el, sin el, 1]` (east, north, up, clock); the DOPs are square roots of the
/// diagonal of (GᵀG)⁻¹. A satellite without an elevation or azimuth, with an azimuth outside
/// 0…359 or an elevation beyond ±90°, is left out as gpsd leaves it out; with fewer than four
/// left, or a geometry that does not fix a position (all in one plane), there are none.
struct SatelliteGeometry: Sendable {
    /// GᵀG, summed row by row: its upper triangle, 10 numbers (the matrix is symmetric).
    private var normal = InlineArray<10, Double>(repeating: 0)
    private var rows = 0

    /// Adds a used satellite; ignores one gpsd would not use.
    @inline(__always)
    mutating func add(elevation: Double?, azimuth: Double?) {
        guard let el = elevation, let az = azimuth, az >= 0, az <= 359, el >= -90, el <= 90 else { return }
        let (sinAz, cosAz) = Self.sinCos(az)
        let (sinEl, cosEl) = Self.sinCos(el)
        let r = (sinAz * cosEl, cosAz * cosEl, sinEl, 1.0)
        normal[0] += r.0 * r.0
        normal[1] += r.0 * r.1
        normal[2] += r.0 * r.2
        normal[3] += r.0
        normal[4] += r.1 * r.1
        normal[5] += r.1 * r.2
        normal[6] += r.1
        normal[7] += r.2 * r.2
        normal[8] += r.2
        normal[9] += 1
        rows += 1
    }

    /// No satellites yet.
    init() {}

    /// sin and cos of each whole degree −90…359, made once: receivers state elevations and
    /// azimuths in whole degrees, and a DOP is worked out every epoch.
    private static let wholeDegrees: [(sin: Double, cos: Double)] = (-90..<360).map {
        DegreeTrigonometry.sinCos(degrees: Double($0))
    }

    @inline(__always)
    private static func sinCos(_ degrees: Double) -> (sin: Double, cos: Double) {
        if degrees == degrees.rounded(.towardZero), degrees >= -90, degrees < 360 {
            return wholeDegrees[Int(degrees) + 90]
        }
        return DegreeTrigonometry.sinCos(degrees: degrees)
    }

    /// The used satellites of a sky view.
    init(_ satellites: [Satellite]) {
        for s in satellites where s.used && s.id.svid >= 1 { add(elevation: s.elevation, azimuth: s.azimuth) }
    }

    /// Every DOP of the geometry, each held to ``Bounds/dop`` (a near-degenerate geometry gives
    /// a DOP of thousands: unknown, as a receiver's out-of-range one is); nil with fewer than
    /// four satellites or a singular matrix.
    var dilution: DilutionOfPrecision? {
        guard rows >= 4, let inverse = diagonalOfInverse() else { return nil }
        func dop(_ squared: Double) -> Double? {
            guard squared > 0, squared.isFinite else { return nil }
            let d = squared.squareRoot()
            return Bounds.dop.contains(d) ? d : nil
        }
        let (x, y, z, t) = inverse
        return DilutionOfPrecision(
            position: dop(x + y + z), horizontal: dop(x + y), vertical: dop(z), time: dop(t),
            latitude: dop(y), longitude: dop(x), geometric: dop(x + y + z + t))
    }

    /// The diagonal of (GᵀG)⁻¹ by Gauss–Jordan elimination with partial pivoting; nil when a
    /// pivot vanishes (relative to the matrix's size), as for satellites all in one plane.
    private func diagonalOfInverse() -> (Double, Double, Double, Double)? {
        let n = normal
        // The matrix beside the identity, row by row: 4 × 8, on the stack.
        var a = InlineArray<32, Double>(repeating: 0)
        var i = 0
        for r in 0..<4 {
            for c in r..<4 {
                a[r * 8 + c] = n[i]
                a[c * 8 + r] = n[i]
                i += 1
            }
        }
        for r in 0..<4 { a[r * 8 + 4 + r] = 1 }
        let scale = max(n[0], n[4], n[7], n[9])
        for col in 0..<4 {
            var pivot = col
            for r in (col + 1)..<4 where abs(a[r * 8 + col]) > abs(a[pivot * 8 + col]) { pivot = r }
            guard abs(a[pivot * 8 + col]) > scale * 1e-12 else { return nil }
            if pivot != col {
                for c in 0..<8 { a.swapAt(pivot * 8 + c, col * 8 + c) }
            }
            let p = a[col * 8 + col]
            for c in 0..<8 { a[col * 8 + c] /= p }
            for r in 0..<4 where r != col {
                let f = a[r * 8 + col]
                if f != 0 { for c in 0..<8 { a[r * 8 + c] -= f * a[col * 8 + c] } }
            }
        }
        return (a[4], a[13], a[22], a[31])
    }
}
