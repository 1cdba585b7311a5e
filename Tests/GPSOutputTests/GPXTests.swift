import NMEA
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import GPSLocation
import GPSOutput
import Testing

/// An XML element as Foundation's parser read it: enough of a tree to check a GPX document's
/// structure, and proof that the document is well-formed.
final class XMLElement {
    let name: String
    let attributes: [String: String]
    var children: [XMLElement] = []
    var text = ""

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    func all(_ name: String) -> [XMLElement] { children.filter { $0.name == name } }
    func first(_ name: String) -> XMLElement? { children.first { $0.name == name } }

    /// Parses `bytes`; nil (with the parser's complaint recorded) when they are not well-formed XML.
    static func parse(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> XMLElement? {
        let builder = Builder()
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            Issue.record("not well-formed XML (\(parser.parserError.map { "\($0)" } ?? "no root")):\n\(String(decoding: bytes, as: UTF8.self))",
                         sourceLocation: sourceLocation)
            return nil
        }
        return root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: XMLElement?
        var open: [XMLElement] = []

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            let element = XMLElement(name: name, attributes: attributes)
            if let parent = open.last { parent.children.append(element) } else { root = element }
            open.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            open.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            open.last?.text += string
        }
    }
}

/// A 3D fix at `second` past 12:00 on 2019-04-12, a little further north each second.
func trackFix(_ second: Int, date: CalendarDate? = date(2019, 4, 12)) -> Fix {
    var fix = Fix()
    fix.timestamp = FixTime(date: date, time: TimeOfDay(hour: 12, minute: 0, second: second))
    fix.mode = .threeD
    fix.quality = .gps
    fix.coordinate = Coordinate(latitude: 48.1173 + Double(second) * 1e-5, longitude: -11.5166667)
    fix.altitude = 545.4
    fix.ellipsoidalAltitude = 592.3
    fix.geoidSeparation = 46.9
    fix.satellitesUsed = 8
    fix.dop = DilutionOfPrecision(position: 2.5, horizontal: 1.3, vertical: 2.1)
    return fix
}

/// A fix event of an epoch without a position.
func noFix(_ second: Int) -> Fix {
    var fix = Fix()
    fix.timestamp = FixTime(date: date(2019, 4, 12), time: TimeOfDay(hour: 12, minute: 0, second: second))
    return fix
}

/// The whole document a track makes of `fixes`, and the track's state after it.
func document(_ events: [LocationEvent], source: String? = "/dev/ttyACM0") -> (bytes: [UInt8], track: GPXTrack) {
    var w = ByteWriter()
    var track = GPXTrack()
    track.start(source: source, into: &w)
    for event in events { track.record(event, into: &w) }
    track.finish(into: &w)
    return (w.bytes, track)
}

/// The one trackpoint line `fix` makes.
func trackpoint(_ fix: Fix) -> String {
    var w = ByteWriter()
    GPX.trackpoint(fix, into: &w)
    return String(decoding: w.bytes, as: UTF8.self)
}

