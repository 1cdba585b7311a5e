import GPSLocation

/// One line from a gpsd, judged before anything of it goes further.
///
/// gpsd may be another machine's, or another program may hold its port, and libgps's parser
/// is not safe on what a peer can send: libgps 3.22 to 3.25 never return from `gps_unpack`
/// on a stray byte before a key (`{x"class":"TPV"}`), nor on some well-formed reports of
/// classes gpsfix does not read. So libgps never sees a peer's line: a TPV or a SKY is read
/// here (bounded, `JSONValue`), and only the members gpsfix uses, of the types libgps expects
/// and within the ranges its fields hold, are written again as a line of our own, which
/// every libgps from API 11 to 16 parses whole.
enum GpsdLine: Equatable {
    /// A TPV, a SKY or an ATT, rewritten: the only text that reaches libgps.
    case report(Kind, String)
    /// A sentence gpsd passes on (`"nmea":true` in the watch), without its line end.
    case sentence(String)
    /// A well-formed report of a class gpsfix does not read (VERSION, DEVICES, WATCH, ...).
    case other
    /// Not a gpsd report: not JSON, no class, a TPV or SKY of the wrong shape.
    case rejected

    enum Kind: Equatable {
        case tpv
        case sky
        /// A heading sensor's report (HDT, THS, XDR through gpsd).
        case att
    }

    /// gpsd's longest report is a SKY of its most satellites, about 11 kB; a sentence is at most
    /// 82 characters, longer ones are still passed on by receivers, never beyond this.
    static let maximumSentence = 1024

