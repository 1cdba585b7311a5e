import NMEA
import GPSLocation
import GPSOutput

/// The whole engine on one input, as a hostile stream would deliver it, with every output it
/// makes checked: the body of the fuzz target (`make fuzz`) and of the crash regression tests,
/// so that a reproducer the fuzzer finds runs the same code in `make test`.
///
/// The input chooses its own chunking: its first byte seeds the chunk sizes (a serial line
/// delivers a sentence in pieces anywhere), its second bit asks for simulated fixes; the rest
/// is the stream.
public enum EngineCheck {
    /// Runs the input and returns what broke an invariant (empty when all held). Traps only
    /// where the engine or a formatter itself traps.
    ///
    /// Beside the invariants, two differentials: the same bytes fed whole give the same events
    /// and statistics as cut into the input's reads (framing and assembly cannot depend on
    /// where a read ends), and every fix and sky view printed as gpsd JSON reads back through
    /// the package's JSON reader within the ranges and equal within printed precision.
    public static func run(_ input: UnsafeRawBufferPointer) -> [String] {
        guard let control = input.first else { return [] }
        let stream = UnsafeRawBufferPointer(rebasing: input[1...])
        let parser = NMEAParser(acceptsSimulatedFixes: control & 0x80 != 0)
        var checker = Checker()
        var events: [EngineEvent] = []
        var sizes = ChunkSizes(seed: control)
        var offset = 0
        while offset < stream.count {
            let end = min(stream.count, offset + sizes.next())
            parser.parse(UnsafeRawBufferPointer(rebasing: stream[offset..<end])) { checker.check($0); events.append($0) }
            offset = end
        }
        parser.finish { checker.check($0); events.append($0) }
        checker.check(parser.statistics)
        checker.checkJSON(stream)
        if !sizes.isWhole {
            let whole = NMEAParser(acceptsSimulatedFixes: control & 0x80 != 0)
            var wholeEvents: [EngineEvent] = []
            whole.parse(stream) { wholeEvents.append($0) }
            whole.finish { wholeEvents.append($0) }
            if wholeEvents != events {
                let at = zip(wholeEvents, events).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(wholeEvents.count, events.count)
                checker.fail("whole and chunked differ at event \(at) of \(wholeEvents.count) whole, \(events.count) chunked")
            }
            if whole.statistics != parser.statistics { checker.fail("whole and chunked statistics differ") }
        }
        return checker.violations
    }

    public static func run(_ bytes: [UInt8]) -> [String] {
        bytes.withUnsafeBytes { run($0) }
    }
}

/// Chunk sizes from 1 to 64 bytes, or the whole input at once, from a tiny generator.
struct ChunkSizes {
    private var state: UInt8
    private let whole: Bool

    init(seed: UInt8) {
        state = seed | 1
        whole = seed & 0x7F == 0
    }

    /// Whether the input is fed in one read (then there is nothing to compare it with).
    var isWhole: Bool { whole }

    mutating func next() -> Int {
        guard !whole else { return Int.max / 2 }
        state = state &* 37 &+ 11
        return Int(state & 0x3F) + 1
    }
}

/// The invariants of every fix, sky view and formatted report.
struct Checker: ~Copyable {
    var violations: [String] = []
    private var track = GPXTrack()
    /// What the last formatter wrote (`ReadBack.swift` reads it back).
    var writer = ByteWriter()

    mutating func fail(_ what: String) { violations.append(what) }

    private mutating func within(_ name: String, _ value: Double?, _ bounds: some RangeExpression<Double>) {
        guard let value else { return }
        if !value.isFinite || !bounds.contains(value) { fail("\(name) \(value) out of range") }
    }

    private mutating func within(_ name: String, _ value: Double?, _ range: ValueRange) {
        guard let value else { return }
        if !value.isFinite || !range.contains(value) { fail("\(name) \(value) out of range") }
    }

    mutating func check(_ event: EngineEvent) {
        switch event {
        case .fix(let fix): check(fix)
        case .sky(let sky): check(sky)
        case .note(let note): check(note)
        }
    }

    /// A receiver's note: its text within its bound, its kind a number TXT can carry.
    mutating func check(_ note: ReceiverNote) {
        if note.text.utf8.count > ReceiverNote.maximumLength { fail("note of \(note.text.utf8.count) bytes") }
        if let s = note.severity, !(0...99).contains(s.rawValue) { fail("note severity \(s.rawValue)") }
    }

