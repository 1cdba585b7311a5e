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
    /// Without a fix, `no fix` and the satellites used, if known. Then, with or without a fix,
    /// what the instruments beside the receiver said this epoch (``instruments(_:into:)``).
    public static func line(_ fix: Fix, into w: inout ByteWriter) {
        if let t = fix.timestamp {
            GPSDJSON.appendISO8601(t, into: &w)
        } else {
            w.append("(no time)")
        }
        guard fix.mode >= .twoD, let c = fix.coordinate else {
            w.append("  no fix")
            if let n = fix.satellitesUsed { w.append("  sats "); w.append(n) }
            instruments(fix, into: &w)
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
        instruments(fix, into: &w)
        w.append("\n")
    }

    /// What the instruments beside the receiver said, each only when said:
    /// `  heading 25.5 T  heading 231.8 M  pitch 1.2  roll -2.0  turn 3.0/min` (degrees true and
    /// magnetic, degrees per minute), `  depth 5.4 m  water 12.3 C`, and the wind: its angle
    /// from the bow and speed as felt on board and as the true wind, `  wind 57.5 app 6.7 m/s
    /// wind 94.9 true 5.8 m/s`, and the true wind's direction from north, `  wind from 328.2 T`.
    public static func instruments(_ fix: Fix, into w: inout ByteWriter) {
        if let a = fix.attitude {
            if let h = a.heading { w.append("  heading "); w.append(bearing: h, decimals: 1); w.append(" T") }
            if let h = a.magneticHeading { w.append("  heading "); w.append(bearing: h, decimals: 1); w.append(" M") }
            if let p = a.pitch { w.append("  pitch "); w.append(p, decimals: 1) }
            if let r = a.roll { w.append("  roll "); w.append(r, decimals: 1) }
            if let t = a.rateOfTurn { w.append("  turn "); w.append(t, decimals: 1); w.append("/min") }
        }
        guard let m = fix.marine else { return }
        if let d = m.depth { w.append("  depth "); w.append(d, decimals: 1); w.append(" m") }
        if let t = m.waterTemperature { w.append("  water "); w.append(t, decimals: 1); w.append(" C") }
        wind(m.apparentWindAngle, "app", m.apparentWindSpeed, into: &w)
        wind(m.trueWindAngle, "true", m.trueWindSpeed, into: &w)
        if let d = m.trueWindDirection { w.append("  wind from "); w.append(bearing: d, decimals: 1); w.append(" T") }
    }

    private static func wind(_ angle: Double?, _ which: StaticString, _ speed: Double?, into w: inout ByteWriter) {
        guard angle != nil || speed != nil else { return }
        w.append("  wind ")
        if let a = angle { w.append(bearing: a, decimals: 1) } else { w.append("-") }
        w.append(" ")
        w.append(which)
        w.append(" ")
        if let s = speed { w.append(s, decimals: 1); w.append(" m/s") } else { w.append("- m/s") }
    }
}