    /// The line without its end (CR LF or LF). `maximumSatellites` is what the installed
    /// libgps's SKY holds; entries past it are left out.
    static func judge(_ line: ArraySlice<UInt8>, maximumSatellites: Int) -> GpsdLine {
        guard let first = line.first else { return .rejected }
        if first == UInt8(ascii: "$") || first == UInt8(ascii: "!") {
            guard line.count <= maximumSentence, line.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return .rejected }
            return .sentence(String(decoding: line, as: UTF8.self))
        }
        guard first == UInt8(ascii: "{"), let value = JSONValue(parsing: Array(line)),
              let className = value["class"]?.string else { return .rejected }
        switch className {
        case "TPV": return tpv(value).map { .report(.tpv, $0) } ?? .rejected
        case "SKY": return sky(value, maximumSatellites: maximumSatellites).map { .report(.sky, $0) } ?? .rejected
        // An ATT of an IMU's members only is well-formed, and nothing gpsfix reads.
        case "ATT": return att(value).map { .report(.att, $0) } ?? .other
        default: return .other
        }
    }

    /// The members of a TPV that gpsfix reads, as numbers.
    private static let tpvNumbers = ["lat", "lon", "altHAE", "altMSL", "geoidSep", "speed", "track", "climb",
                                     "magvar", "magtrack", "epx", "epy", "epv", "eph", "sep", "eps", "epd",
                                     "epc", "ept", "depth", "wanglem", "wangler", "wanglet", "wspeedr", "wspeedt"]
    /// The members of an ATT that gpsfix reads: those every libgps from API 11 on holds.
    private static let attNumbers = ["heading", "pitch", "roll"]
    private static let skyNumbers = ["hdop", "pdop", "vdop", "tdop", "xdop", "ydop", "gdop"]
    private static let satelliteNumbers = ["el", "az", "ss"]

    private static func tpv(_ report: JSONValue) -> String? {
        // A TPV says its mode; one without (or with no mode gpsd has) is no report.
        guard let mode = report["mode"]?.int, (0...3).contains(mode) else { return nil }
        var out = JSONWriter()
        out.member("class", string: "TPV")
        out.member("mode", int: mode)
        if let status = report["status"]?.int, (0...9).contains(status) { out.member("status", int: status) }
        if let time = time(report["time"]) { out.member("time", string: time) }
        for key in tpvNumbers { if let n = number(report[key]) { out.member(key, number: n) } }
        return out.close()
    }

    private static func att(_ report: JSONValue) -> String? {
        var out = JSONWriter()
        out.member("class", string: "ATT")
        var any = false
        for key in attNumbers {
            if let n = number(report[key]) {
                out.member(key, number: n)
                any = true
            }
        }
        return any ? out.close() : nil
    }

    private static func sky(_ report: JSONValue, maximumSatellites: Int) -> String? {
        var out = JSONWriter()
        out.member("class", string: "SKY")
        if let time = time(report["time"]) { out.member("time", string: time) }
        for key in skyNumbers { if let n = number(report[key]) { out.member(key, number: n) } }
        var satellites: [String] = []
        var used = 0
        if let list = report["satellites"] {
            // A SKY's satellites are a list, or it is not a SKY.
            guard let entries = list.array else { return nil }
            for entry in entries where satellites.count < maximumSatellites {
                guard let (text, isUsed) = satellite(entry) else { continue }
                satellites.append(text)
                if isUsed { used += 1 }
            }
        }
        // Every libgps counts the list itself when told its length (3.25 reads none without).
        out.member("nSat", int: satellites.count)
        out.member("uSat", int: used)
        out.member("satellites", raw: "[" + satellites.joined(separator: ",") + "]")
        return out.close()
    }

    /// One satellite, or nil when it names none: a PRN, or a constellation and its number.
    private static func satellite(_ entry: JSONValue) -> (String, Bool)? {
        guard case .object = entry else { return nil }
        let prn = entry["PRN"]?.int.flatMap { (1...1023).contains($0) ? $0 : nil }
        let gnssid = entry["gnssid"]?.int.flatMap { (0...15).contains($0) ? $0 : nil }
        let svid = entry["svid"]?.int.flatMap { (1...255).contains($0) ? $0 : nil }
        guard prn != nil || (gnssid != nil && svid != nil) else { return nil }
        var out = JSONWriter()
        out.member("PRN", int: prn ?? 0)
        if let gnssid, let svid {
            out.member("gnssid", int: gnssid)
            out.member("svid", int: svid)
        }
        for key in satelliteNumbers { if let n = number(entry[key]) { out.member(key, number: n) } }
        let used = entry["used"]?.bool ?? false
        out.member("used", bool: used)
        return (out.close(), used)
    }

    /// A number libgps can hold as a double; huge values are unknown here already (`Bounds`
    /// judges the rest after decoding).
    private static func number(_ value: JSONValue?) -> Double? {
        guard let n = value?.double, n.isFinite, abs(n) < 1e9 else { return nil }
        return n
    }

    /// An ISO 8601 time as gpsd writes it ("2019-01-01T00:00:01.500Z"), of its characters only.
    private static func time(_ value: JSONValue?) -> String? {
        guard let text = value?.string, (10...40).contains(text.utf8.count),
              text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x3A || $0 == 0x2E
                                     || $0 == 0x54 || $0 == 0x5A || $0 == 0x2B }) else { return nil }
        return text
    }
}

/// A JSON object written member by member, of values already checked: no escaping is needed
/// because no string written holds anything but the characters checked for.
private struct JSONWriter {
    private var text = "{"

    mutating func member(_ key: String, raw: String) {
        if text.utf8.count > 1 { text += "," }
        text += "\"" + key + "\":" + raw
    }

    mutating func member(_ key: String, string: String) { member(key, raw: "\"" + string + "\"") }
    mutating func member(_ key: String, int: Int) { member(key, raw: String(int)) }
    mutating func member(_ key: String, bool: Bool) { member(key, raw: bool ? "true" : "false") }
    mutating func member(_ key: String, number: Double) {
        // Swift's shortest form that reads back the same: "3.0", "1e-05"; finite, as checked.
        member(key, raw: number.description)
    }

    mutating func close() -> String { text + "}" }
}
