import Foundation
import GPSTestSupport
import Glibc
import Testing

/// `watch --gpx` and `record --gpx`, read back by the consumers people use: GPSBabel and gpxpy.
@Suite("gpsfix GPX output", .serialized,
       .enabled(if: GPSFixBinary.isAvailable, "needs the built gpsfix beside the test bundle"),
       .timeLimit(.minutes(1)))
struct GPXCommandTests {
    static let gpsbabelAvailable = FileManager.default.isExecutableFile(atPath: GPXReader.gpsbabel)
    /// Debian's python3-gpxpy, for the system Python (not whatever `python3` is first on PATH).
    static let gpxpyAvailable = access(GPXReader.python, X_OK) == 0 && access("/usr/lib/python3/dist-packages/gpxpy/__init__.py", R_OK) == 0
    static let readersAvailable = gpsbabelAvailable && gpxpyAvailable

    // MARK: - watch --gpx

    @Test("watch --gpx: GPSBabel and gpxpy read every fix, at its coordinates, MSL height and time",
          .enabled(if: readersAvailable, "needs /usr/bin/gpsbabel and python3-gpxpy (Debian packages gpsbabel, python3-gpxpy)"))
    func watchReadBack() async throws {
        // Given a 12-epoch drive in the south-western quadrant
        let dir = try TemporaryDirectory()
        let capture = try dir.write("drive.nmea", GPXCapture.text([0..<12]))

        // When
        let result = try #require(await gpsfix("watch", "--replay", capture, "--gpx", "--speed", "max"))
        let file = try dir.write("track.gpx", result.stdout)

        // Then: one segment of 12 points, each where the capture put it
        #expect(result.status == 0, "\(result)")
        let track = try await GPXReader.gpxpy(file)
        #expect(track.segments.map(\.count) == [12])
        for (i, point) in track.points.enumerated() {
            #expect(abs(point.latitude - GPXCapture.latitude(i)) < 1e-7, "point \(i): \(point)")
            #expect(abs(point.longitude - GPXCapture.longitude(i)) < 1e-7, "point \(i): \(point)")
            #expect(point.elevation == GPXCapture.altitude(i), "ele is the MSL altitude of GGA, not the ellipsoidal height")
            #expect(point.time == GPXCapture.time(i))
            #expect(point.fix == "3d" && point.satellites == 8)
            #expect(point.hdop == 1.3 && point.vdop == 2.1 && point.pdop == 2.5)
        }
        // And: GPSBabel (which prints six decimals) reads the same points
        let babel = try await GPXReader.gpsbabel(file)
        #expect(babel.count == 12)
        for (i, point) in babel.enumerated() {
            #expect(abs(point.latitude - GPXCapture.latitude(i)) <= 5.1e-7, "point \(i): \(point)")
            #expect(abs(point.longitude - GPXCapture.longitude(i)) <= 5.1e-7, "point \(i): \(point)")
        }
        // And: GPSBabel's own GPX rewrite keeps them to the nanodegree, in one segment
        let rewritten = try await GPXReader.gpsbabelSegments(file)
        #expect(rewritten.map(\.count) == [12])
        for (i, point) in rewritten.joined().enumerated() {
            #expect(abs(point.latitude - GPXCapture.latitude(i)) < 1e-7)
            #expect(abs(point.longitude - GPXCapture.longitude(i)) < 1e-7)
        }
    }

