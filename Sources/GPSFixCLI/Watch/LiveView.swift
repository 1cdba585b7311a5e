import NMEA
import GPSLocation

/// The live view's picture: what the events so far have said, laid out as lines of text for
/// a screen of a given size. No I/O and no clock of its own (the time comes in), so a test can
/// check any frame.
struct LiveView: Sendable {
    /// What the source is: a device path, "gpsd at …", a capture path.
    let source: String
    /// What kind of source it is: its statuses read differently (a device is unplugged, gpsd
    /// goes away).
    let kind: SourceKind
    /// Block and box-drawing characters; plain ASCII where the terminal's locale is not UTF-8.
    let unicode: Bool
    /// Whether the state in the title is coloured (green with a fix, yellow while waiting,
    /// red when the source is lost or failed), where the terminal has colours.
    let colour: Bool

    private(set) var fix: Fix?
    /// When the last fix arrived, in seconds on the caller's clock. Its age counts from here,
    /// not from the fix's own time: a replayed fix is years old, a receiver's clock is not ours.
    private(set) var fixArrival: Double?
    private(set) var sky: SkyView?
    /// The last attitude and marine data any fix carried: an instrument beside the receiver
    /// may speak less often than the receiver, and its rows stay rather than blink.
    private(set) var attitude: Attitude?
    private(set) var marine: MarineData?
    private(set) var status: SourceStatus?
    private(set) var failure: LocationError?
    /// The receiver's last note (TXT: "ANTENNA OK"), shown under the counters.
    private(set) var note: ReceiverNote?
    private(set) var fixes = 0
    private(set) var skyViews = 0
    /// What the engine counted, when the source shares it (a gpsd source does not).
    private(set) var tally: Tally?

    init(source: String, kind: SourceKind = .receiver, unicode: Bool, colour: Bool = false) {
        self.source = source
        self.kind = kind
        self.unicode = unicode
        self.colour = colour
    }

    /// The engine's counts as the view shows them.
    struct Tally: Equatable, Sendable {
        /// Sentences that passed their checksum, of every type.
        var sentences: Int
        var badChecksums: Int
        /// Malformed, cut off, too long to be a sentence, or values out of range.
        var otherErrors: Int

        init(sentences: Int, badChecksums: Int, otherErrors: Int) {
            self.sentences = sentences
            self.badChecksums = badChecksums
            self.otherErrors = otherErrors
        }

        init(_ s: Statistics) {
            self.init(sentences: s.sentences.decoded + s.sentences.unknown,
                      badChecksums: s.sentences.badChecksum,
                      otherErrors: s.sentences.malformed + s.framing.truncated + s.framing.overlong
                          + s.sentences.outOfRange)
        }
    }

    /// Takes in one event that arrived at `time` (seconds, the same clock as `lines(now:)`).
    mutating func apply(_ event: LocationEvent, at time: Double) {
        switch event {
        case .fix(let f):
            fix = f
            fixArrival = time
            fixes += 1
            if let a = f.attitude { attitude = a }
            if let m = f.marine { marine = m }
        case .sky(let s):
            sky = s
            skyViews += 1
        case .status(let s):
            status = s
            // The run's own count is complete; a snapshot taken earlier would not be.
            if case .finished(let statistics) = s { tally = Tally(statistics) }
        case .error(let e):
            failure = e
        case .note(let n):
            note = n
        case .sentence:
            break
        }
    }

    /// The engine's running counts, as the source last shared them. Once the run's own total
    /// has come (`.finished`), it stands: a snapshot may be a moment older.
    mutating func update(_ counted: Statistics) {
        if case .finished? = status { return }
        tally = Tally(counted)
    }

    // MARK: - The frame

