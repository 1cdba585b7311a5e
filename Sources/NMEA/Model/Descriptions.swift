// What `print`, string interpolation, test failures and a debugger show of the engine's values:
// the members the receiver stated, in units, never the storage behind them (`Unknowable`'s NaN).
// Written by hand because the engine has no Foundation to format numbers with.

extension Fix: CustomStringConvertible, CustomDebugStringConvertible {
    /// "Fix(52.1234567, 4.1234567, alt 12.3 m, 3D, 2026-12-02T01:02:03Z)": what a person
    /// looks at first; `debugDescription` has every member known.
    public var description: String {
        var parts: [String] = []
        if let c = coordinate { parts.append(c.description) }
        if let altitude { parts.append("alt \(fixed(altitude, 1)) m") }
        if let speed { parts.append("\(fixed(speed, 2)) m/s") }
        if let course { parts.append("course \(fixed(course, 1))°") }
        if let horizontalAccuracy { parts.append("±\(fixed(horizontalAccuracy, 1)) m") }
        parts.append(mode.words)
        if let timestamp { parts.append(timestamp.iso8601) }
        if isPartialEpoch { parts.append("partial") }
        return "Fix(\(parts.joined(separator: ", ")))"
    }

    /// Every member the receiver stated, by its name, at full precision.
    public var debugDescription: String {
        var parts: [String] = []
        func add(_ name: String, _ value: Double?) { if let value { parts.append("\(name): \(value)") } }
        if let c = coordinate { parts.append("coordinate: \(c.latitude), \(c.longitude)") }
        add("altitude", altitude)
        add("ellipsoidalAltitude", ellipsoidalAltitude)
        add("geoidSeparation", geoidSeparation)
        add("speed", speed)
        add("course", course)
        add("magneticVariation", magneticVariation)
        add("climb", climb)
        add("horizontalAccuracy", horizontalAccuracy)
        add("verticalAccuracy", verticalAccuracy)
        add("latitudeError", latitudeError)
        add("longitudeError", longitudeError)
        add("sphericalError", sphericalError)
        add("arrival", arrival)
        if let dop = dop.words { parts.append("dop: \(dop)") }
        if let timestamp { parts.append("timestamp: \(timestamp.iso8601)") }
        if let satellitesUsed { parts.append("satellitesUsed: \(satellitesUsed)") }
        if let e = errorStatistics { parts.append("errorStatistics: \(e.words)") }
        if let attitude { parts.append("attitude: \(attitude)") }
        if let marine { parts.append("marine: \(marine)") }
        parts.append("mode: \(mode.words)")
        if let quality { parts.append("quality: \(quality.name)") }
        if let navigationalStatus { parts.append("navigationalStatus: \(navigationalStatus)") }
        if let datum { parts.append("datum: \(datum.name)") }
        if isPartialEpoch { parts.append("isPartialEpoch: true") }
        return "Fix(\(parts.joined(separator: ", ")))"
    }
}

extension SkyView: CustomStringConvertible, CustomDebugStringConvertible {
    /// "SkyView(12 satellites, 8 used, 01:02:03Z)".
    public var description: String {
        var parts = ["\(satellites.count) satellite\(satellites.count == 1 ? "" : "s")", "\(satellitesUsed) used"]
        if let timestamp { parts.append(timestamp.iso8601) }
        return "SkyView(\(parts.joined(separator: ", ")))"
    }

    /// Each satellite as well.
    public var debugDescription: String {
        var parts = [description]
        if let dop = dop.words { parts.append("dop: \(dop)") }
        parts.append("[\(satellites.map(\.description).joined(separator: "; "))]")
        return parts.joined(separator: " ")
    }
}

extension Satellite: CustomStringConvertible {
    /// "GPS 5 (el 45°, az 120°, 38 dB-Hz, used)".
    public var description: String {
        var parts: [String] = []
        if let elevation { parts.append("el \(fixed(elevation, 0))°") }
        if let azimuth { parts.append("az \(fixed(azimuth, 0))°") }
        if let snr { parts.append("\(fixed(snr, 0)) dB-Hz") }
        if used { parts.append("used") }
        if let rangeResidual { parts.append("residual \(fixed(rangeResidual, 2)) m") }
        let name = "\(id.constellation.name) \(id.svid)"
        return parts.isEmpty ? name : "\(name) (\(parts.joined(separator: ", ")))"
    }
}

extension Statistics: CustomStringConvertible {
    /// "Statistics(120 sentences, 3 bad checksums, 40 epochs, 38 fixes)": the counts that are
    /// not zero beyond those four.
    public var description: String {
        var parts = ["\(sentences.decoded + sentences.unknown) sentences"]
        func add(_ count: Int, _ what: String) { if count != 0 { parts.append("\(count) \(what)") } }
        add(sentences.unknown, "of unknown kinds")
        add(sentences.badChecksum, "bad checksums")
        add(sentences.malformed, "malformed")
        add(sentences.outOfRange, "values out of range")
        add(framing.junkBytes, "junk bytes")
        parts.append("\(epochs.epochs) epochs")
        parts.append("\(epochs.fixes) fixes")
        return "Statistics(\(parts.joined(separator: ", ")))"
    }
}