    @Test("watch --gpx: epochs without a fix split the track into two segments",
          .enabled(if: readersAvailable, "needs /usr/bin/gpsbabel and python3-gpxpy (Debian packages gpsbabel, python3-gpxpy)"))
    func gapMakesTwoSegments() async throws {
        // Given 4 fixes, 2 epochs without one, then 5 fixes
        let dir = try TemporaryDirectory()
        let capture = try dir.write("gap.nmea", GPXCapture.text([0..<4, 6..<11], gaps: [4..<6]))

        // When
        let result = try #require(await gpsfix("watch", "--replay", capture, "--gpx", "--speed", "max"))
        let file = try dir.write("track.gpx", result.stdout)

        // Then: both readers see two segments, 4 and 5 points, at the fixes' coordinates
        #expect(result.status == 0, "\(result)")
        let expected = Array(0..<4) + Array(6..<11)
        let track = try await GPXReader.gpxpy(file)
        #expect(track.segments.map(\.count) == [4, 5])
        #expect(track.points.count == expected.count)
        for (point, i) in zip(track.points, expected) {
            #expect(abs(point.latitude - GPXCapture.latitude(i)) < 1e-7 && abs(point.longitude - GPXCapture.longitude(i)) < 1e-7)
        }
        #expect(try await GPXReader.gpsbabel(file).count == 9)
        #expect(try await GPXReader.gpsbabelSegments(file).map(\.count) == [4, 5])
    }

    @Test("watch --gpx on the project's captures: one point per fix gpsfix reports, at its coordinates",
          .enabled(if: gpxpyAvailable, "needs python3-gpxpy (Debian package python3-gpxpy)"),
          arguments: ["drive-1hz.nmea", "quadrants.nmea"])
    func projectCaptures(name: String) async throws {
        // Given a capture, and the fixes gpsfix reports for it as gpsd JSON
        let capture = projectCapture(name)
        let json = try #require(await gpsfix("watch", "--replay", capture, "--json", "--speed", "max"))
        let fixes = json.stdoutLines.compactMap(jsonObject).filter { $0["class"] as? String == "TPV" && $0["lat"] != nil }
        let dir = try TemporaryDirectory()

        // When
        let gpx = try #require(await gpsfix("watch", "--replay", capture, "--gpx", "--speed", "max"))
        let file = try dir.write("track.gpx", gpx.stdout)

        // Then: as many points as fixes, at the same coordinates (180° E is written as 180° W)
        #expect(gpx.status == 0, "\(gpx)")
        let points = try await GPXReader.gpxpy(file).points
        #expect(points.count == fixes.count)
        #expect(!points.isEmpty)
        for (point, fix) in zip(points, fixes) {
            let lat = try #require((fix["lat"] as? NSNumber)?.doubleValue), lon = try #require((fix["lon"] as? NSNumber)?.doubleValue)
            #expect(abs(point.latitude - lat) < 1e-7, "\(point) vs \(fix)")
            #expect(abs(point.longitude - (lon >= 180 ? lon - 360 : lon)) < 1e-7, "\(point) vs \(fix)")
            if let ele = point.elevation {
                #expect(abs(ele - ((fix["altMSL"] as? NSNumber)?.doubleValue ?? .nan)) < 1e-3, "ele is gpsd's altMSL")
            }
        }
    }

    @Test("watch --gpx -n N writes N trackpoints and still closes the document",
          .enabled(if: gpxpyAvailable, "needs python3-gpxpy (Debian package python3-gpxpy)"))
    func countLimit() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let capture = try dir.write("drive.nmea", GPXCapture.text([0..<12]))

        // When
        let result = try #require(await gpsfix("watch", "--replay", capture, "--gpx", "--speed", "max", "-n", "5"))