    /// The frame for a screen `width` columns wide and `height` rows high, at `now`. Never more
    /// rows than `height` nor a row longer than `width`: the sky table gives way first.
    func lines(now: Double, width: Int, height: Int) -> [String] {
        guard width > 0, height > 0 else { return [] }
        let top = title(width: width) + [rule(width), ""] + fixLines(now: now) + [""]
        let skyHead = skyHeading()
        let table = skyRows()
        var rows = table.map(\.text)
        let bottom = ["", counters()] + (note.map { ["Receiver  " + ReceiverNoteLog.words($0)] } ?? [])
        let room = height - top.count - skyHead.count - bottom.count
        if rows.count > room {
            // Cut the table, and say by how much, rather than push the counters off screen.
            let kept = max(0, room - 1)
            let hidden = table[kept...].filter(\.isSatellite).count
            rows = Array(rows[..<kept]) + (room >= 1 ? ["  +\(hidden) more (a taller window shows them)"] : [])
        }
        var frame = (top + skyHead + rows + bottom).prefix(height).map { LiveViewText.truncate(plain($0), width) }
        if colour, let title = frame.first { frame[0] = coloured(title) }
        return frame
    }

    /// The title with its state in colour (SGR), once cut to the screen's width: escapes take
    /// no columns, so they are added after the cutting, around what is left of the state.
    private func coloured(_ title: String) -> String {
        let state = plain(statusText)
        guard !state.isEmpty, title.hasSuffix(state) else { return title }
        let sgr = switch status {
        case _ where failure != nil: "31"
        case .disconnected?, .reconnecting?: "31"
        case .waiting?, .stale?: "33"
        case .finished?, .stopped?: "36"
        case .started?, .streaming?, nil: fix?.hasFix == true && fix?.coordinate != nil ? "32" : "33"
        }
        return String(title.dropLast(state.count)) + "\u{1B}[\(sgr)m" + state + "\u{1B}[0m"
    }

    /// The one count of satellites used that the view shows, in the fix's row and the sky's
    /// alike: the sky's, which names them (GSA), where it has any; else the fix's number (GGA).
    /// Receivers' two counts can differ by one (12 and 13 on one screen looked like a bug).
    private var satellitesUsed: Int? {
        if let sky, sky.satellites.contains(where: \.used) { return sky.satellitesUsed }
        return fix?.satellitesUsed ?? sky.map(\.satellitesUsed)
    }

    /// The source on the left, what it is doing on the right.
    private func title(width: Int) -> [String] {
        let left = "gpsfix watch  " + source
        let right = statusText
        let gap = width - left.count - right.count
        return [gap >= 2 ? left + String(repeating: " ", count: gap) + right : left + "  " + right]
    }

    /// What the source is doing, in the words of someone watching it.
    var statusText: String {
        if let failure { return "failed: \(failure)" }
        return StatusWords.label(status, kind: kind, fix: fix)
    }

    private func rule(_ width: Int) -> String {
        String(repeating: unicode ? "─" : "-", count: width)
    }

    // MARK: - The fix

    private static let labelWidth = 11

    private func row(_ label: String, _ value: String) -> String {
        LiveViewText.pad(label, Self.labelWidth) + value
    }

