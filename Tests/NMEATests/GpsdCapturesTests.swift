import Foundation
import NMEA
import Testing

// gpsd's regression captures, read in place from ../shared/captures/gpsd/ next to the package.
// They are gpsd's (BSD licensed) and must not be copied into the project: these tests only
// read them by path, and are skipped where the folder is absent.

private let gpsdCaptures = packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared").appendingPathComponent("captures").appendingPathComponent("gpsd")

private var haveGpsdCaptures: Bool {
    var directory: ObjCBool = false
    return FileManager.default.fileExists(atPath: gpsdCaptures.path, isDirectory: &directory) && directory.boolValue
}

private func gpsd(_ name: String) throws -> [UInt8] {
    try [UInt8](Data(contentsOf: gpsdCaptures.appendingPathComponent(name)))
}

/// A capture and where its header says it was recorded (read by hand from `# Location:`
/// and `# Date:`), with how far the receiver may be from that rough position.
struct GpsdCase: Sendable, CustomTestStringConvertible {
    var name: String
    var latitude: Double
    var longitude: Double
    var radius: Double
    var date: CalendarDate?
    var testDescription: String { name }
}

@Suite("gpsd captures", .enabled(if: haveGpsdCaptures, "gpsd's captures are not at ../shared/captures/gpsd/; skipped"))
struct GpsdCapturesTests {
    @Test("receivers' fixes are where their capture headers say", arguments: [
        // # Location: 45.877591500S 170.500124833E  # Date: 2019-April 12
        GpsdCase(name: "ublox-zed-f9p-nmea.log", latitude: -45.8775915, longitude: 170.500124833, radius: 50,
                 date: CalendarDate(year: 2019, month: 4, day: 12)),
        // # Location: Enschede, NL, 52.21N 6.88E  # Date: 2008-08-23
        GpsdCase(name: "mtk-3301.log", latitude: 52.21, longitude: 6.88, radius: 5_000,
                 date: CalendarDate(year: 2008, month: 8, day: 23)),
        // # Location = Sydney, NSW, AU, -33.68 151.29  # Date = 2012-11-25
        GpsdCase(name: "sl869.log", latitude: -33.68, longitude: 151.29, radius: 5_000,
                 date: CalendarDate(year: 2012, month: 11, day: 25)),
        // # Location: Aberdeen, SCOTLAND, 57.16N 2.12W  # Date: 2011-03-14
        GpsdCase(name: "nd-1005.log", latitude: 57.16, longitude: -2.12, radius: 5_000,
                 date: CalendarDate(year: 2011, month: 3, day: 14)),
        // # Location: Toledo, OH 41.7 N 83.6 W  # Date: 2010-07-18
        GpsdCase(name: "garmin-10x.log", latitude: 41.7, longitude: -83.6, radius: 10_000,
                 date: CalendarDate(year: 2010, month: 7, day: 18)),
        // # Location = Hamilton, Waikato, 37.8S 175.3E  # Date = 2014-12-31
        GpsdCase(name: "bu353s4.log", latitude: -37.8, longitude: 175.3, radius: 10_000,
                 date: CalendarDate(year: 2014, month: 12, day: 31)),
    ])
    func located(_ c: GpsdCase) throws {
        // Given a real receiver's capture
        let data = try gpsd(c.name)
        // When it is parsed
        let (parser, out) = parsed(data)
        let located = out.fixes.filter { $0.hasFix && $0.coordinate != nil }
        // Then it gives fixes, all of them near where the header says
        #expect(!located.isEmpty)
        let home = Coordinate(latitude: c.latitude, longitude: c.longitude)
        for fix in located {
            #expect(fix.coordinate!.distance(to: home) < c.radius, "\(c.name): \(fix.coordinate!)")
        }
        // on the header's date (the first dated fix)
        if let date = c.date {
            #expect(located.first { $0.timestamp?.date != nil }?.timestamp?.date == date)
        }
        // and the stream was mostly sentences
        #expect(parser.statistics.sentences.decoded > 0)
    }

    @Test("damaged and binary captures parse without a crash and still give fixes", arguments: [
        "tcp-torture.log", "gp-320fw-2019-04-07-coldboot.log", "firefly-II.log", "et-332.log", "hemi.log",
    ])
    func damaged(name: String) throws {
        // Given a capture with line damage or binary packets; When it is parsed
        // Then at least one fix comes out
        let data = try gpsd(name)
        let whole = parsed(data)
        #expect(whole.events.fixes.contains { $0.hasFix && $0.coordinate != nil })
        // and the same events arrive however the bytes are delivered
        #expect(dribbled(data).events == whole.events)
    }

    @Test("every gpsd capture parses, whole and dribbled alike")
    func all() throws {
        // Given every capture in the folder; When each is parsed whole and byte by byte
        // Then both give the same events, with coordinates on the Earth and plausible dates
        let names = try FileManager.default.contentsOfDirectory(atPath: gpsdCaptures.path).filter { $0.hasSuffix(".log") }
        #expect(names.count > 40)
        var withFixes = 0
        for name in names.sorted() {
            let data = try gpsd(name)
            let whole = parsed(data)
            #expect(dribbled(data).events == whole.events, "\(name)")
            for fix in whole.events.fixes {
                if let c = fix.coordinate {
                    #expect(abs(c.latitude) <= 90 && abs(c.longitude) <= 180, "\(name)")
                }
                // a fix's date is never invented: none before GPS began, none in the future of these captures
                if let d = fix.timestamp?.date { #expect(d.year >= 1980 && d.year < 2030, "\(name): \(d)") }
            }
            if whole.events.fixes.contains(where: { $0.hasFix }) { withFixes += 1 }
        }
        #expect(withFixes > 40)
    }
}