        // Then
        #expect(result.status == 0, "\(result)")
        #expect(try await GPXReader.gpxpy(try dir.write("track.gpx", result.stdout)).segments.map(\.count) == [5])
    }

    @Test("watch --gpx interrupted: each point reaches stdout as it comes, and Ctrl-C closes the document",
          .enabled(if: readersAvailable, "needs /usr/bin/gpsbabel and python3-gpxpy (Debian packages gpsbabel, python3-gpxpy)"))
    func watchInterrupted() async throws {
        // Given a looping replay, paced, written to a file
        let dir = try TemporaryDirectory()
        let capture = try dir.write("drive.nmea", GPXCapture.text([0..<3]))
        let file = try dir.write("track.gpx", "")

        // When: SIGINT once some points are there
        let run = try GPXRun(["watch", "--replay", capture, "--gpx", "--speed", "5", "--loop"], stdout: file)
        #expect(await run.waitForPoints(3, in: file), "points are flushed one by one while paced")
        let exited = await run.signal(SIGINT)

        // Then: exit 0 and a complete track holding every point written
        #expect(exited && run.status == 0 && !run.signalled, "\(run.stderr)")
        let track = try await GPXReader.gpxpy(file)
        let written = try GPXReader.trackpointLines(file)
        #expect(track.points.count == written && written >= 3)
        #expect(try await GPXReader.gpsbabel(file).count == written)
    }

    // MARK: - record --gpx

    @Test("record --gpx interrupted by SIGINT or SIGTERM: a complete file with every point written",
          .enabled(if: readersAvailable, "needs /usr/bin/gpsbabel and python3-gpxpy (Debian packages gpsbabel, python3-gpxpy)"),
          arguments: [SIGINT, SIGTERM])
    func recordInterrupted(signal: Int32) async throws {
        // Given a looping replay, recorded as GPX
        let dir = try TemporaryDirectory()
        let capture = try dir.write("drive.nmea", GPXCapture.text([0..<3]))
        let file = dir.path + "/track.gpx"
        let run = try GPXRun(["record", "--gpx", file, "--replay", capture, "--speed", "4", "--loop"])

        // When: the signal comes after a few points
        #expect(await run.waitForPoints(4, in: file), "each point reaches the disk as it comes")
        let exited = await run.signal(signal)

        // Then: exit 0, and both readers load the points written, at the capture's coordinates
        #expect(exited && run.status == 0 && !run.signalled, "\(run.stderr)")
        let written = try GPXReader.trackpointLines(file)
        let track = try await GPXReader.gpxpy(file)
        #expect(track.segments.count == 1)
        #expect(track.points.count == written && written >= 4)
        for (k, point) in track.points.enumerated() {
            #expect(abs(point.latitude - GPXCapture.latitude(k % 3)) < 1e-7 && abs(point.longitude - GPXCapture.longitude(k % 3)) < 1e-7)
        }
        #expect(try await GPXReader.gpsbabel(file).count == written)
        #expect(run.stderr.contains("\(written) points in 1 segment recorded in \(file)"), "\(run.stderr)")
    }

    @Test("record --gpx killed outright (SIGKILL) loses only the closing tags",
          .enabled(if: gpxpyAvailable, "needs python3-gpxpy (Debian package python3-gpxpy)"))
    func recordKilled() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let capture = try dir.write("drive.nmea", GPXCapture.text([0..<3]))
        let file = dir.path + "/track.gpx"
        let run = try GPXRun(["record", "--gpx", file, "--replay", capture, "--speed", "4", "--loop"])

        // When
        #expect(await run.waitForPoints(3, in: file))
        _ = await run.signal(SIGKILL)

        // Then: whole points only; the closing tags make it a complete document
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.hasSuffix("</trkpt>\n"), "the file ends between points")
        let closed = try dir.write("closed.gpx", text + "    </trkseg>\n  </trk>\n</gpx>\n")
        #expect(try await GPXReader.gpxpy(closed).points.count == GPXReader.trackpointLines(file))
    }

    @Test("record --gpx at the end of a replay closes the file; a capture's gap gives two segments",
          .enabled(if: readersAvailable, "needs /usr/bin/gpsbabel and python3-gpxpy (Debian packages gpsbabel, python3-gpxpy)"))
    func recordToEnd() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let capture = try dir.write("gap.nmea", GPXCapture.text([0..<3, 5..<7], gaps: [3..<5]))
        let file = dir.path + "/track.gpx"

        // When
        let result = try #require(await gpsfix("record", "--gpx", file, "--replay", capture, "--speed", "max"))

        // Then
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("5 points in 2 segments recorded in \(file)"), "\(result)")
        #expect(try await GPXReader.gpxpy(file).segments.map(\.count) == [3, 2])
        #expect(try await GPXReader.gpsbabel(file).count == 5)
    }

    @Test("record --gpx refuses to overwrite an existing file without --force, and overwrites it with --force",
          .enabled(if: gpxpyAvailable, "needs python3-gpxpy (Debian package python3-gpxpy)"))
    func refusesOverwrite() async throws {
        // Given a file that is already there
        let dir = try TemporaryDirectory()
        let capture = try dir.write("drive.nmea", GPXCapture.text([0..<3]))
        let file = try dir.write("keep.gpx", "precious")

        // When
        let refused = try #require(await gpsfix("record", "--gpx", file, "--replay", capture, "--speed", "max"))

        // Then: exit 1, the reason and the way out, and the file untouched
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("\(file) exists already. Choose another name, or overwrite it with --force."))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "precious")

        // When / Then: --force replaces it with the track
        let forced = try #require(await gpsfix("record", "--gpx", file, "--replay", capture, "--speed", "max", "--force"))
        #expect(forced.status == 0, "\(forced)")
        #expect(try await GPXReader.gpxpy(file).points.count == 3)
    }

    @Test("record --gpx from a capture that is not there: the error, and no empty track left behind")
    func missingSource() async throws {
        let dir = try TemporaryDirectory()
        let file = dir.path + "/track.gpx"

        let result = try #require(await gpsfix("record", "--gpx", file, "--replay", dir.path + "/missing.nmea"))

        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("missing.nmea: no such file"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test("A raw recording stays a receiver's bytes: other sources need --gpx",
          arguments: [["--replay", "x.nmea"], ["--gpsd"], ["--gpsd", "localhost:2947"], ["--loop"], ["--speed", "2"]])
    func rawNeedsReceiver(options: [String]) async throws {
        let dir = try TemporaryDirectory()
        let result = try #require(await runGPSFix(["record", dir.path + "/raw.nmea"] + options))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix("gpsfix: record: \(options[0]) needs --gpx"), "\(result)")
        #expect(result.stderr.contains("gpsfix record --gpx FILE"), "the usage shows the --gpx form")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/raw.nmea"))
    }

    @Test("record takes one file: FILE or --gpx FILE, and not none")
    func oneFile() async throws {
        let both = try #require(await gpsfix("record", "raw.nmea", "--gpx", "track.gpx", "--replay", "x.nmea"))
        #expect(both.status == 64)
        #expect(both.stderr.contains("record writes one file"), "\(both)")
        let neither = try #require(await gpsfix("record", "--replay", "x.nmea"))
        #expect(neither.status == 64)
        #expect(neither.stderr.contains("name the file to record into: FILE for a raw capture, or --gpx FILE"), "\(neither)")
    }

    @Test("record --help explains --gpx")
    func help() async throws {
        let result = try #require(await gpsfix("record", "--help"))
        #expect(result.status == 0)
        #expect(result.stdout.contains("gpsfix record --gpx FILE"))
        #expect(result.stdout.contains("--gpx FILE"))
        #expect(result.stdout.contains("mean sea level"))
    }
}

// MARK: - A capture with known coordinates

/// A drive south-west of 45°52.5228′S 170°30.2712′W: each second 0.00123′ further south and
/// 0.00234′ further west, climbing 0.1 m, so every point has a coordinate of its own.
enum GPXCapture {
    static func minutes(_ base: Double, _ step: Double, _ i: Int) -> Double {
        // Rounded to the 5 decimals the sentence prints, so the expectation is what was sent.
        ((base + step * Double(i)) * 100_000).rounded() / 100_000
    }

    static func latitude(_ i: Int) -> Double { -(45 + minutes(52.52280, 0.00123, i) / 60) }
    static func longitude(_ i: Int) -> Double { -(170 + minutes(30.27120, 0.00234, i) / 60) }
    static func altitude(_ i: Int) -> Double { (90 + Double(i)) / 10 }
    static func time(_ i: Int) -> String { "2024-06-15T03:12:" + two(i) + "+00:00" }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    static func epoch(_ i: Int) -> [String] {
        let t = "0312" + two(i) + ".00"
        let lat = "45" + String(format: "%08.5f", minutes(52.52280, 0.00123, i))
        let lon = "170" + String(format: "%08.5f", minutes(30.27120, 0.00234, i))
        let alt = String(format: "%.1f", altitude(i))
        return [
            "GPRMC,\(t),A,\(lat),S,\(lon),W,0.5,200.0,150624,,,A",
            "GPGGA,\(t),\(lat),S,\(lon),W,1,08,1.3,\(alt),M,7.9,M,,",
            "GPGSA,A,3,04,05,09,12,24,25,29,31,,,,,2.5,1.3,2.1",
            "GPGSV,2,1,05,04,45,120,40,05,30,200,35,09,60,300,42,12,10,050,20",
            "GPGSV,2,2,05,24,70,010,45",
        ].map(NMEASentence.framed)
    }

    static func noFixEpoch(_ i: Int) -> [String] {
        let t = "0312" + two(i) + ".00"
        return ["GPRMC,\(t),V,,,,,,,150624,,,N", "GPGGA,\(t),,,,,0,00,,,M,,M,,", "GPGSA,A,1,,,,,,,,,,,,,,,"].map(NMEASentence.framed)
    }

    /// A capture of the fixes in `fixes` and the no-fix epochs in `gaps`, in time order.
    static func text(_ fixes: [Range<Int>], gaps: [Range<Int>] = []) -> String {
        let withFix = Set(fixes.joined()), without = Set(gaps.joined())
        let seconds = withFix.union(without).sorted()
        let epochs = seconds.map { withFix.contains($0) ? epoch($0) : noFixEpoch($0) }
        return "# Name: gpsfix GPX test\n# Date: 2024-06-15\n" + epochs.joined().map { $0 + "\r\n" }.joined()
    }
}

// MARK: - The readers

struct ReadPoint: Sendable, CustomStringConvertible {
    var latitude: Double
    var longitude: Double
    var elevation: Double?
    var time: String?
    var fix: String?
    var satellites: Int?
    var hdop: Double?
    var vdop: Double?
    var pdop: Double?

    var description: String { "(\(latitude), \(longitude), ele \(elevation.map { "\($0)" } ?? "-"), \(time ?? "no time"))" }
}

struct ReadTrack {
    var segments: [[ReadPoint]]
    var points: [ReadPoint] { Array(segments.joined()) }
}

enum GPXReader {
    static let python = "/usr/bin/python3"
    static let gpsbabel = "/usr/bin/gpsbabel"

    /// gpxpy's reading: every track's segments, every point's fields as gpxpy names them.
    static func gpxpy(_ file: String) async throws -> ReadTrack {
        let script = """
            import json, sys, gpxpy
            gpx = gpxpy.parse(open(sys.argv[1], encoding="utf-8"))
            print(json.dumps([[dict(lat=p.latitude, lon=p.longitude, ele=p.elevation,
                                    time=p.time.isoformat() if p.time else None, fix=p.type_of_gpx_fix,
                                    sat=p.satellites, hdop=p.horizontal_dilution, vdop=p.vertical_dilution,
                                    pdop=p.position_dilution)
                               for p in s.points] for t in gpx.tracks for s in t.segments]))
            """
        let result = try await runTool(python, ["-c", script, file])
        guard result.status == 0 else { throw ReadError("gpxpy could not read \(file): \(result.err)") }
        guard let segments = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [[[String: Any]]] else {
            throw ReadError("gpxpy printed \(result.out)")
        }
        return ReadTrack(segments: try segments.map { try $0.map { p in
            func number(_ key: String) -> NSNumber? { p[key] as? NSNumber }
            guard let lat = number("lat")?.doubleValue, let lon = number("lon")?.doubleValue else { throw ReadError("no lat/lon: \(p)") }
            return ReadPoint(latitude: lat, longitude: lon, elevation: number("ele")?.doubleValue, time: p["time"] as? String,
                             fix: p["fix"] as? String, satellites: number("sat")?.intValue,
                             hdop: number("hdop")?.doubleValue, vdop: number("vdop")?.doubleValue, pdop: number("pdop")?.doubleValue)
        } })
    }

    /// `gpsbabel -t -i gpx -f FILE -o unicsv -F -`: the track's points as GPSBabel reads them.
    /// (-t: without it GPSBabel passes on waypoints only, and a track has none.)
    static func gpsbabel(_ file: String) async throws -> [ReadPoint] {
        let result = try await runTool(gpsbabel, ["-t", "-i", "gpx", "-f", file, "-o", "unicsv", "-F", "-"])
        guard result.status == 0, result.err.isEmpty else { throw ReadError("gpsbabel could not read \(file): \(result.err)") }
        let lines = result.out.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first, let lat = header.firstIndex(of: "Latitude"), let lon = header.firstIndex(of: "Longitude") else {
            throw ReadError("gpsbabel printed \(result.out)")
        }
        return try lines.dropFirst().map { row in
            guard let la = Double(row[lat]), let lo = Double(row[lon]) else { throw ReadError("gpsbabel row \(row)") }
            return ReadPoint(latitude: la, longitude: lo)
        }
    }

    /// GPSBabel's own GPX rewrite of the track (nine decimals, its segments kept), parsed.
    static func gpsbabelSegments(_ file: String) async throws -> [[ReadPoint]] {
        let result = try await runTool(gpsbabel, ["-t", "-i", "gpx", "-f", file, "-o", "gpx", "-F", "-"])
        guard result.status == 0 else { throw ReadError("gpsbabel could not read \(file): \(result.err)") }
        var segments: [[ReadPoint]] = []
        for segment in result.out.components(separatedBy: "<trkseg>").dropFirst() {
            let body = segment.components(separatedBy: "</trkseg>")[0]
            segments.append(try body.components(separatedBy: "<trkpt ").dropFirst().map { point in
                guard let lat = attribute("lat", point).flatMap(Double.init), let lon = attribute("lon", point).flatMap(Double.init) else {
                    throw ReadError("gpsbabel wrote \(point)")
                }
                return ReadPoint(latitude: lat, longitude: lon)
            })
        }
        return segments
    }

    private static func attribute(_ name: String, _ text: String) -> String? {
        guard let start = text.range(of: name + "=\"") else { return nil }
        return text[start.upperBound...].split(separator: "\"", maxSplits: 1).first.map(String.init)
    }

    /// How many whole `<trkpt …>…</trkpt>` lines the file holds, as gpsfix wrote them.
    static func trackpointLines(_ file: String) throws -> Int {
        try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("      <trkpt ") && $0.hasSuffix("</trkpt>") }.count
    }

    struct ReadError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// A gpsfix run that the test ends with a signal: started directly (gpsfix clears the signal
/// mask it inherits from the test runner's threads), stdout to a file or nowhere.
final class GPXRun {
    let process: RunningProgram
    /// How it ended, once `signal` has seen it end.
    private(set) var status: Int32 = -1
    private(set) var signalled = false

    init(_ arguments: [String], stdout: String? = nil) throws {
        let binary = try #require(GPSFixBinary.url)
        if let stdout {
            let fd = open(stdout, O_WRONLY)
            guard fd >= 0 else { throw SpawnError(description: "cannot open \(stdout)") }
            defer { close(fd) }
            process = try RunningProgram([binary.path] + arguments, standardOutput: .descriptor(fd))
        } else {
            process = try RunningProgram([binary.path] + arguments)
        }
    }

    /// Whether `file` came to hold `count` whole trackpoints while gpsfix ran.
    func waitForPoints(_ count: Int, in file: String) async -> Bool {
        await waitUntil(.seconds(15)) { ((try? GPXReader.trackpointLines(file)) ?? 0) >= count }
    }

    /// Sends `signal` and waits for the process to end; whether it did.
    func signal(_ signal: Int32) async -> Bool {
        kill(process.processIdentifier, signal)
        guard let status = await process.status(within: .seconds(10)) else { return false }
        self.status = status
        signalled = await process.signalled(within: .seconds(1)) ?? false
        return true
    }

    /// What gpsfix said on stderr.
    var stderr: String { process.stderr }
}