    private func fixLines(now: Double) -> [String] {
        let dash = "—"
        guard let fix else {
            return [row("Time", dash), row("Position", "waiting for fix")]
                + ["Altitude", "Speed", "Fix", "DOP", "Accuracy"].map { row($0, dash) }
        }
        let T = LiveViewText.self
        var time = fix.timestamp.map(T.time) ?? dash
        if let fixArrival { time += "   age " + T.age(now - fixArrival) }

        var position = "no fix"
        if fix.hasFix, let c = fix.coordinate {
            position = T.decimal(c.latitude.magnitude, 7) + (c.latitude < 0 ? " S   " : " N   ")
                + T.decimal(c.longitude.magnitude, 7) + (c.longitude < 0 ? " W" : " E")
        }

        var altitude = (fix.altitude.map { T.decimal($0, 1) + " m" } ?? dash) + " MSL   "
            + (fix.ellipsoidalAltitude.map { T.decimal($0, 1) + " m" } ?? dash) + " ellipsoidal"
        if let g = fix.geoidSeparation { altitude += "   geoid " + T.decimal(g, 1) + " m" }

        var speed = fix.speed.map { T.decimal($0, 2) + " m/s (" + T.decimal($0 * 3.6, 1) + " km/h)" } ?? dash
        speed += "   course " + (fix.course.map { T.bearing($0, 1) + degree + " " + T.compassPoint($0) } ?? dash)
        if let climb = fix.climb { speed += "   climb " + (climb > 0 ? "+" : "") + T.decimal(climb, 2) + " m/s" }

        var mode = T.mode(fix.mode)
        if let q = fix.quality { mode += "   " + q.name }
        mode += "   " + (satellitesUsed.map { "\($0) satellites used" } ?? "satellites used —")

        let dop = fix.dop.position == nil && fix.dop.horizontal == nil ? (sky?.dop ?? fix.dop) : fix.dop
        func d(_ name: String, _ value: Double?) -> String { name + " " + (value.map { T.decimal($0, 1) } ?? dash) }
        let dops = [d("PDOP", dop.position), d("HDOP", dop.horizontal), d("VDOP", dop.vertical), d("TDOP", dop.time)]
            .joined(separator: "   ")

        func plusMinus(_ value: Double?) -> String { value.map { "±" + T.decimal($0, 1) + " m" } ?? dash }
        var accuracy = "horizontal " + plusMinus(fix.horizontalAccuracy) + "   vertical " + plusMinus(fix.verticalAccuracy)
        if let epe = fix.sphericalError { accuracy += "   EPE " + T.decimal(epe, 1) + " m" }

        return [
            row("Time", time),
            row("Position", position),
            row("Altitude", altitude),
            row("Speed", speed),
            row("Fix", mode),
            row("DOP", dops),
            row("Accuracy", accuracy),
        ] + instrumentLines()
    }

    /// What the instruments beside the receiver said last, a row for each that said anything:
    /// the heading and attitude, the water, the wind.
    private func instrumentLines() -> [String] {
        let T = LiveViewText.self
        var rows: [String] = []
        func angle(_ value: Double) -> String { T.decimal(value, 1) + degree }
        if let a = attitude {
            var parts: [String] = []
            if let h = a.heading { parts.append(T.bearing(h, 1) + degree + " true " + T.compassPoint(h)) }
            if let h = a.magneticHeading { parts.append(T.bearing(h, 1) + degree + " magnetic") }
            if let p = a.pitch { parts.append("pitch " + angle(p)) }
            if let r = a.roll { parts.append("roll " + angle(r)) }
            if let t = a.rateOfTurn { parts.append("turn " + angle(t) + "/min") }
            if !parts.isEmpty { rows.append(row("Heading", parts.joined(separator: "   "))) }
        }
        guard let m = marine else { return rows }
        var water: [String] = []
        if let d = m.depth { water.append("depth " + T.decimal(d, 1) + " m") }
        if let o = m.transducerOffset { water.append("offset " + T.decimal(o, 1) + " m") }
        if let t = m.waterTemperature { water.append(T.decimal(t, 1) + degree + "C") }
        if !water.isEmpty { rows.append(row("Water", water.joined(separator: "   "))) }
        var wind: [String] = []
        func speed(_ v: Double?) -> String { v.map { " " + T.decimal($0, 1) + " m/s" } ?? "" }
        if m.apparentWindAngle != nil || m.apparentWindSpeed != nil {
            wind.append("apparent " + (m.apparentWindAngle.map { T.bearing($0, 0) + degree } ?? "—") + speed(m.apparentWindSpeed))
        }
        if m.trueWindAngle != nil || m.trueWindSpeed != nil {
            wind.append("true " + (m.trueWindAngle.map { T.bearing($0, 0) + degree } ?? "—") + speed(m.trueWindSpeed))
        }
        if let d = m.trueWindDirection { wind.append("from " + T.bearing(d, 0) + degree + " " + T.compassPoint(d)) }
        if !wind.isEmpty { rows.append(row("Wind", wind.joined(separator: "   "))) }
        return rows
    }

