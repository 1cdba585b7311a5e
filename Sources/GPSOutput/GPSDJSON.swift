public import NMEA
import GPSSystem
import GPSLocation

/// gpsd's JSON reports (its "JSON protocol", as `gpspipe -w` prints it): field names, units and
/// precision as gpsd 3.22 writes them, so that tools written for gpsd read gpsfix unchanged.
public enum GPSDJSON {
    /// The `,"device":"…"` member, escaped once per run rather than once per report.
    public struct Device: Sendable {
        let fragment: [UInt8]

        /// The member naming `path` (a device's path or a name, any text: escaped here); nil
        /// names no device, and the reports leave the member out.
        public init(_ path: String?) {
            var w = ByteWriter(capacity: 64)
            if let path {
                w.append(",\"device\":")
                w.appendJSONString(path)
            }
            fragment = w.bytes
        }
    }

    /// A `TPV` report: one per epoch. Unknown values are left out, as gpsd leaves them out.
    public static func tpv(_ fix: Fix, device: String? = nil, into w: inout ByteWriter) {
        tpv(fix, device: Device(device), into: &w)
    }

    /// A `TPV` report of `fix`, one line ending in a newline, with the `device` member made
    /// once beforehand: the form a loop writing every epoch calls. Without a fix (`mode` below
    /// 2D) only `class`, `device`, `mode` and `time` are written.
    public static func tpv(_ fix: Fix, device: Device, into w: inout ByteWriter) {
        w.append("{\"class\":\"TPV\"")
        w.append(bytes: device.fragment)
        // gpsd writes status only from DGPS up: a plain fix is implied by the mode.
        if let q = fix.quality, q.rawValue >= 2, fix.mode >= .twoD {
            w.append(",\"status\":")
            w.append(q.rawValue)
        }
        w.append(",\"mode\":")
        w.append(fix.mode.rawValue)
        if let t = fix.timestamp, t.date != nil {
            w.append(",\"time\":\"")
            appendISO8601(t, into: &w)
            w.append(byte: 0x22)
        }
        // Every measurement only with a fix, as gpsd writes them: one row each in
        // `GPSDReportTable.tpv`, written by the code generated from it.
        if fix.mode >= .twoD {
            tpvMembers(fix, into: &w)
            if let m = fix.marine { tpvMarineMembers(m, into: &w) }
            // gpsd's `datum` (its `processDTM`'s names), a string: no row of the table.
            if let datum = fix.datum {
                w.append(",\"datum\":")
                w.appendJSONString(datum.name)
            }
        }
        w.append("}\n")
    }

    /// A `SKY` report: every satellite in view, one entry each, with gpsd's PRN numbering.
    public static func sky(_ sky: SkyView, device: String? = nil, into w: inout ByteWriter) {
        self.sky(sky, device: Device(device), into: &w)
    }

    /// A `SKY` report of `sky`, one line ending in a newline, with the `device` member made
    /// once beforehand: the form a loop writing every epoch calls.
    public static func sky(_ sky: SkyView, device: Device, into w: inout ByteWriter) {
        w.append("{\"class\":\"SKY\"")
        w.append(bytes: device.fragment)
        if let t = sky.timestamp, t.date != nil {
            w.append(",\"time\":\"")
            appendISO8601(t, into: &w)
            w.append(byte: 0x22)
        }
        skyMembers(sky, into: &w)
        // At most gpsd's MAXCHANNELS of 3.22 to 3.25 (`Bounds.satellites`): libgps drops a
        // whole SKY that lists more, so a sky view from a source with a larger table (libgps
        // 3.27 holds 184) is cut here rather than lost to every gpsd client.
        let listed = sky.satellites.count > Bounds.satellites.upperBound
            ? sky.satellites[..<Bounds.satellites.upperBound] : sky.satellites[...]
        w.append(",\"nSat\":")
        w.append(listed.count)
        w.append(",\"uSat\":")
        w.append(listed.count == sky.satellites.count ? sky.satellitesUsed : listed.reduce(0) { $0 + ($1.used ? 1 : 0) })
        w.append(",\"satellites\":[")
        for (i, s) in listed.enumerated() {
            if i > 0 { w.append(byte: 0x2C) }
            w.append("{\"PRN\":")
            w.append(s.id.prn)
            satelliteMembers(s, into: &w)
            if s.used { w.append(",\"used\":true") } else { w.append(",\"used\":false") }
            w.append(",\"gnssid\":")
            w.append(s.id.constellation.rawValue)
            w.append(",\"svid\":")
            w.append(s.id.svid)
            w.append(byte: 0x7D)
        }
        w.append("]}\n")
    }

