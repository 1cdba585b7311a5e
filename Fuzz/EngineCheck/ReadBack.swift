import GPSLocation
import GPSOutput
import NMEA

/// The printed form read back: a report gpsfix writes is read by the package's JSON reader (as
/// another gpsfix reads it over MQTT, `GpsdJSONReports`) and each member must be within the
/// range that reader holds it to, and equal to the value within the precision it was printed
/// with. Issue 17 found a course of 359.99996 printed as 360.0000 and then refused.
extension Checker {
    /// Whether the last report written holds `text`.
    func printed(contains text: StaticString) -> Bool {
        let needle = Array(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        let bytes = writer.bytes
        guard bytes.count >= needle.count else { return false }
        for i in 0...(bytes.count - needle.count) where bytes[i] == needle[0] && Array(bytes[i..<(i + needle.count)]) == needle {
            return true
        }
        return false
    }

    /// The last report written, as JSON (without its line end).
    private mutating func report(_ what: String) -> JSONValue? {
        var bytes = writer.bytes
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
        guard !bytes.isEmpty else { return nil }
        guard let json = JSONValue(parsing: bytes) else {
            fail("\(what) is not JSON the reader takes: \(String(decoding: bytes, as: UTF8.self))")
            return nil
        }
        return json
    }

    /// A member printed with `decimals` digits: present exactly when the value is, within
    /// `bounds`, and within half a unit of its last digit (going round 360 for a bearing).
    private mutating func member(_ json: JSONValue, _ key: String, _ value: Double?, _ decimals: Int,
                                 _ bounds: some RangeExpression<Double>, bearing: Bool = false, what: String) {
        let read = json[key]?.double
        guard let value else {
            if read != nil { fail("\(what) \(key) printed for an unknown value") }
            return
        }
        guard let read else { return fail("\(what) \(key) \(value) not read back") }
        if !bounds.contains(read) { fail("\(what) \(key) \(value) read back as \(read), out of range") }
        var difference = abs(read - value)
        if bearing { difference = min(difference, abs(360 - difference)) }
        var tolerance = 0.5
        for _ in 0..<decimals { tolerance /= 10 }
        // The printed digits are rounded once from the scaled double: allow its last bit too.
        tolerance += abs(value).ulp * 4 + 1e-12
        if difference > tolerance { fail("\(what) \(key) \(value) read back as \(read)") }
    }

    mutating func readBack(tpv fix: Fix) {
        guard let json = report("TPV") else { return }
        guard json["mode"]?.int == fix.mode.rawValue else { return fail("TPV mode not read back") }
        guard fix.mode >= .twoD, let c = fix.coordinate else { return }
        member(json, "lat", c.latitude, 9, Bounds.latitude, what: "TPV")
        member(json, "lon", c.longitude, 9, Bounds.longitude, what: "TPV")
        member(json, "altHAE", fix.ellipsoidalAltitude, 3, Bounds.altitude, what: "TPV")
        member(json, "altMSL", fix.altitude, 3, Bounds.altitude, what: "TPV")
        member(json, "geoidSep", fix.geoidSeparation, 3, Bounds.geoidSeparation, what: "TPV")
        member(json, "speed", fix.speed, 3, Bounds.speed, what: "TPV")
        member(json, "track", fix.course, 4, Bounds.course, bearing: true, what: "TPV")
        member(json, "magvar", fix.magneticVariation, 1, -180.0...180.0, what: "TPV")
        member(json, "climb", fix.climb, 3, Bounds.verticalSpeed, what: "TPV")
        member(json, "epx", fix.longitudeError, 3, Bounds.accuracy, what: "TPV")
        member(json, "epy", fix.latitudeError, 3, Bounds.accuracy, what: "TPV")
        member(json, "epv", fix.verticalAccuracy, 3, Bounds.accuracy, what: "TPV")
        member(json, "eph", fix.horizontalAccuracy, 3, Bounds.accuracy, what: "TPV")
        member(json, "sep", fix.sphericalError, 3, Bounds.accuracy, what: "TPV")
        if let time = json["time"]?.string {
            let year = Int(String(time.prefix(4))) ?? 0
            if !Bounds.year.contains(year) { fail("TPV time \(time) outside the year window") }
        }
    }

    mutating func readBack(gst fix: Fix) {
        guard let e = fix.errorStatistics, let json = report("GST") else { return }
        member(json, "orient", e.orientation, 3, Bounds.orientation, bearing: true, what: "GST")
        member(json, "rms", e.rms, 3, Bounds.accuracy, what: "GST")
        member(json, "major", e.semiMajor, 3, Bounds.accuracy, what: "GST")
        member(json, "minor", e.semiMinor, 3, Bounds.accuracy, what: "GST")
    }

    mutating func readBack(sky: SkyView) {
        guard let json = report("SKY") else { return }
        member(json, "hdop", sky.dop.horizontal, 2, Bounds.dop, what: "SKY")
        member(json, "vdop", sky.dop.vertical, 2, Bounds.dop, what: "SKY")
        member(json, "pdop", sky.dop.position, 2, Bounds.dop, what: "SKY")
        member(json, "tdop", sky.dop.time, 2, Bounds.dop, what: "SKY")
        let entries = json["satellites"]?.array ?? []
        guard entries.count == sky.satellites.count, json["nSat"]?.int == entries.count else {
            return fail("SKY lists \(entries.count) of \(sky.satellites.count) satellites")
        }
        for (entry, s) in zip(entries, sky.satellites) {
            // Both names of the satellite read back as it: no PRN shared, no number outside its constellation's.
            guard let prn = entry["PRN"]?.int, SatelliteID(gpsdPRN: prn) == s.id,
                  let gnssid = entry["gnssid"]?.int, let svid = entry["svid"]?.int, SatelliteID(gnssid: gnssid, svid: svid) == s.id else {
                return fail("SKY satellite \(s.id) does not read back as itself")
            }
            member(entry, "el", s.elevation, 1, Bounds.elevation, what: "SKY")
            member(entry, "az", s.azimuth, 1, Bounds.azimuth, bearing: true, what: "SKY")
            member(entry, "ss", s.snr, 1, Bounds.snr, what: "SKY")
        }
    }
}
