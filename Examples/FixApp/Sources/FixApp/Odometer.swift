public import GPSLocation
public import NMEA
import Foundation

/// An app's own logic on top of a `LocationService`: the distance a trip covers, the way a
/// fitness or fleet app sums it. Its tests give it a script instead of a receiver.
public struct Odometer: Sendable, Equatable {
    /// Metres along the positions taken, in the order they came.
    public private(set) var meters: Double = 0
    /// Positions taken.
    public private(set) var positions = 0
    private var last: Coordinate?

    public init() {}

    /// Adds the leg from the last position to `fix`'s (a fix without a position adds nothing).
    public mutating func take(_ fix: Fix) {
        guard let here = fix.coordinate else { return }
        if let last { meters += Self.distance(last, here) }
        last = here
        positions += 1
    }

    /// Reads `service`'s positions until its source ends; a failure is thrown.
    public static func trip(_ service: LocationService) async throws(LocationError) -> Odometer {
        var odometer = Odometer()
        for try await fix in service.positions(bufferLimit: .max) {
            odometer.take(fix)
        }
        return odometer
    }

    /// Great-circle distance on a sphere of the Earth's mean radius (haversine): within
    /// 0.5 % of the ellipsoid's, plenty for a trip meter.
    static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let radius = 6_371_008.8
        let rad = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * rad
        let dLon = (b.longitude - a.longitude) * rad
        let h = sin2(dLat / 2) + cos(a.latitude * rad) * cos(b.latitude * rad) * sin2(dLon / 2)
        return 2 * radius * asin(min(1, h.squareRoot()))
    }

    private static func sin2(_ x: Double) -> Double { let s = sin(x); return s * s }
}