@Suite("GPX track")
struct GPXTests {
    @Test("A document: GPX 1.1 by gpsfix, metadata saying ele is MSL, the source in <trk><src>")
    func documentShape() throws {
        // Given two fixes
        // When
        let (bytes, track) = document([.fix(trackFix(0)), .fix(trackFix(1))])

        // Then
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"gpsfix\""))
        #expect(text.hasSuffix("    </trkseg>\n  </trk>\n</gpx>\n"))
        let gpx = try #require(XMLElement.parse(bytes))
        #expect(gpx.name == "gpx")
        #expect(gpx.attributes["version"] == "1.1")
        #expect(gpx.attributes["creator"] == "gpsfix")
        #expect(gpx.attributes["xmlns"] == "http://www.topografix.com/GPX/1/1")
        #expect(gpx.children.map(\.name) == ["metadata", "trk"])
        let desc = try #require(gpx.first("metadata")?.first("desc")?.text)
        #expect(desc.contains("mean sea level"))
        let trk = try #require(gpx.first("trk"))
        #expect(trk.children.map(\.name) == ["src", "trkseg"])
        #expect(trk.first("src")?.text == "/dev/ttyACM0")
        #expect(trk.first("trkseg")?.all("trkpt").count == 2)
        #expect(track.points == 2 && track.segments == 1)
    }

    @Test("A fix without a position ends the segment; the next good fix opens a new one")
    func gapSplitsSegments() throws {
        // Given three fixes, two epochs without one, then two fixes
        let events: [LocationEvent] = [0, 1, 2].map { .fix(trackFix($0)) }
            + [.fix(noFix(3)), .fix(noFix(4))]
            + [5, 6].map { .fix(trackFix($0)) }

        // When
        let (bytes, track) = document(events)

        // Then: two segments of 3 and 2 points, in order
        let segments = try #require(XMLElement.parse(bytes)?.first("trk")?.all("trkseg"))
        #expect(segments.map { $0.all("trkpt").count } == [3, 2])
        let latitudes = segments.flatMap { $0.all("trkpt") }.compactMap { $0.attributes["lat"].flatMap(Double.init) }
        #expect(latitudes == [0, 1, 2, 5, 6].map { 48.1173 + Double($0) * 1e-5 })
        #expect(track.points == 5 && track.segments == 2)
    }

    @Test("The state, step by step: opened by a point, closed by a gap, reopened by the next point")
    func stateSteps() {
        // Given
        var w = ByteWriter()
        var track = GPXTrack()
        track.start(source: nil, into: &w)
        #expect(!track.isSegmentOpen)

        // When / Then
        #expect(track.add(trackFix(0), into: &w))
        #expect(track.isSegmentOpen && track.segments == 1)
        #expect(!track.add(noFix(1), into: &w))
        #expect(!track.isSegmentOpen)
        #expect(!track.add(noFix(2), into: &w), "a second gap closes nothing more")
        #expect(track.add(trackFix(3), into: &w))
        #expect(track.isSegmentOpen && track.segments == 2 && track.points == 2)
        let text = String(decoding: w.bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "<trkseg>").count - 1 == 2)
        #expect(text.components(separatedBy: "</trkseg>").count - 1 == 1)
    }

    @Test("A source that went away or fell silent ends the segment too; other news does not")
    func statusGaps() throws {
        // Given
        let events: [LocationEvent] = [
            .fix(trackFix(0)), .status(.streaming), .sky(SkyView()), .fix(trackFix(1)),
            .status(.disconnected(reason: "unplugged")), .status(.reconnecting(attempt: 1)), .fix(trackFix(2)),
            .status(.stale(after: .seconds(5))), .fix(trackFix(3)),
        ]

        // When
        let (bytes, _) = document(events)

        // Then
        let segments = try #require(XMLElement.parse(bytes)?.first("trk")?.all("trkseg"))
        #expect(segments.map { $0.all("trkpt").count } == [2, 1, 1])
    }

    @Test("A trackpoint: lat and lon to 9 decimals, ele MSL, time, fix, sat and DOPs, in the schema's order")
    func trackpointFields() throws {
        // Given a fix whose ellipsoidal height differs from its MSL altitude
        let fix = trackFix(7)

        // When
        let line = trackpoint(fix)

        // Then
        #expect(line == "      <trkpt lat=\"48.117370000\" lon=\"-11.516666700\"><ele>545.400</ele><time>2019-04-12T12:00:07.000Z</time><fix>3d</fix><sat>8</sat><hdop>1.30</hdop><vdop>2.10</vdop><pdop>2.50</pdop></trkpt>\n")
        let point = try #require(XMLElement.parse(Array(line.utf8)))
        #expect(point.children.map(\.name) == ["ele", "time", "fix", "sat", "hdop", "vdop", "pdop"])
        #expect(point.first("ele")?.text == "545.400", "ele is the MSL altitude, not the ellipsoidal 592.3")
    }

    @Test("Unknown values are left out, never written as zero")
    func unknownsOmitted() throws {
        // Given a 3D fix that says only where it is
        var fix = Fix()
        fix.mode = .threeD
        fix.coordinate = Coordinate(latitude: -45.8775672, longitude: 170.5001113)
        fix.dop.vertical = .nan

        // When
        let point = try #require(XMLElement.parse(Array(trackpoint(fix).utf8)))

        // Then
        #expect(point.children.map(\.name) == ["fix"])
        #expect(point.attributes["lat"] == "-45.877567200")
        #expect(point.attributes["lon"] == "170.500111300")
    }

    @Test("No <time> without a date (GPX time needs one), nor on a leap second (xsd:dateTime has no :60)")
    func timeNeedsDate() throws {
        // Given
        let undated = trackFix(1, date: nil)
        var leap = trackFix(0, date: date(2016, 12, 31))
        leap.timestamp = FixTime(date: date(2016, 12, 31), time: TimeOfDay(milliseconds: 86_400_000))

        // When
        let points = try [undated, leap].map { try #require(XMLElement.parse(Array(trackpoint($0).utf8))) }

        // Then: the points are kept, without a time
        for point in points {
            #expect(point.children.map(\.name) == ["ele", "fix", "sat", "hdop", "vdop", "pdop"])
        }
    }

    @Test("A 2D fix has no <ele>: its altitude was assumed or held, not measured")
    func twoDimensionalHasNoElevation() {
        var fix = trackFix(0)
        fix.mode = .twoD
        let line = trackpoint(fix)
        #expect(!line.contains("<ele>"))
        #expect(line.contains("<fix>2d</fix>"))
    }

    @Test("<fix> from the quality first (corrected: dgps, PPS: pps), else from the mode",
          arguments: [
              (FixMode.threeD, FixQuality?.some(.gps), "3d"),
              (.twoD, .gps, "2d"),
              (.threeD, nil, "3d"),
              (.threeD, .dgps, "dgps"),
              (.threeD, .rtkFixed, "dgps"),
              (.threeD, .rtkFloat, "dgps"),
              (.twoD, .precise, "pps"),
              (.threeD, .deadReckoning, "3d"),
              (.noFix, nil, "none"),
          ] as [(FixMode, FixQuality?, String)])
    func fixType(mode: FixMode, quality: FixQuality?, expected: String) {
        var fix = trackFix(0)
        fix.mode = mode
        fix.quality = quality
        #expect(String(describing: GPX.fixType(fix)) == expected)
    }

    @Test("180° E is written as -180: the schema's longitude stops short of 180")
    func antimeridian() {
        var east = trackFix(0)
        east.coordinate = Coordinate(latitude: -16.8, longitude: 180)
        var west = trackFix(1)
        west.coordinate = Coordinate(latitude: -16.8, longitude: -180)
        #expect(trackpoint(east).contains("lon=\"-180.000000000\""))
        #expect(trackpoint(west).contains("lon=\"-180.000000000\""))
    }

    @Test("A track without a single fix is still a complete document; finishing twice writes once")
    func emptyTrack() throws {
        // Given a source that never got a fix
        var w = ByteWriter()
        var track = GPXTrack()
        track.start(source: nil, into: &w)
        track.record(.fix(noFix(0)), into: &w)

        // When
        track.finish(into: &w)
        let finished = w.count
        track.finish(into: &w)
        let late = track.record(.fix(trackFix(1)), into: &w)

        // Then
        #expect(w.count == finished)
        #expect(!late)
        let gpx = try #require(XMLElement.parse(w.bytes))
        #expect(gpx.first("trk")?.children.isEmpty == true)
        #expect(track.points == 0 && track.segments == 0)
    }

    @Test("Finishing without a start still makes a whole document")
    func finishOnly() throws {
        var w = ByteWriter()
        var track = GPXTrack()
        track.finish(into: &w)
        #expect(XMLElement.parse(w.bytes)?.name == "gpx")
    }

    @Test("A source name with XML's special characters is escaped")
    func escapedSource() throws {
        let (bytes, _) = document([.fix(trackFix(0))], source: "gpsd at <a&b>:2947\u{1}")
        let src = try #require(XMLElement.parse(bytes)?.first("trk")?.first("src"))
        #expect(src.text == "gpsd at <a&b>:2947")
    }
}
