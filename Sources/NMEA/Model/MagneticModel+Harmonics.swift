/// A spherical-harmonic model of the Earth's main magnetic field, as NOAA's World Magnetic
/// Model is published: Gauss coefficients g and h in nT at an epoch, each with its yearly change.
///
/// What ``MagneticModel`` builds its grid from, once. Evaluated as the WMM report (NOAA
/// NESDIS/NCEI) describes: Schmidt semi-normalised associated Legendre functions by recursion,
/// the geodetic point turned geocentric on WGS 84, the field turned back to the geodetic
/// north-east-down frame. The east component uses P(n, m)/sin θ, kept by the same recursion, so
/// the poles need no case of their own: there, as in GeographicLib, "north" is along the given
/// meridian. Pure arithmetic: the trigonometry is ``DegreeTrigonometry``'s, not the C library's.
package struct WorldMagneticModel: Sendable {
    /// One line of a .COF file: degree n, order m, g and h in nT at the epoch, and their
    /// yearly change in nT a year.
    package struct Coefficient: Sendable {
        package var n: Int, m: Int, g: Double, h: Double, gDot: Double, hDot: Double

        /// A .COF line's six numbers, in its order.
        package init(_ n: Int, _ m: Int, _ g: Double, _ h: Double, _ gDot: Double, _ hDot: Double) {
            (self.n, self.m, self.g, self.h, self.gDot, self.hDot) = (n, m, g, h, gDot, hDot)
        }
    }

    /// The highest degree (and order) of the WMM.
    package static let degree = 12
    /// Entries of a triangle of (n, m) for n up to ``degree``, (0, 0) included.
    static let count = (degree + 1) * (degree + 2) / 2

    /// The model's name, "WMM2015".
    package let name: String
    /// The decimal year the coefficients are given for (2015.0).
    package let epoch: Double
    /// Indexed by ``index(_:_:)``; (0, 0) and anything the file did not give are 0.
    let g: [Double], h: [Double], gDot: [Double], hDot: [Double]

    /// A model from a .COF file's lines. Lines beyond ``degree`` are ignored.
    package init(name: String, epoch: Double, coefficients: [Coefficient]) {
        self.name = name
        self.epoch = epoch
        var g = [Double](repeating: 0, count: Self.count), h = g, gDot = g, hDot = g
        for c in coefficients where c.n >= 1 && c.n <= Self.degree && c.m >= 0 && c.m <= c.n {
            let i = Self.index(c.n, c.m)
            (g[i], h[i], gDot[i], hDot[i]) = (c.g, c.h, c.gDot, c.hDot)
        }
        (self.g, self.h, self.gDot, self.hDot) = (g, h, gDot, hDot)
    }

    /// Where (n, m) is kept: n(n+1)/2 + m.
    static func index(_ n: Int, _ m: Int) -> Int { n * (n + 1) / 2 + m }

    /// WGS 84's semi-major axis (m) and first eccentricity squared.
    static let semiMajorAxis = 6_378_137.0
    static let eccentricitySquared: Double = {
        let f = 1 / 298.257223563
        return f * (2 - f)
    }()
    /// The model's reference radius (m), the geomagnetic reference sphere's.
    static let referenceRadius = 6_371_200.0

    /// The declination in degrees, east positive (the angle from true north to the field's
    /// horizontal component, clockwise), at a geodetic latitude and longitude in degrees, a
    /// height above the WGS 84 ellipsoid in metres and a decimal year (2017.5 is 1 July 2017).
    ///
    /// Nil for a latitude beyond ±90°, a longitude beyond ±360°, a height outside −10 km to
    /// 1000 km, or anything not finite. A year far from ``epoch`` is extrapolated, as the model
    /// is; the WMM is meant for five years from it.
    package func declination(latitude: Double, longitude: Double, height: Double = 0, year: Double) -> Double? {
        guard let f = field(latitude: latitude, longitude: longitude, height: height, year: year) else { return nil }
        return DegreeTrigonometry.atan2Degrees(f.east, f.north)
    }

    /// The field's north, east and down components in nT, in the geodetic frame; nil as for
    /// ``declination(latitude:longitude:height:year:)``.
    package func field(latitude: Double, longitude: Double, height: Double = 0, year: Double)
        -> (north: Double, east: Double, down: Double)?
    {
        guard latitude >= -90, latitude <= 90, longitude >= -360, longitude <= 360,
              height >= -10_000, height <= 1_000_000, year.isFinite
        else { return nil }
        return evaluate(latitude: latitude, longitude: longitude, height: height, year: year)
    }

    /// The field at a point already checked.
    func evaluate(latitude: Double, longitude: Double, height: Double, year: Double)
        -> (north: Double, east: Double, down: Double)
    {
        let dt = year - epoch
        let (sinPhi, cosPhi) = DegreeTrigonometry.sinCos(degrees: latitude)
        let (sinLambda, cosLambda) = DegreeTrigonometry.sinCos(degrees: longitude)

        // Geodetic to geocentric: the radius, and the sine and cosine of the colatitude θ.
        let nu = Self.semiMajorAxis / (1 - Self.eccentricitySquared * sinPhi * sinPhi).squareRoot()
        let p = (nu + height) * cosPhi
        let z = (nu * (1 - Self.eccentricitySquared) + height) * sinPhi
        let r = (p * p + z * z).squareRoot()
        let sinTheta = p / r, cosTheta = z / r

        // cos mλ and sin mλ by the angle-sum recurrence.
        var cosM = InlineArray<13, Double>(repeating: 0), sinM = InlineArray<13, Double>(repeating: 0)
        cosM[0] = 1
        for m in 1...Self.degree {
            cosM[m] = cosM[m - 1] * cosLambda - sinM[m - 1] * sinLambda
            sinM[m] = sinM[m - 1] * cosLambda + cosM[m - 1] * sinLambda
        }

        // P(n, m), its derivative in θ, and P(n, m)/sin θ (m ≥ 1), Schmidt semi-normalised.
        var P = InlineArray<91, Double>(repeating: 0), dP = P, Q = P
        P[0] = 1
        var north = 0.0, east = 0.0, down = 0.0
        let ratio = Self.referenceRadius / r
        var power = ratio * ratio
        for n in 1...Self.degree {
            let nn = Double(n)
            let k = n == 1 ? 1 : ((2 * nn - 1) / (2 * nn)).squareRoot()
            let diagonal = Self.index(n, n), previousDiagonal = Self.index(n - 1, n - 1)
            P[diagonal] = k * sinTheta * P[previousDiagonal]
            dP[diagonal] = k * (cosTheta * P[previousDiagonal] + sinTheta * dP[previousDiagonal])
            Q[diagonal] = n == 1 ? 1 : k * sinTheta * Q[previousDiagonal]
            for m in 0..<n {
                let mm = Double(m)
                let a = (2 * nn - 1) / (nn * nn - mm * mm).squareRoot()
                let i = Self.index(n, m), one = Self.index(n - 1, m)
                P[i] = a * cosTheta * P[one]
                dP[i] = a * (cosTheta * dP[one] - sinTheta * P[one])
                Q[i] = a * cosTheta * Q[one]
                if n - 2 >= m {
                    let b = (((nn - 1) * (nn - 1) - mm * mm) / (nn * nn - mm * mm)).squareRoot()
                    let two = Self.index(n - 2, m)
                    P[i] -= b * P[two]
                    dP[i] -= b * dP[two]
                    Q[i] -= b * Q[two]
                }
            }

            // The degree's terms: X = Σ (a/r)^(n+2) (g cos mλ + h sin mλ) dP/dθ,
            // Y = Σ (a/r)^(n+2) m (g sin mλ − h cos mλ) P/sin θ, Z = −Σ (n+1) (a/r)^(n+2) (…) P.
            power *= ratio
            for m in 0...n {
                let i = Self.index(n, m)
                let gt = g[i] + dt * gDot[i], ht = h[i] + dt * hDot[i]
                let cosinePart = gt * cosM[m] + ht * sinM[m]
                north += power * cosinePart * dP[i]
                if m > 0 { east += power * Double(m) * (gt * sinM[m] - ht * cosM[m]) * Q[i] }
                down -= (nn + 1) * power * cosinePart * P[i]
            }
        }

        // Geocentric to geodetic: turned by ψ, the geocentric latitude less the geodetic.
        let sinPsi = cosTheta * cosPhi - sinTheta * sinPhi
        let cosPsi = sinTheta * cosPhi + cosTheta * sinPhi
        return (north * cosPsi - down * sinPsi, east, north * sinPsi + down * cosPsi)
    }
}

