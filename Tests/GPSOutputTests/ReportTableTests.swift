import Foundation
import NMEA
import GPSOutput
import Testing

/// `GPSDReportTable` is the one description of each report's measurements: the writer's
/// generated code and the README's table must be what its rows make, and each row's Swift
/// path must name the value its key path does.
@Suite("gpsd report tables")
struct ReportTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let writerFile = root.appendingPathComponent("Sources/GPSOutput/Reports/GPSDJSON+Members.swift")
    static let readme = root.appendingPathComponent("README.md")
    static let readmeStart = "<!-- members: made from Sources/GPSOutput/Reports/GPSDReportTable.swift; ReportTableTests checks it -->"
    static let readmeEnd = "<!-- end of members -->"
    /// Set to write the files again from the table rather than compare them.
    static let regenerating = ProcessInfo.processInfo.environment["GPSFIX_REGENERATE"] == "1"

    @Test("The writer's generated members are what the table's rows make")
    func writerIsGenerated() throws {
        let expected = ReportTableRendering.writerSource()
        if Self.regenerating { try expected.write(to: Self.writerFile, atomically: true, encoding: .utf8) }
        let kept = try String(contentsOf: Self.writerFile, encoding: .utf8)
        #expect(kept == expected, "GPSDJSON+Members.swift differs from GPSDReportTable: GPSFIX_REGENERATE=1 swift test --filter ReportTableTests")
    }

    @Test("The README's table of members is what the table's rows make")
    func readmeIsGenerated() throws {
        var readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let start = try #require(readme.range(of: Self.readmeStart), "README has no members table marker")
        let end = try #require(readme.range(of: Self.readmeEnd, range: start.upperBound..<readme.endIndex))
        let expected = "\n" + ReportTableRendering.readmeTable()
        if Self.regenerating {
            readme.replaceSubrange(start.upperBound..<end.lowerBound, with: expected)
            try readme.write(to: Self.readme, atomically: true, encoding: .utf8)
            return
        }
        #expect(String(readme[start.upperBound..<end.lowerBound]) == expected,
                "README's members table differs from GPSDReportTable: GPSFIX_REGENERATE=1 swift test --filter ReportTableTests")
    }

    /// Each row's value alone in an otherwise known-nothing record: the report must carry
    /// that member, printed as the row says, and nothing else the rows describe.
    private func writesOnlyItsOwn<Record>(_ rows: [ReportMember<Record>], blank: Record, value: (ReportMember<Record>) -> Double,
                                          report: (Record) throws -> (text: String, json: [String: Any])) throws {
        for row in rows {
            var record = blank
            let place = try #require(row.writableKeyPath, "\(row.name) cannot be written")
            record[keyPath: place] = value(row)
            let written = try report(record)
            let expected = value(row)
            let read = try #require((written.json[row.name] as? NSNumber)?.doubleValue, "\(row.name) not written from \(row.path): \(written.text)")
            var tolerance = 0.5
            for _ in 0..<row.decimals { tolerance /= 10 }
            #expect(abs(read - expected) <= tolerance, "\(row.name): \(read) for \(expected)")
            // The digits after the point are the row's.
            let printed = try #require(written.text.components(separatedBy: "\"\(row.name)\":").last?.prefix { $0 != "," && $0 != "}" })
            #expect(printed.split(separator: ".").last?.count == row.decimals, "\(row.name) printed \(printed)")
            for other in rows where other.path != row.path {
                #expect(written.json[other.name] == nil, "\(other.name) written when only \(row.name) is known: \(written.text)")
            }
        }
    }

    /// A value within the row's range, on its printed grid, and not zero (zero may mean unknown).
    private func sample<Record>(_ row: ReportMember<Record>) -> Double {
        let middle = row.range.lower / 2 + row.range.upper / 2
        let spot = middle == 0 ? 1.5 : (middle.magnitude > 1000 ? 1234.5 : middle * 0.7 + 1.25)
        return (spot * 100).rounded() / 100
    }

    @Test("Each TPV row's path and key path name the same value, and it is written with the row's decimals")
    func tpvRows() throws {
        var blank = Fix()
        blank.mode = .threeD
        blank.coordinate = Coordinate(latitude: 0, longitude: 0)
        // A derived member (a read-only key path) is written from others, never read back.
        let positional = GPSDReportTable.tpv.filter { $0.name != "lat" && $0.name != "lon" && $0.writableKeyPath != nil }
        try writesOnlyItsOwn(positional, blank: blank, value: sample) { fix in try Report { GPSDJSON.tpv(fix, into: &$0) }.both }
        #expect(GPSDReportTable.tpv.filter { $0.writableKeyPath == nil }.map(\.name) == ["lat", "lon", "magtrack"])
        // gpsd's magtrack is track plus magvar (a compass would subtract it).
        var fix = blank
        fix.course = 181.39
        fix.magneticVariation = 20.5
        let written = try Report { GPSDJSON.tpv(fix, into: &$0) }
        #expect(written.text.contains("\"magtrack\":201.8900"), "\(written.text)")
        #expect(abs((fix.magneticCourse ?? 0) - 160.89) < 1e-9)
        fix.course = 350
        #expect(written.text.contains("magtrack") && fix.gpsdMagneticTrack.map { abs($0 - 10.5) < 1e-9 } == true)
        // The position's two, each alone against the other at 0.
        for (row, coordinate) in [(GPSDReportTable.latitude, Coordinate(latitude: 12.5, longitude: 0)),
                                  (GPSDReportTable.longitude, Coordinate(latitude: 0, longitude: 12.5))] {
            var fix = blank
            fix.coordinate = coordinate
            #expect(fix[keyPath: row.keyPath] == 12.5, "\(row.name) reads \(row.path)")
            let written = try Report { GPSDJSON.tpv(fix, into: &$0) }
            #expect(written.double(row.name) == 12.5 && written.text.contains("\"\(row.name)\":12.500000000"), "\(written.text)")
        }
    }

    @Test("Each SKY, satellite and GST row's path and key path name the same value")
    func otherRows() throws {
        try writesOnlyItsOwn(GPSDReportTable.sky, blank: SkyView(), value: sample) { sky in try Report { GPSDJSON.sky(sky, into: &$0) }.both }
        let satellite = try #require(SatelliteID(gnssid: 0, svid: 7))
        try writesOnlyItsOwn(GPSDReportTable.satellite, blank: Satellite(id: satellite), value: sample) { s in
            // The satellite's entry, as text and as read.
            let written = try Report { GPSDJSON.sky(SkyView(satellites: [s]), into: &$0) }
            let entry = try #require((written["satellites"] as? [[String: Any]])?.first)
            let text = try #require(written.text.components(separatedBy: "\"satellites\":[").last)
            return (text, entry)
        }
        try writesOnlyItsOwn(GPSDReportTable.gst, blank: ErrorStatistics(), value: sample) { e in
            var fix = Fix()
            fix.errorStatistics = e
            return try Report { GPSDJSON.gst(fix, device: GPSDJSON.Device(nil), into: &$0) }.both
        }
    }

    @Test("Each marine TPV row and each ATT row names its value, written with the row's decimals, alone")
    func instrumentRows() throws {
        try writesOnlyItsOwn(GPSDReportTable.tpvMarine, blank: MarineData(), value: sample) { m in
            var fix = Fix(coordinate: Coordinate(latitude: 0, longitude: 0), mode: .threeD)
            fix.marine = m
            return try Report { GPSDJSON.tpv(fix, into: &$0) }.both
        }
        try writesOnlyItsOwn(GPSDReportTable.att, blank: Attitude(), value: sample) { a in
            var fix = Fix()
            fix.attitude = a
            return try Report { GPSDJSON.att(fix, device: GPSDJSON.Device(nil), into: &$0) }.both
        }
        // Without a fix a TPV carries no measurement, an instrument's neither (as gpsd writes it);
        // without an attitude there is no ATT.
        var noFix = Fix()
        noFix.marine = MarineData(depth: 5.4)
        #expect(try Report { GPSDJSON.tpv(noFix, into: &$0) }.json["depth"] == nil)
        var w = ByteWriter()
        GPSDJSON.att(Fix(), device: GPSDJSON.Device(nil), into: &w)
        let nothing = w.isEmpty
        #expect(nothing)
    }

    @Test("Every row's range is one of Bounds' (or magnetic variation with its sign), and names are unique in a class")
    func ranges() {
        for (name, rows) in GPSDReportTable.classes {
            #expect(Set(rows.map(\.name)).count == rows.count, "\(name) names a member twice")
            for row in rows { #expect(row.decimals >= 0 && row.decimals <= 9 && row.range.lower < row.range.upper, "\(name) \(row.name)") }
        }
        #expect(GPSDReportTable.tpv.first { $0.name == "track" }?.range == ValueRange(Bounds.course))
        #expect(GPSDReportTable.tpv.first { $0.name == "magvar" }?.range == ValueRange(-180.0...180.0))
        #expect(GPSDReportTable.gst.first { $0.name == "orient" }?.range == ValueRange(Bounds.orientation))
        #expect(ValueRange(Bounds.course).description == "0 to below 360")
        #expect(ValueRange(Bounds.altitude).description == "−11 000 to 1 000 000")
        #expect(ValueRange(Bounds.dop).description == "0.01 to 999.99")
    }

    @Test("A reader's range check: the upper end in or out as Bounds has it, and a zero that means unknown refused")
    func accepts() throws {
        let track = try #require(GPSDReportTable.tpv.first { $0.name == "track" })
        #expect(track.accepts(359.9) && !track.accepts(360) && !track.accepts(-0.1) && !track.accepts(.nan))
        #expect(GPSDReportTable.latitude.accepts(90) && !GPSDReportTable.latitude.accepts(90.000001))
        let ss = try #require(GPSDReportTable.satellite.first { $0.name == "ss" })
        #expect(!ss.accepts(0) && ss.accepts(0.5) && ss.accepts(99) && !ss.accepts(99.5))
    }
}

private extension Report {
    var both: (text: String, json: [String: Any]) { (text, json) }
}
