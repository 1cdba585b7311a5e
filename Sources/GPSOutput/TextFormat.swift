public import NMEA
import GPSLocation

/// One readable line per fix, for people at a terminal or reading a log.
///
///     2019-04-12T00:39:56.000Z  45.8775672 S 170.5001113 E  alt 14.2 m  0.01 m/s  course -  3D GPS  sats 12
public enum TextFormat {
    /// `fix` as one line ending in a newline: its UTC time (or `(no time)`), then with a 2D or
    /// 3D fix the position to 7 decimals (about a centimetre) with its hemispheres, the
    /// altitude above mean sea level in metres, the speed in m/s, the course in degrees, the
    /// mode and quality, and the satellites used; `-` for each value the receiver did not give.
    /// Without a fix, `no fix` and the satellites used, if known.
    public static func line(_ fix: Fix, into w: inout ByteWriter) {
        if let t = fix.timestamp {
            GPSDJSON.appendISO8601(t, into: &w)
        } else {
            w.append("(no time)")
        }
        guard fix.mode >= .twoD, let c = fix.coordinate else {
            w.append("  no fix")
            if let n = fix.satellitesUsed { w.append("  sats "); w.append(n) }
            w.append("\n")
            return
        }
        w.append("  ")
        w.append(c.latitude.magnitude, decimals: 7)
        w.append(c.latitude < 0 ? " S " : " N ")
        w.append(c.longitude.magnitude, decimals: 7)
        w.append(c.longitude < 0 ? " W" : " E")
        w.append("  alt ")
        if let a = fix.altitude { w.append(a, decimals: 1); w.append(" m") } else { w.append("-") }
        w.append("  ")
        if let s = fix.speed { w.append(s, decimals: 2); w.append(" m/s") } else { w.append("- m/s") }
        w.append("  course ")
        if let c = fix.course { w.append(bearing: c, decimals: 1) } else { w.append("-") }
        w.append(fix.mode == .threeD ? "  3D" : "  2D")
        if let q = fix.quality { w.append(" "); w.append(q.name) }
        w.append("  sats ")
        if let n = fix.satellitesUsed { w.append(n) } else { w.append("-") }
        w.append("\n")
    }
}
