/// Trigonometry in degrees for the engine, which imports nothing (not even the C library's
/// `sin`): the satellite geometry behind the computed DOPs, and the track error estimate.
///
/// Satellites' elevations and azimuths come as whole degrees from nearly every receiver, so
/// those are read from a table of the 360 whole degrees; any other angle goes through the
/// series. Accurate to about 1e-9, far below what a DOP printed to two decimals can show.
enum Angles {
    /// sin and cos of each whole degree 0…359, made once (a `static let` is initialised once,
    /// thread-safely).
    private static let table: [(sin: Double, cos: Double)] = (0..<360).map { seriesSinCos(Double($0)) }

    /// sin and cos of `degrees`, any finite angle; (0, 1) for a non-finite one, which callers
    /// have already refused.
    @inline(__always)
    static func sinCos(_ degrees: Double) -> (sin: Double, cos: Double) {
        guard degrees.isFinite else { return (0, 1) }
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d < 0 { d += 360 }
        if d == d.rounded(.towardZero), d < 360 { return table[Int(d)] }
        return seriesSinCos(d)
    }

    /// sin and cos of 0 ≤ `degrees` < 360 by the series on a quarter turn.
    private static func seriesSinCos(_ degrees: Double) -> (sin: Double, cos: Double) {
        // Reduce to −45…45 about the nearest quarter turn, where both series converge fast.
        let quarter = (degrees / 90).rounded()
        let x = (degrees - quarter * 90) * (Double.pi / 180)
        let s = sine(x), c = cosine(x)
        switch Int(quarter) & 3 {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }

    /// sin(x) for |x| ≤ π/4: a Taylor series.
    private static func sine(_ x: Double) -> Double {
        let x2 = x * x
        var term = x, sum = x
        for n in stride(from: 3, through: 19, by: 2) {
            term *= -x2 / Double((n - 1) * n)
            sum += term
        }
        return sum
    }

    /// atan(x) in degrees for x ≥ 0, any size: the series on a reduced argument.
    static func arctangentDegrees(_ x: Double) -> Double {
        guard x.isFinite else { return x > 0 ? 90 : 0 }
        if x > 1 { return 90 - arctangentDegrees(1 / x) }
        // atan(x) = 2·atan(x / (1 + √(1 + x²))) twice brings x below 0.2.
        var y = x
        var scale = 1.0
        for _ in 0..<2 {
            y = y / (1 + (1 + y * y).squareRoot())
            scale *= 2
        }
        let y2 = y * y
        var term = y, sum = y
        for n in stride(from: 3, through: 31, by: 2) {
            term *= -y2
            sum += term / Double(n)
        }
        return scale * sum * (180 / Double.pi)
    }
}