extension FixMode {
    fileprivate var words: String {
        switch self {
        case .noFix: "no fix"
        case .twoD: "2D"
        case .threeD: "3D"
        }
    }
}

extension FixTime: CustomStringConvertible {
    /// "2026-12-02T01:02:03Z", "01:02:03.250Z" without a date.
    fileprivate var iso8601: String {
        var text = ""
        if let date { text = date.description + "T" }
        return text + time.description + "Z"
    }

    /// The time as ISO 8601 in UTC: "2026-12-02T01:02:03Z", or "01:02:03.250Z" while the
    /// receiver has not said the date.
    public var description: String { iso8601 }
}

extension TimeOfDay: CustomStringConvertible {
    /// "01:02:03", or "01:02:03.250" with milliseconds; "23:59:60" for a leap second.
    public var description: String {
        var text = "\(padded(hour, 2)):\(padded(minute, 2)):\(padded(second, 2))"
        if millisecond != 0 { text += ".\(padded(millisecond, 3))" }
        return text
    }
}

extension CalendarDate: CustomStringConvertible {
    /// "2026-12-02".
    public var description: String { "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))" }
}

extension Coordinate: CustomStringConvertible {
    /// "52.1234567, -4.1234567": latitude then longitude in degrees, to seven decimals (a
    /// centimetre), as a map's search box takes them.
    public var description: String { "\(fixed(latitude, 7)), \(fixed(longitude, 7))" }
}

extension DilutionOfPrecision {
    /// "p 1.8 h 0.9 v 1.5 t 1.1", the known ones; nil when none is.
    fileprivate var words: String? {
        let known = [("p", position), ("h", horizontal), ("v", vertical), ("t", time)]
            .compactMap { name, value in value.map { "\(name) \($0)" } }
        return known.isEmpty ? nil : known.joined(separator: " ")
    }
}

extension ErrorStatistics {
    fileprivate var words: String {
        let known = [("rms", rms), ("semiMajor", semiMajor), ("semiMinor", semiMinor), ("orientation", orientation),
                     ("latitudeError", latitudeError), ("longitudeError", longitudeError),
                     ("altitudeError", altitudeError)]
            .compactMap { name, value in value.map { "\(name) \($0)" } }
        return "(\(known.joined(separator: ", ")))"
    }
}

extension Attitude: CustomStringConvertible {
    /// "Attitude(heading 25.5°, pitch 1.2°, rate of turn 3.0°/min)": the members known.
    public var description: String {
        let known = [("heading", heading, "°"), ("magnetic heading", magneticHeading, "°"), ("pitch", pitch, "°"),
                     ("roll", roll, "°"), ("rate of turn", rateOfTurn, "°/min")]
            .compactMap { name, value, unit in value.map { "\(name) \(fixed($0, 1))\(unit)" } }
        return "Attitude(\(known.joined(separator: ", ")))"
    }
}

extension MarineData: CustomStringConvertible {
    /// "MarineData(depth 5.40 m, water 14.5 °C, apparent wind 57.5°, apparent wind 6.7 m/s)":
    /// the members known.
    public var description: String {
        let known = [("depth", depth, 2, " m"), ("transducer offset", transducerOffset, 2, " m"),
                     ("water", waterTemperature, 1, " °C"), ("apparent wind", apparentWindAngle, 1, "°"),
                     ("apparent wind", apparentWindSpeed, 1, " m/s"), ("true wind", trueWindAngle, 1, "° off the bow"),
                     ("true wind from", trueWindDirection, 1, "° true"), ("true wind from", magneticWindDirection, 1, "° magnetic"),
                     ("true wind", trueWindSpeed, 1, " m/s")]
            .compactMap { name, value, decimals, unit in value.map { "\(name) \(fixed($0, decimals))\(unit)" } }
        return "MarineData(\(known.joined(separator: ", ")))"
    }
}

/// `value` with `decimals` digits after the point, rounded half away from zero. Of `package`
/// access: GPSStats' pictures write their numbers with it too.
package func fixed(_ value: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (value * scale).rounded()
    // Beyond 2^53 the digits are not the value's anyway, and beyond Int's range a conversion
    // would trap: Swift's own shortest form says it as well as anything.
    guard value.isFinite, scaled.magnitude < 9.0e15 else { return "\(value)" }
    let units = Int(scaled.magnitude)
    let whole = units / Int(scale), fraction = units % Int(scale)
    let sign = scaled < 0 ? "-" : ""
    return decimals == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(padded(fraction, decimals))"
}

private func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
