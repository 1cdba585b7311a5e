public import NMEA
import GPSLocation
import GPSOutput

/// gpsd's TPV and SKY, as `GPSDJSON` writes them, back into the engine's `Fix` and `SkyView`.
/// What comes off a broker comes from anyone who may publish there: every value is held to
/// the ranges a receiver's sentences are (`Bounds`, through `GPSDReportTable`'s rows: each
/// measurement read is a row there), and what is out of range is unknown.
public enum GpsdJSONReports {
    /// One report read off a broker: a TPV or a SKY, its values held to `Bounds`.
    public enum Report: Equatable, Sendable {
        /// A TPV as a fix; its `mode` is `.noFix` (and no coordinate) when the TPV said no
        /// fix or its latitude or longitude was missing or out of range.
        case fix(Fix)
        /// A SKY's satellites (at most `Bounds.satellites`' upper bound, each listed once) and
        /// dilutions of precision.
        case sky(SkyView)
    }

    /// The report in `payload`; nil for anything else (another class, not JSON, too big).
    public static func report(_ payload: [UInt8]) -> Report? {
        guard let json = JSONValue(parsing: payload) else { return nil }
        switch json["class"]?.string {
        case "TPV": return fix(json).map(Report.fix)
        case "SKY": return .sky(sky(json))
        default: return nil
        }
    }

    static func fix(_ json: JSONValue) -> Fix? {
        guard let modeNumber = json["mode"]?.int, let mode = FixMode(rawValue: modeNumber) ?? (modeNumber == 0 ? .noFix : nil) else {
            return nil
        }
        var fix = Fix()
        fix.timestamp = json["time"]?.string.flatMap(time)
        guard mode >= .twoD, let latitude = value(json["lat"], GPSDReportTable.latitude),
              let longitude = value(json["lon"], GPSDReportTable.longitude) else {
            fix.mode = .noFix
            return fix
        }
        fix.mode = mode
        // gpsd leaves status out for a plain fix.
        fix.quality = json["status"]?.int.flatMap { FixQuality(rawValue: $0) } ?? .gps
        fix.coordinate = Coordinate(latitude: latitude, longitude: longitude)
        // Every other measurement, each by its row (the coordinate's are read whole, above).
        for member in GPSDReportTable.tpv { read(member, from: json, into: &fix) }
        // A TPV's errors are gpsd's estimates; a vehicle's accuracies are the best it sent.
        fix.horizontalAccuracy = fix.estimatedErrors.horizontal
        fix.verticalAccuracy = fix.estimatedErrors.vertical
        // An instrument's depth, water temperature and wind, by their rows too.
        var marine = MarineData()
        for member in GPSDReportTable.tpvMarine { read(member, from: json, into: &marine) }
        if !marine.isEmpty { fix.marine = marine }
        fix.datum = json["datum"]?.string.flatMap { Datum(gpsdName: $0) }
        return fix
    }

    /// One row's member into its place; an older name only when the current one is absent
    /// (an `altMSL` out of range is unknown, not replaced by `alt`).
    private static func read<Record>(_ member: ReportMember<Record>, from json: JSONValue, into record: inout Record) {
        guard let place = member.writableKeyPath else { return }
        if let current = member.repeats, json[current] != nil { return }
        guard let value = value(json[member.name], member) else { return }
        record[keyPath: place] = value
    }

    static func sky(_ json: JSONValue) -> SkyView {
        var satellites: [Satellite] = []
        for entry in json["satellites"]?.array ?? [] {
            guard satellites.count < Bounds.satellites.upperBound else { break }
            // Each number checked within its constellation (`SatelliteID.svids(of:)`, gpsd's
            // table), and a PRN read as gpsd numbers a SKY: no two satellites can become one,
            // and one named twice is listed once.
            let id: SatelliteID
            if let gnss = entry["gnssid"]?.int, let svid = entry["svid"]?.int {
                guard let named = SatelliteID(gnssid: gnss, svid: svid) else { continue }
                id = named
            } else if let prn = entry["PRN"]?.int, let fromPRN = SatelliteID(gpsdPRN: prn) {
                id = fromPRN
            } else {
                continue
            }
            guard !satellites.contains(where: { $0.id == id }) else { continue }
            var satellite = Satellite(id: id, used: entry["used"]?.bool ?? false)
            for member in GPSDReportTable.satellite { read(member, from: entry, into: &satellite) }
            satellites.append(satellite)
        }
        satellites.sort { $0.id < $1.id }
        var view = SkyView(satellites: satellites)
        for member in GPSDReportTable.sky { read(member, from: json, into: &view) }
        view.timestamp = json["time"]?.string.flatMap(time)
        return view
    }

    private static func value<Record>(_ json: JSONValue?, _ member: ReportMember<Record>) -> Double? {
        guard let n = json?.double, member.accepts(n) else { return nil }
        return n
    }

    /// `2024-06-15T03:12:07.000Z` (gpsd's form: fractions optional, UTC), years in `Bounds.year`.
    static func time(_ text: String) -> FixTime? {
        let b = Array(text.utf8)
        guard b.count >= 20, b.count <= 30, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A, b[16] == 0x3A,
              b.last == 0x5A else { return nil }
        func digits(_ range: Range<Int>) -> Int? {
            var n = 0
            for i in range {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                n = n * 10 + Int(b[i] - 0x30)
            }
            return n
        }
        guard let year = digits(0..<4), Bounds.year.contains(year), let month = digits(5..<7), let day = digits(8..<10),
              let date = CalendarDate(year: year, month: month, day: day),
              let hour = digits(11..<13), hour < 24, let minute = digits(14..<16), minute < 60,
              let second = digits(17..<19),
              second < 60 || (second == 60 && hour == 23 && minute == 59) else { return nil }
        var millisecond = 0
        if b.count > 20 {
            // A point and at least one digit, every one a digit; the first three are kept.
            guard b[19] == 0x2E, b.count - 21 >= 1,
                  (20..<(b.count - 1)).allSatisfy({ b[$0] >= 0x30 && b[$0] <= 0x39 }),
                  let fraction = digits(20..<min(23, b.count - 1)) else { return nil }
            let places = min(23, b.count - 1) - 20
            millisecond = fraction * (places == 1 ? 100 : places == 2 ? 10 : 1)
        }
        return FixTime(date: date, time: TimeOfDay(hour: hour, minute: minute, second: second, millisecond: millisecond))
    }
}
