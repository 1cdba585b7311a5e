public import NMEA
public import GPSLocation

/// GPX 1.1 (https://www.topografix.com/GPX/1/1/), the track format mapping tools, GPSBabel and
/// gpxpy read: the pieces of a `<trk>` document, appended to a buffer. Pure formatting: where
/// the bytes go, and when, is the caller's business; `GPXTrack` knows which piece comes next.
///
/// Each trackpoint is one line, so a point is one write and `tail -f` or `grep -c` see points.
public enum GPX {
    /// The XML declaration, `<gpx>` and `<metadata>`: everything before the track.
    public static func header(into w: inout ByteWriter) {
        w.append("""
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="gpsfix" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
              <metadata>
                <desc>Recorded by gpsfix. Elevation (ele) is metres above mean sea level (the geoid), \
            as the receiver reported it, not height above the WGS 84 ellipsoid.</desc>
              </metadata>

            """)
    }

    /// `<trk>`, with the source (a device, gpsd, a capture) as its `<src>` when there is one.
    public static func trackStart(source: String?, into w: inout ByteWriter) {
        w.append("  <trk>\n")
        if let source, !source.isEmpty {
            w.append("    <src>")
            appendText(source, into: &w)
            w.append("</src>\n")
        }
    }

    /// `<trkseg>`: a run of trackpoints a map joins with a line; `GPXTrack` opens one at the
    /// first point after a gap.
    public static func segmentStart(into w: inout ByteWriter) { w.append("    <trkseg>\n") }

    /// `</trkseg>`: the end of a run of points, at a gap (no position, the receiver away or
    /// silent) or at the end of the document.
    public static func segmentEnd(into w: inout ByteWriter) { w.append("    </trkseg>\n") }

    /// `</trk></gpx>`: after this the document is complete.
    public static func footer(into w: inout ByteWriter) { w.append("  </trk>\n</gpx>\n") }

    /// Whether `fix` can be a trackpoint: it has a position the receiver stands behind.
    public static func hasPosition(_ fix: Fix) -> Bool {
        guard fix.hasFix, let c = fix.coordinate else { return false }
        return c.latitude.isFinite && c.longitude.isFinite
    }

    /// One `<trkpt>` line. The children come in the order the schema's sequence demands
    /// (ele, time, …, fix, sat, hdop, vdop, pdop); a validating reader rejects any other.
    /// Call only for a fix with a position (`hasPosition`).
    public static func trackpoint(_ fix: Fix, into w: inout ByteWriter) {
        guard hasPosition(fix), let c = fix.coordinate else { return }
        w.append("      <trkpt lat=\"")
        w.append(c.latitude, decimals: 9)
        w.append("\" lon=\"")
        // The schema's longitude is -180 ≤ lon < 180: 180° E is written as the same meridian,
        // 180° W. (Nine decimals: a value that would round up to 180 counts as 180 already.)
        w.append(c.longitude >= 180 - 0.5e-9 ? c.longitude - 360 : c.longitude, decimals: 9)
        w.append("\">")
        // Only a 3D fix measured its height; a 2D fix's altitude is an assumed or held one.
        if fix.mode == .threeD, let ele = fix.altitude, ele.isFinite {
            w.append("<ele>")
            w.append(ele, decimals: 3)
            w.append("</ele>")
        }
        if let t = fix.timestamp, hasValidTime(t) {
            w.append("<time>")
            GPSDJSON.appendISO8601(t, into: &w)
            w.append("</time>")
        }
        w.append("<fix>")
        w.append(fixType(fix))
        w.append("</fix>")
        if let n = fix.satellitesUsed, n >= 0 {
            w.append("<sat>")
            w.append(n)
            w.append("</sat>")
        }
        dop("<hdop>", fix.dop.horizontal, "</hdop>", &w)
        dop("<vdop>", fix.dop.vertical, "</vdop>", &w)
        dop("<pdop>", fix.dop.position, "</pdop>", &w)
        w.append("</trkpt>\n")
    }

    /// GPX's `<fix>`: `none|2d|3d|dgps|pps`. Corrected solutions (DGPS, RTK) are `dgps` and
    /// GGA's quality 3 (PPS, the precise military signal) is `pps`, because that says more
    /// about a point's accuracy than its dimensions do; everything else is 2d or 3d.
    public static func fixType(_ fix: Fix) -> StaticString {
        switch fix.quality {
        case .dgps?, .rtkFixed?, .rtkFloat?: return "dgps"
        case .precise?: return "pps"
        default: break
        }
        switch fix.mode {
        case .threeD: return "3d"
        case .twoD: return "2d"
        case .noFix: return "none"
        }
    }