    mutating func check(_ fix: Fix) {
        if fix.hasFix != (fix.coordinate != nil) { fail("mode \(fix.mode) with coordinate \(String(describing: fix.coordinate))") }
        if let c = fix.coordinate {
            within("latitude", c.latitude, Bounds.latitude)
            within("longitude", c.longitude, Bounds.longitude)
        }
        // Every measurement a report carries within its row's range (`GPSDReportTable`).
        for member in GPSDReportTable.tpv { within("TPV \(member.name)", fix[keyPath: member.keyPath], member.range) }
        if let n = fix.satellitesUsed, !Bounds.satellites.contains(n) { fail("satellites used \(n)") }
        check(fix.dop)
        if let t = fix.timestamp { check(t) }
        if let e = fix.errorStatistics {
            for member in GPSDReportTable.gst { within("GST \(member.name)", e[keyPath: member.keyPath], member.range) }
        }
        if let m = fix.marine {
            for member in GPSDReportTable.tpvMarine { within("TPV \(member.name)", m[keyPath: member.keyPath], member.range) }
            within("transducer offset", m.transducerOffset, Bounds.transducerOffset)
            within("true wind angle", m.trueWindAngle, Bounds.course)
        }
        if let a = fix.attitude {
            for member in GPSDReportTable.att { within("ATT \(member.name)", a[keyPath: member.keyPath], member.range) }
        }

        writer.removeAll()
        GPSDJSON.tpv(fix, device: "fuzz", into: &writer)
        checkText("TPV")
        readBack(tpv: fix)
        writer.removeAll()
        GPSDJSON.gst(fix, device: GPSDJSON.Device("fuzz"), into: &writer)
        checkText("GST")
        readBack(gst: fix)
        writer.removeAll()
        GPSDJSON.att(fix, device: GPSDJSON.Device("fuzz"), into: &writer)
        checkText("ATT")
        readBack(att: fix)
        writer.removeAll()
        TextFormat.line(fix, into: &writer)
        checkText("text")
        if printed(contains: "  course 360") { fail("text line's course printed as 360") }
        writer.removeAll()
        track.add(fix, into: &writer)
        checkText("GPX")
    }

    mutating func check(_ sky: SkyView) {
        var seen: [SatelliteID] = []
        for s in sky.satellites {
            if seen.contains(s.id) { fail("satellite \(s.id) listed twice") }
            seen.append(s.id)
            for member in GPSDReportTable.satellite { within("satellite \(member.name)", s[keyPath: member.keyPath], member.range) }
            within("satellite range residual", s.rangeResidual, Bounds.rangeResidual)
        }
        if sky.satellitesUsed > sky.satellites.count { fail("more used than seen") }
        if sky.satellites.count > Bounds.satellites.upperBound { fail("\(sky.satellites.count) satellites in one sky view") }
        check(sky.dop)
        if let t = sky.timestamp { check(t) }
        writer.removeAll()
        GPSDJSON.sky(sky, device: "fuzz", into: &writer)
        checkText("SKY")
        readBack(sky: sky)
    }

    mutating func check(_ dop: DilutionOfPrecision) {
        // A fix's DOPs are a sky view's: held to the SKY rows' ranges.
        let sky = SkyView(dop: dop)
        for member in GPSDReportTable.sky { within("DOP \(member.name)", sky[keyPath: member.keyPath], member.range) }
    }

    mutating func check(_ t: FixTime) {
        if !(0..<86_401_000).contains(t.time.milliseconds) { fail("time of day \(t.time.milliseconds) ms") }
        if let d = t.date {
            if !Bounds.year.contains(d.year) { fail("year \(d.year)") }
            if CalendarDate(year: d.year, month: d.month, day: d.day) == nil { fail("date \(d)") }
            _ = t.millisecondsSinceEpoch
        }
    }

    mutating func check(_ s: Statistics) {
        let c = s.sentences
        if c.byKind.contains(where: { $0 < 0 }) || c.badChecksum < 0 || c.outOfRange < 0 { fail("negative count") }
    }

    /// A formatted report is text a reader can take: printable ASCII and newlines, and no
    /// number written as nan or inf.
    private mutating func checkText(_ what: String) {
        let bytes = writer.bytes
        if bytes.contains(where: { ($0 < 0x20 && $0 != 0x0A) || $0 > 0x7E }) {
            // Non-ASCII can only come from a source name; the fuzz source has none.
            fail("\(what) holds a control or non-ASCII byte")
        }
        if writesNonFinite(bytes) { fail("\(what) writes a non-finite number: \(String(decoding: bytes, as: UTF8.self))") }
    }

    /// `nan` or `inf` standing where a number would: not after a letter (as in "information").
    private func writesNonFinite(_ bytes: [UInt8]) -> Bool {
        let words: [[UInt8]] = [Array("nan".utf8), Array("inf".utf8)]
        guard bytes.count >= 3 else { return false }
        for i in 0...(bytes.count - 3) {
            let before = i > 0 ? bytes[i - 1] | 0x20 : 0
            if before >= 0x61 && before <= 0x7A { continue }
            for w in words where bytes[i] | 0x20 == w[0] && bytes[i + 1] | 0x20 == w[1] && bytes[i + 2] | 0x20 == w[2] {
                return true
            }
        }
        return false
    }
}
