/// The magnetic variation (declination) anywhere on Earth, as gpsd computes it for a fix whose
/// receiver sent none: the World Magnetic Model 2015 at 1 January 2020, on gpsd's 5° grid.
///
/// A compass points to magnetic north, which lies east or west of true north by the
/// declination. gpsd fills its TPV `magvar` from a table of the declination every 5° of
/// latitude and longitude (37 rows from −90° to 90°, 73 columns from −180° to 180°), made from
/// WMM2015 pinned at 2020.0 and rounded to 0.01°, and interpolates between the four nodes
/// around a position, bilinearly. gpsfix keeps the same grid, generated from the model's own
/// coefficients (``name``) and checked against them by its tests: every node equals gpsd's. A
/// position between nodes costs a few multiplications.
///
/// Why not the current model (WMM2025)? To report what gpsd reports: a client comparing the
/// two, or switching between them, sees the same number. The price is age: the declination
/// drifts, by 0.1° a year and more in places (faster near the magnetic poles). Sampled within
/// 60° of the equator at the end of 2026, the grid is 0.5° from WMM2025 at the median and
/// within 1.6° at 95 % of places (5.7° at most); of that, the 5° grid's interpolation is
/// within 0.2° of the model it was made from at 95 % of places (1.8° at most). It is a
/// compass's correction, not a survey's.
///
/// One difference from gpsd: in the ten cells near the poles whose corners lie on both sides
/// of ±180° (the declination turns right round there), gpsd interpolates the numbers straight
/// and can be off by up to 180°; gpsfix interpolates the directions (as unit vectors), which
/// is within a few degrees of the model in most of them. Everywhere else the arithmetic is
/// gpsd's.
public enum MagneticModel {
    /// The model, the date it is evaluated at and the grid: "WMM2015 at 2020.0, 5° grid, as gpsd".
    ///
    /// WMM2015 is NOAA's release of December 2014 (not the WMM2015v2 of 2018), evaluated at
    /// height 0 above the WGS 84 ellipsoid, as gpsd's table was made with GeographicLib's
    /// `MagneticField`.
    public static let name = "WMM2015 at 2020.0, 5° grid, as gpsd"

    /// The decimal year the model is evaluated at for the grid.
    static let year = 2020.0
    /// Degrees between the grid's rows and columns.
    static let spacing = 5.0
    static let rows = 37, columns = 73

    /// The declination at each node, in hundredths of a degree as gpsd's table has it (a
    /// whole number, the model rounded), row by row from −90° latitude, each row from −180°
    /// longitude: `nodes` (`MagneticModel+Grid.swift`, generated from the coefficients by
    /// `Tools/wmm/wmm.py swift-grid`; `MagneticModelTests` holds each node to the model) as numbers. A `static let` is initialised once,
    /// whichever thread asks first, and read without a lock after.
    static let grid: [Double] = nodes.map(Double.init)

    /// The magnetic variation at a position: degrees from true north to magnetic north, east
    /// positive (as RMC's variation with its E or W, and gpsd's `magvar`), −180 to 180.
    ///
    /// Interpolated from the grid as gpsd interpolates it. Nil for a latitude outside −90 to 90
    /// or a longitude outside −180 to 180, and for NaN or an infinity: never a trap.
    ///
    /// - Parameters:
    ///   - latitude: Degrees north, WGS 84.
    ///   - longitude: Degrees east, WGS 84.
    public static func declination(latitude: Double, longitude: Double) -> Double? {
        // Written so that NaN fails each comparison.
        guard latitude >= -90, latitude <= 90, longitude >= -180, longitude <= 180 else { return nil }
        // The cell whose south-west corner is at or below the position; at 90° or 180° the
        // last cell, with the position on its far edge.
        let y = (latitude + 90) / spacing, x = (longitude + 180) / spacing
        let row = min(Int(y), rows - 2), column = min(Int(x), columns - 2)
        let v = y - Double(row), u = x - Double(column)  // 0 to 1 across the cell
        let grid = Self.grid
        let southWest = row * columns + column, northWest = southWest + columns
        let z11 = grid[southWest], z12 = grid[southWest + 1], z21 = grid[northWest], z22 = grid[northWest + 1]

        let lowest = min(min(z11, z12), min(z21, z22)), highest = max(max(z11, z12), max(z21, z22))
        guard highest - lowest <= 18_000 else {
            return acrossTheTurn(z11, z12, z21, z22, u: u, v: v)
        }
        return (z11 * (1 - u) * (1 - v) + z12 * u * (1 - v) + z21 * (1 - u) * v + z22 * u * v) / 100
    }

    /// A cell whose corners straddle ±180°: their directions interpolated as unit vectors.
    static func acrossTheTurn(_ z11: Double, _ z12: Double, _ z21: Double, _ z22: Double, u: Double, v: Double) -> Double {
        let c11 = DegreeTrigonometry.sinCos(degrees: z11 / 100), c12 = DegreeTrigonometry.sinCos(degrees: z12 / 100)
        let c21 = DegreeTrigonometry.sinCos(degrees: z21 / 100), c22 = DegreeTrigonometry.sinCos(degrees: z22 / 100)
        let w11 = (1 - u) * (1 - v), w12 = u * (1 - v), w21 = (1 - u) * v, w22 = u * v
        let east = c11.sin * w11 + c12.sin * w12 + c21.sin * w21 + c22.sin * w22
        let north = c11.cos * w11 + c12.cos * w12 + c21.cos * w21 + c22.cos * w22
        return DegreeTrigonometry.atan2Degrees(east, north)
    }
}