    /// GPX time is an XML Schema dateTime: it needs a date, and its seconds stop at 59, so a
    /// leap second (23:59:60) has no way to be written. Such a point is kept, without a time.
    static func hasValidTime(_ t: FixTime) -> Bool {
        t.date != nil && t.time.milliseconds < 86_400_000
    }

    @inline(__always)
    private static func dop(_ open: StaticString, _ value: Double?, _ close: StaticString, _ w: inout ByteWriter) {
        // The schema's DOPs are decimals, never negative; a receiver's nonsense is left out.
        guard let value, value.isFinite, value >= 0 else { return }
        w.append(open)
        w.append(value, decimals: 2)
        w.append(close)
    }

    /// Text content, escaped. Characters XML 1.0 cannot hold at all (most C0 controls) are
    /// dropped: a device name is not worth an unreadable document.
    static func appendText(_ text: String, into w: inout ByteWriter) {
        for b in text.utf8 {
            switch b {
            case 0x26: w.append("&amp;")
            case 0x3C: w.append("&lt;")
            case 0x3E: w.append("&gt;")
            case 0x09, 0x0A, 0x0D: w.append(byte: b)
            case 0..<0x20: continue
            default: w.append(byte: b)
            }
        }
    }
}

/// Where a GPX document is: before its track, inside a segment, between segments, or closed.
/// It turns the epochs' fixes into `<trkseg>`s: a run of fixes with a position is one segment,
/// and an epoch without one ends it, so a map draws no line across the gap.
public struct GPXTrack: Sendable {
    /// Whether the document's beginning (``start(source:into:)``, or the first point) has
    /// been written.
    public private(set) var isStarted = false
    /// Whether a `<trkseg>` is open: the last epoch had a position and no gap has come since.
    public private(set) var isSegmentOpen = false
    /// Whether ``finish(into:)`` has closed the document: nothing more is written.
    public private(set) var isFinished = false
    /// Trackpoints written so far.
    public private(set) var points = 0
    /// Segments opened so far: each run of points between two gaps is one.
    public private(set) var segments = 0

    /// A track not yet started: nothing written, no point, no segment.
    public init() {}

    /// The document's beginning, up to and including `<trk>`. Writes nothing a second time.
    public mutating func start(source: String?, into w: inout ByteWriter) {
        guard !isStarted else { return }
        isStarted = true
        GPX.header(into: &w)
        GPX.trackStart(source: source, into: &w)
    }

    /// One epoch's fix: a trackpoint when it has a position (opening a segment first if none
    /// is open), otherwise the end of the open segment. Returns whether a point was written.
    @discardableResult
    public mutating func add(_ fix: Fix, into w: inout ByteWriter) -> Bool {
        guard !isFinished else { return false }
        guard GPX.hasPosition(fix) else {
            endSegment(into: &w)
            return false
        }
        start(source: nil, into: &w)
        if !isSegmentOpen {
            GPX.segmentStart(into: &w)
            isSegmentOpen = true
            segments += 1
        }
        GPX.trackpoint(fix, into: &w)
        points += 1
        return true
    }

    /// What an event of the source means for the track: a fix is `add`ed; a source that went
    /// away or fell silent is a gap no fix reports, so it ends the segment. Returns whether a
    /// point was written.
    @discardableResult
    public mutating func record(_ event: LocationEvent, into w: inout ByteWriter) -> Bool {
        switch event {
        case .fix(let fix):
            return add(fix, into: &w)
        case .status(.disconnected), .status(.stale):
            endSegment(into: &w)
            return false
        default:
            return false
        }
    }

    /// A gap that no fix reports (the receiver went away, or fell silent): the next point
    /// starts a new segment.
    public mutating func endSegment(into w: inout ByteWriter) {
        guard isSegmentOpen, !isFinished else { return }
        GPX.segmentEnd(into: &w)
        isSegmentOpen = false
    }

    /// Closes whatever is open: the document is then complete, even with no point at all.
    /// Later calls write nothing.
    public mutating func finish(into w: inout ByteWriter) {
        guard !isFinished else { return }
        start(source: nil, into: &w)
        endSegment(into: &w)
        GPX.footer(into: &w)
        isFinished = true
    }
}