    /// A `GST` report: the receiver's error statistics for the epoch of `fix`, written after
    /// its TPV as gpsd writes it; nothing when the epoch had no GST. Members the receiver left
    /// empty are left out, as gpsd leaves them out.
    public static func gst(_ fix: Fix, device: Device, into w: inout ByteWriter) {
        guard let e = fix.errorStatistics else { return }
        w.append("{\"class\":\"GST\"")
        w.append(bytes: device.fragment)
        if let t = fix.timestamp, t.date != nil {
            w.append(",\"time\":\"")
            appendISO8601(t, into: &w)
            w.append(byte: 0x22)
        }
        gstMembers(e, into: &w)
        w.append("}\n")
    }

    /// An `ATT` report: the attitude the instruments beside the receiver stated in the epoch
    /// of `fix` (``Fix/attitude``), written after its TPV; nothing when they stated none. As
    /// gpsd writes one for an HDT: no time (the instruments state none), and only the members
    /// known.
    public static func att(_ fix: Fix, device: Device, into w: inout ByteWriter) {
        guard let a = fix.attitude else { return }
        w.append("{\"class\":\"ATT\"")
        w.append(bytes: device.fragment)
        attMembers(a, into: &w)
        w.append("}\n")
    }

    /// `2019-04-12T00:39:56.000Z`; a leap second prints as `23:59:60`.
    public static func appendISO8601(_ t: FixTime, into w: inout ByteWriter) {
        if let d = t.date {
            w.append(d.year, width: 4)
            w.append(byte: 0x2D)
            w.append(d.month, width: 2)
            w.append(byte: 0x2D)
            w.append(d.day, width: 2)
            w.append(byte: 0x54)
        }
        w.append(t.time.hour, width: 2)
        w.append(byte: 0x3A)
        w.append(t.time.minute, width: 2)
        w.append(byte: 0x3A)
        w.append(t.time.second, width: 2)
        w.append(byte: 0x2E)
        w.append(t.time.millisecond, width: 3)
        if t.date != nil { w.append(byte: 0x5A) }
    }

    /// `2026-11-30T07:10:00.123Z` for an instant given as seconds since 1970 (the wall
    /// clock): the times gpsd stamps on its own reports, and `-t`'s line prefix.
    public static func appendISO8601(unixSeconds seconds: Double, into w: inout ByteWriter) {
        let millis = Int(((seconds - seconds.rounded(.down)) * 1000).rounded(.down))
        let parts = CalendarTime.utc(seconds)
        w.append(parts.year, width: 4)
        w.append(byte: 0x2D)
        w.append(parts.month, width: 2)
        w.append(byte: 0x2D)
        w.append(parts.day, width: 2)
        w.append(byte: 0x54)
        w.append(parts.hour, width: 2)
        w.append(byte: 0x3A)
        w.append(parts.minute, width: 2)
        w.append(byte: 0x3A)
        w.append(parts.second, width: 2)
        w.append(byte: 0x2E)
        w.append(min(millis, 999), width: 3)
        w.append(byte: 0x5A)
    }

    /// A bearing (0 to below 360°): one that rounds to 360 is written 0 (`ByteWriter.append(bearing:)`).
    @inline(__always)
    static func optional(_ name: StaticString, bearing value: Double?, _ decimals: Int, _ w: inout ByteWriter) {
        guard let value, value.isFinite else { return }
        w.append(name)
        w.append(bearing: value, decimals: decimals)
    }

    @inline(__always)
    static func optional(_ name: StaticString, _ value: Double?, _ decimals: Int, _ w: inout ByteWriter) {
        guard let value, value.isFinite else { return }
        w.append(name)
        w.append(value, decimals: decimals)
    }
}