    private var degree: String { unicode ? "°" : "" }

    // MARK: - The sky

    private static let barCells = 20
    /// dB-Hz that fills the bar: a strong signal under an open sky.
    private static let fullScale = 50.0

    private func skyHeading() -> [String] {
        guard let sky, !sky.satellites.isEmpty else {
            return [row("Sky", sky == nil ? "no satellites reported yet" : "no satellites in view")]
        }
        let header = "  " + LiveViewText.pad("Sat", 6) + LiveViewText.pad("Elev", 6, right: true)
            + LiveViewText.pad("Azim", 7, right: true) + LiveViewText.pad("SNR", 6, right: true) + "  "
            + LiveViewText.pad("Signal (dB-Hz)", Self.barCells) + "  Used"
        return [row("Sky", "\(sky.satellites.count) satellites in view, \(satellitesUsed ?? sky.satellitesUsed) used"), header]
    }

    /// A heading per constellation, then its satellites in number order.
    private func skyRows() -> [(text: String, isSatellite: Bool)] {
        guard let sky else { return [] }
        var rows: [(text: String, isSatellite: Bool)] = []
        var i = 0
        let all = sky.satellites
        while i < all.count {
            let constellation = all[i].id.constellation
            var end = i
            while end < all.count && all[end].id.constellation == constellation { end += 1 }
            let group = all[i..<end]
            let used = group.reduce(0) { $0 + ($1.used ? 1 : 0) }
            rows.append((" " + constellation.name + "  \(group.count) in view, \(used) used", false))
            rows += group.map { (satelliteRow($0), true) }
            i = end
        }
        return rows
    }

    private func satelliteRow(_ s: Satellite) -> String {
        let T = LiveViewText.self
        let dash = "—"
        let elevation = s.elevation.map { T.decimal($0, 0) + degree } ?? dash
        let azimuth = s.azimuth.map { T.bearing($0, 0) + degree } ?? dash
        let snr = s.snr.map { T.decimal($0, 0) } ?? dash
        return "  " + T.pad(T.satellite(s.id), 6) + T.pad(elevation, 6, right: true) + T.pad(azimuth, 7, right: true)
            + T.pad(snr, 6, right: true) + "  " + T.pad(bar(s.snr), Self.barCells) + "  "
            + (s.used ? (unicode ? "  ✓" : "  *") : "")
    }

    /// The signal as a bar of `barCells` cells, to an eighth of a cell where blocks allow.
    func bar(_ snr: Double?) -> String {
        guard let snr, snr.isFinite, snr > 0 else { return "" }
        let cells = min(snr / Self.fullScale, 1) * Double(Self.barCells)
        guard unicode else { return String(repeating: "#", count: Int(cells.rounded())) }
        let eighths = Int((cells * 8).rounded())
        let partial = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        return String(repeating: "█", count: eighths / 8) + partial[eighths % 8]
    }

    // MARK: - Counters

    private func counters() -> String {
        let dash = "—"
        let sentences = tally.map { "\($0.sentences)" } ?? dash
        let bad = tally.map { "\($0.badChecksums)" } ?? dash
        let other = tally.map { "\($0.otherErrors)" } ?? dash
        return "Sentences \(sentences)   bad checksums \(bad)   other errors \(other)   fixes \(fixes)   sky views \(skyViews)"
    }

    /// The few non-ASCII characters written as ASCII where the terminal cannot show them.
    private func plain(_ line: String) -> String {
        guard !unicode else { return line }
        var out = ""
        for c in line {
            switch c {
            case "—": out += "-"
            case "±": out += "+/-"
            case "…": out += "..."
            default: out.append(c)
            }
        }
        return out
    }
}
