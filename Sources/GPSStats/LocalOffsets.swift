import func Glibc.cos
import func Glibc.sin

/// Metres north and east of a reference point, on the plane that touches the WGS 84
/// ellipsoid there: a degree of latitude is the meridian's radius of curvature M(φ) times
/// π/180, a degree of longitude the prime vertical's N(φ)·cos φ times π/180. Over the metres
/// a receiver's fixes wander, this agrees with gpsprof's Vincenty offsets (`MeterOffset`) to
/// well under a millimetre.
public struct LocalOffsets: Hashable, Sendable {
    /// WGS 84's semi-major axis, metres, and first eccentricity squared.
    static let a = 6_378_137.0
    static let e2 = 0.006_694_379_990_141_32

    /// Metres in a degree of latitude here.
    public let metresPerDegreeNorth: Double
    /// Metres in a degree of longitude here (0 at a pole).
    public let metresPerDegreeEast: Double

    /// At `latitude`, degrees (held to ±90).
    public init(latitude: Double) {
        let φ = max(-90, min(90, latitude)) * .pi / 180
        let s = sin(φ)
        let w = (1 - Self.e2 * s * s).squareRoot()
        let meridian = Self.a * (1 - Self.e2) / (w * w * w)
        let primeVertical = Self.a / w
        metresPerDegreeNorth = meridian * .pi / 180
        metresPerDegreeEast = primeVertical * cos(φ) * .pi / 180
    }

    /// Degrees of longitude from `reference` to `longitude` the short way round, in −180 ..< 180,
    /// so that fixes either side of the antimeridian stay metres apart, not the globe.
    public static func longitudeDifference(_ longitude: Double, from reference: Double) -> Double {
        var d = (longitude - reference).truncatingRemainder(dividingBy: 360)
        if d >= 180 { d -= 360 } else if d < -180 { d += 360 }
        return d
    }
}
