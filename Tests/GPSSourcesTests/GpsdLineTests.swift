import NMEA
import CGPS
@testable import GPSGpsd
import Testing

/// What a gpsd line becomes before libgps sees anything of it, and what the installed libgps
/// makes of the lines gpsfix writes: run on each system `make distros` builds, so each libgps
/// API is held to the same values.
@Suite("gpsd lines, judged and rewritten")
struct GpsdLineTests {
    func judge(_ text: String, maximumSatellites: Int = 140) -> GpsdLine {
        GpsdLine.judge(Array(text.utf8)[...], maximumSatellites: maximumSatellites)
    }

    @Test("A TPV keeps only the members gpsfix reads, of the types libgps expects, in a line of its own")
    func tpvRewritten() {
        // Given gpsd 3.22's TPV, with members gpsfix does not read (device, alt)
        // When judged / Then it is the same report, written again with only what gpsfix reads
        #expect(judge(GpsdReports.tpv(second: 1)) == .report(.tpv,
            #"{"class":"TPV","mode":3,"time":"2026-12-01T12:00:01.000Z","lat":51.5,"lon":-0.125,"altHAE":100.5,"#
            + #""altMSL":55.25,"geoidSep":45.25,"speed":1.5,"track":270.5,"climb":-0.5,"magvar":2.5,"magtrack":268.0,"#
            + #""epx":3.5,"epy":4.5,"epv":5.5,"eph":5.8,"sep":8.1,"eps":7.0,"epc":11.0,"ept":0.005}"#))
    }

