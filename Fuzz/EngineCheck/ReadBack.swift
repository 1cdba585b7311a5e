import GPSLocation
import GPSOutput
import NMEA

/// The printed form read back: a report gpsfix writes is read by the package's JSON reader (as
/// another gpsfix reads it over MQTT, `GpsdJSONReports`) and each member, one per row of
/// `GPSDReportTable`, must be within the range that reader holds it to, and equal to the value within the precision it was printed
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

    /// A row's member: present exactly when the value is, within the row's range, and within
    /// half a unit of its last printed digit (going round 360 for a bearing). A member that
    /// repeats another under an older name (`alt`) is held to the same.
    private mutating func member<Record>(_ json: JSONValue, _ row: ReportMember<Record>, of record: Record, what: String) {
        let value = record[keyPath: row.keyPath].flatMap { $0.isFinite ? $0 : nil }
        let read = json[row.name]?.double
        guard let value else {
            if read != nil { fail("\(what) \(row.name) printed for an unknown value") }
            return
        }
        guard let read else { return fail("\(what) \(row.name) \(value) not read back") }
        if !row.range.contains(read) { fail("\(what) \(row.name) \(value) read back as \(read), out of range") }
        var difference = abs(read - value)
        if row.isBearing { difference = min(difference, abs(360 - difference)) }
        var tolerance = 0.5
        for _ in 0..<row.decimals { tolerance /= 10 }
        // The printed digits are rounded once from the scaled double: allow its last bit too.
        tolerance += abs(value).ulp * 4 + 1e-12
        if difference > tolerance { fail("\(what) \(row.name) \(value) read back as \(read)") }
    }

    mutating func readBack(tpv fix: Fix) {
        guard let json = report("TPV") else { return }
        guard json["mode"]?.int == fix.mode.rawValue else { return fail("TPV mode not read back") }
        guard fix.mode >= .twoD, fix.coordinate != nil else { return }
        for row in GPSDReportTable.tpv { member(json, row, of: fix, what: "TPV") }
        let marine = fix.marine ?? MarineData()
        for row in GPSDReportTable.tpvMarine { member(json, row, of: marine, what: "TPV") }
        if json["datum"]?.string.flatMap({ Datum(gpsdName: $0) }) != fix.datum { fail("TPV datum not read back") }
        if let time = json["time"]?.string {
            let year = Int(String(time.prefix(4))) ?? 0
            if !Bounds.year.contains(year) { fail("TPV time \(time) outside the year window") }
        }
    }

    mutating func readBack(gst fix: Fix) {
        guard let e = fix.errorStatistics, let json = report("GST") else { return }
        for row in GPSDReportTable.gst { member(json, row, of: e, what: "GST") }
    }

    mutating func readBack(att fix: Fix) {
        guard let a = fix.attitude, let json = report("ATT") else { return }
        for row in GPSDReportTable.att { member(json, row, of: a, what: "ATT") }
    }

    mutating func readBack(sky: SkyView) {
        guard let json = report("SKY") else { return }
        for row in GPSDReportTable.sky { member(json, row, of: sky, what: "SKY") }
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
            for row in GPSDReportTable.satellite { member(entry, row, of: s, what: "SKY") }
        }
    }
}
