import NMEA
import GPSLocation

/// The live view's numbers and words, as short fixed-format strings. No Foundation: a frame
/// is a few dozen of these, ten times a second at most.
enum LiveViewText {
    /// `x` rounded to `places` decimals; "—" for what is not a number.
    static func decimal(_ x: Double, _ places: Int) -> String {
        guard x.isFinite else { return "—" }
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = (x.magnitude * Double(scale)).rounded()
        // Beyond what an Int holds no reading is plausible: say so rather than trap.
        guard scaled < 9e15 else { return x < 0 ? "-huge" : "huge" }
        let n = Int(scaled)
        var text = (x < 0 && n != 0 ? "-" : "") + String(n / scale)
        if places > 0 {
            let fraction = String(n % scale)
            text += "." + String(repeating: "0", count: places - fraction.count) + fraction
        }
        return text
    }

    /// `2019-04-12 12:00:03.000 UTC`; the date is left out until the stream has told one.
    static func time(_ t: FixTime) -> String {
        var text = ""
        if let d = t.date { text = digits(d.year, 4) + "-" + digits(d.month, 2) + "-" + digits(d.day, 2) + " " }
        let clock = t.time
        return text + digits(clock.hour, 2) + ":" + digits(clock.minute, 2) + ":" + digits(clock.second, 2)
            + "." + digits(clock.millisecond, 3) + " UTC"
    }

    /// How long ago, to a tenth of a second while that still matters.
    static func age(_ seconds: Double) -> String {
        let s = max(0, seconds)
        if s < 60 { return decimal(s, 1) + " s" }
        let whole = Int(s)
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h \(whole / 60 % 60) min"
    }

    /// The nearest of the 16 compass points to a course in degrees true.
    /// A bearing (course, azimuth) to `places` decimals, in [0, 360) as printed: 359.96 to
    /// one place would round to 360.0, the same direction as 0.0, and is written so, as the
    /// JSON and text outputs write it (`ByteWriter.append(bearing:)`).
    static func bearing(_ degrees: Double, _ places: Int) -> String {
        let text = decimal(degrees, places)
        guard degrees < 360, text.hasPrefix("360") else { return text }
        return decimal(0, places)
    }

    static func compassPoint(_ degrees: Double) -> String {
        let points = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
        guard degrees.isFinite else { return "" }
        let index = Int((degrees / 22.5).rounded()) % 16
        return points[(index + 16) % 16]
    }

    /// The RINEX letter and number a satellite is known by (`G04`, `R12`, `E05`, `C21`).
    static func satellite(_ id: SatelliteID) -> String {
        let letter = switch id.constellation {
        case .gps: "G"
        case .sbas: "S"
        case .galileo: "E"
        case .beidou: "C"
        case .qzss: "J"
        case .glonass: "R"
        case .navic: "I"
        case .imes: "M"   // RINEX has no letter for IMES
        }
        return letter + digits(id.svid, 2)
    }

    static func mode(_ mode: FixMode) -> String {
        switch mode {
        case .noFix: "no fix"
        case .twoD: "2D"
        case .threeD: "3D"
        }
    }

    /// Zero-padded to at least `width` digits.
    static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value.magnitude)
        let padded = text.count < width ? String(repeating: "0", count: width - text.count) + text : text
        return value < 0 ? "-" + padded : padded
    }

    /// `text` widened with spaces to `width` columns, on the left when `right` (for numbers).
    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let count = text.count
        guard count < width else { return text }
        let space = String(repeating: " ", count: width - count)
        return right ? space + text : text + space
    }

    /// At most `width` columns: rows are cut, never wrapped, on a narrow terminal. Every
    /// character the view writes takes one column.
    static func truncate(_ line: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        return line.count <= width ? line : String(line.prefix(width))
    }
}