    @Test("Lines that are no gpsd report are rejected, reports gpsfix does not read are other", arguments: [
        (#"{x"class":"TPV"}"#, false),                       // libgps 3.22-3.25 never return on this
        ("not json at all", false),
        (#"{"class":"TPV"}"#, false),                        // a TPV without a mode
        (#"{"class":"TPV","mode":7,"lat":1}"#, false),       // a mode gpsd has not
        (#"{"class":"SKY","satellites":7}"#, false),         // satellites that are no list
        (#"{"class":"TPV","mode":3,"lat":1"#, false),        // cut short
        (#"{"mode":3,"lat":1}"#, false),                     // no class
        (#"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#, true),
        (#"{"class":"ATT","devices":[1,[2,[3,{"a":[4,5,{"b":null}]}]]]}"#, true),
    ])
    func rejected(line: String, wellFormed: Bool) {
        #expect(judge(line) == (wellFormed ? .other : .rejected))
    }

    @Test("What libgps could not hold is left out: huge or wrong-typed numbers, odd times, satellites without a name")
    func outOfReach() {
        #expect(judge(#"{"class":"TPV","mode":2,"lat":1e300,"lon":"east","speed":[1],"time":"12\"}","climb":{"a":1}}"#)
                == .report(.tpv, #"{"class":"TPV","mode":2}"#))
        #expect(judge(#"{"class":"SKY","hdop":-1e99,"satellites":[{"el":10},{"PRN":5000},{"gnssid":2,"svid":0},"x",{"gnssid":2,"svid":11,"used":true}]}"#)
                == .report(.sky, #"{"class":"SKY","nSat":1,"uSat":1,"satellites":[{"PRN":0,"gnssid":2,"svid":11,"used":true}]}"#))
    }

    @Test("A SKY holds no more satellites than the installed libgps does")
    func satellitesCapped() {
        let entries = (1...200).map { #"{"PRN":\#($0 % 32 + 1),"used":false}"# }.joined(separator: ",")
        guard case .report(.sky, let text) = judge(#"{"class":"SKY","satellites":[\#(entries)]}"#, maximumSatellites: 3) else {
            Issue.record("not a SKY")
            return
        }
        #expect(text == #"{"class":"SKY","nSat":3,"uSat":0,"satellites":[{"PRN":2,"used":false},{"PRN":3,"used":false},{"PRN":4,"used":false}]}"#)
    }

    @Test("Sentences gpsd passes on are sentences; with control bytes or past 1 kB they are not")
    func sentences() {
        #expect(judge("$GPGGA,120000,5130.0,N,00007.5,W,1,08,0.9,55.2,M,45.2,M,,*4F") == .sentence("$GPGGA,120000,5130.0,N,00007.5,W,1,08,0.9,55.2,M,45.2,M,,*4F"))
        #expect(judge("!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0*26") != .rejected)
        #expect(judge("$GPGGA,\u{1B}[2J") == .rejected)
        #expect(judge("$" + String(repeating: "A", count: 2000)) == .rejected)
    }

    @Test("Lines are cut at LF, CR LF or not, across reads; a line past the limit is dropped whole and counted")
    func lineBuffer() {
        var buffer = LineBuffer(maximumLine: 16)
        var lines: [String] = []
        let chunks = ["ab", "c\r\nde", "f\n", String(repeating: "x", count: 10), String(repeating: "y", count: 10), "\nlast\r", "\n"]
        for chunk in chunks {
            Array(chunk.utf8).withUnsafeBytes { raw in
                buffer.append(raw) { lines.append(String(decoding: $0, as: UTF8.self)) }
            }
        }
        #expect(lines == ["abc", "def", "last"])
        #expect(buffer.overlong == 1)
    }
}

@Suite("gpsd reports through this system's libgps")
struct GpsdDecodingTests {
    /// The line gpsfix writes for `report`, decoded by the installed libgps.
    func decoded(_ report: String) throws -> (GpsdLine.Kind, OpaquePointer) {
        guard case .report(let kind, let text) = GpsdLine.judge(Array(report.utf8)[...], maximumSatellites: Int(cgps_max_satellites())) else {
            throw GpsdTestFailure.notAReport
        }
        let reader = try #require(cgps_reader_create())
        #expect(text.withCString { cgps_reader_unpack(reader, $0) }, "libgps API \(cgps_api_major()) refused \(text)")
        return (kind, reader)
    }

    @Test("libgps is of an API gpsfix supports")
    func apiInRange() {
        #expect((11...16).contains(cgps_api_major()), "libgps API \(cgps_api_major())")
        #expect(cgps_max_satellites() >= 32)
    }

    @Test("Every member of a TPV that gpsfix reads comes through libgps with its value")
    func tpv() throws {
        let (kind, reader) = try decoded(GpsdReports.tpv(second: 1))
        defer { cgps_reader_destroy(reader) }
        #expect(kind == .tpv)
        let fix = try #require(GpsdFields.fix(reader))
        #expect(fix.mode == .threeD)
        #expect(fix.coordinate == Coordinate(latitude: 51.5, longitude: -0.125))
        #expect(fix.altitude == 55.25)
        #expect(fix.ellipsoidalAltitude == 100.5)
        #expect(fix.geoidSeparation == 45.25)
        #expect(fix.speed == 1.5)
        #expect(fix.course == 270.5)
        #expect(fix.climb == -0.5)
        #expect(fix.magneticVariation == 2.5)
        // gpsd's errors are its estimates, passed on as such, and the best accuracies there are.
        #expect(fix.estimatedErrors == ErrorEstimates(horizontal: 5.8, latitude: 4.5, longitude: 3.5, vertical: 5.5,
                                                      spherical: 8.1, speed: 7.0, climb: 11.0, time: 0.005))
        #expect(fix.horizontalAccuracy == 5.8 && fix.accuracyIsEstimated)
        #expect(fix.verticalAccuracy == 5.5)
        #expect(fix.longitudeError == nil, "the receiver's own comes in gpsd's GST")
        #expect(fix.timestamp?.date == CalendarDate(year: 2026, month: 12, day: 1))
        #expect(fix.timestamp?.time == TimeOfDay(hour: 12, minute: 0, second: 1, millisecond: 0))
    }

    @Test("A DGPS status and a report after it: nothing of one report is left in the next")
    func statusAndNoCarryOver() throws {
        let (_, reader) = try decoded(#"{"class":"TPV","mode":3,"status":2,"lat":10.0,"lon":20.0,"altMSL":5.0}"#)
        defer { cgps_reader_destroy(reader) }
        #expect(GpsdFields.fix(reader)?.quality == .dgps)
        guard case .report(_, let next) = GpsdLine.judge(Array(#"{"class":"TPV","mode":2,"lat":11.0,"lon":21.0}"#.utf8)[...], maximumSatellites: 140) else {
            Issue.record("not a report")
            return
        }
        #expect(next.withCString { cgps_reader_unpack(reader, $0) })
        let fix = try #require(GpsdFields.fix(reader))
        #expect(fix.mode == .twoD)
        #expect(fix.quality == .gps)
        #expect(fix.altitude == nil)
        #expect(fix.coordinate == Coordinate(latitude: 11, longitude: 21))
    }

    @Test("A SKY listing one satellite under two spellings is one entry per satellite")
    func skyDuplicates() throws {
        let (kind, reader) = try decoded(GpsdReports.skyWithDuplicates)
        defer { cgps_reader_destroy(reader) }
        #expect(kind == .sky)
        let sky = GpsdFields.sky(reader)
        #expect(sky.satellites.map(\.id) == [SatelliteID(constellation: .gps, svid: 1), SatelliteID(constellation: .glonass, svid: 1)])
        #expect(sky.satellites.map(\.elevation) == [40, 30])
        #expect(sky.satellites.map(\.snr) == [41, 35])
        #expect(sky.satellitesUsed == 2)
        #expect(sky.dop.horizontal == 0.9)
        #expect(sky.dop.position == 1.6)
        #expect(sky.timestamp?.time == TimeOfDay(hour: 12, minute: 0, second: 1, millisecond: 0))
    }
}

enum GpsdTestFailure: Error { case notAReport }

@Suite("gpsd lines, checked whole (make fuzz-gpsd's body)")
struct GpsdLineCheckTests {
    @Test("Hostile lines between good ones break nothing, through this system's libgps")
    func hostileStream() {
        let lines = [GpsdReports.tpv(second: 1), #"{x"class":"TPV"}"#, GpsdReports.skyWithDuplicates,
                     #"{"class":"SKY","satellites":[{"PRN":65,"used":true},{"gnssid":6,"svid":1},{"PRN":65}]}"#,
                     #"{"class":"TPV","mode":3,"lat":91,"lon":181}"#, "\u{0}\u{FF}", GpsdReports.tpv(second: 2, latitude: -89.9, longitude: 179.9)]
        let bytes = Array(lines.joined(separator: "\n").utf8) + [0x0A]
        #expect(bytes.withUnsafeBytes { GpsdLineCheck.run($0) } == [])
    }
}