/// Sine, cosine and arctangent in degrees, in the standard library's arithmetic alone (the
/// engine imports nothing): reduced to ±45° and summed as series to the last bit or two, which
/// is a million times finer than the 0.01° the magnetic grid is rounded to.
package enum DegreeTrigonometry {
    /// The sine and cosine of `degrees`, exact at every multiple of 90° (cos 90° is +0, not
    /// 6e-17); NaN for a value not finite.
    package static func sinCos(degrees: Double) -> (sin: Double, cos: Double) {
        guard degrees.isFinite else { return (.nan, .nan) }
        var r = degrees.truncatingRemainder(dividingBy: 360)  // exact
        let quadrant = (r / 90).rounded()
        r -= 90 * quadrant  // exact: −45 to 45
        let t = r * (Double.pi / 180), t2 = t * t
        // sin t = t (1 − t²/(2·3) (1 − t²/(4·5) (…))), cos t = 1 − t²/(1·2) (1 − t²/(3·4) (…)),
        // to t^21 and t^20: the rest is below 1e-24 for |t| ≤ π/4.
        var s = 1.0, c = 1.0
        for k in stride(from: 10, through: 1, by: -1) {
            let twoK = Double(2 * k)
            s = 1 - t2 / (twoK * (twoK + 1)) * s
            c = 1 - t2 / ((twoK - 1) * twoK) * c
        }
        s *= t
        // `0 - x` rather than `-x`: a zero stays +0.
        switch Int(quadrant) & 3 {
        case 0: return (s, c)
        case 1: return (c, 0 - s)
        case 2: return (0 - s, 0 - c)
        default: return (0 - c, s)
        }
    }

    /// The angle of the point (x, y) from the x axis, in degrees from −180 to 180, as C's
    /// `atan2` in degrees; 0 for (0, 0), NaN if either is NaN.
    package static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        guard !x.isNaN, !y.isNaN else { return .nan }
        let ax = x.magnitude, ay = y.magnitude
        guard ax > 0 || ay > 0 else { return 0 }
        let steep = ay > ax
        var t: Double
        if ax.isInfinite && ay.isInfinite {
            t = 1
        } else {
            t = steep ? ax / ay : ay / ax  // 0 to 1
        }
        // atan t = 2 atan(t / (1 + √(1 + t²))), twice: t ≤ tan(π/16) ≈ 0.2, then the series
        // t − t³/3 + t⁵/5 − … to t^27 (the rest below 1e-20).
        t = t / (1 + (1 + t * t).squareRoot())
        t = t / (1 + (1 + t * t).squareRoot())
        let t2 = t * t
        // Horner's form, from t^27 in; each 1/(2k+1) a constant, rounded as the division at
        // run time would round it (every fix's course error takes one of these).
        var series = 1.0 / 27
        series = 1.0 / 25 - t2 * series
        series = 1.0 / 23 - t2 * series
        series = 1.0 / 21 - t2 * series
        series = 1.0 / 19 - t2 * series
        series = 1.0 / 17 - t2 * series
        series = 1.0 / 15 - t2 * series
        series = 1.0 / 13 - t2 * series
        series = 1.0 / 11 - t2 * series
        series = 1.0 / 9 - t2 * series
        series = 1.0 / 7 - t2 * series
        series = 1.0 / 5 - t2 * series
        series = 1.0 / 3 - t2 * series
        series = 1.0 - t2 * series
        var angle = 4 * t * series * (180 / Double.pi)  // 0 to 45
        if steep { angle = 90 - angle }
        if x < 0 { angle = 180 - angle }
        return y < 0 ? 0 - angle : angle
    }
}
