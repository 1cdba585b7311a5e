import Foundation
import GPSTestSupport
import Testing


/// `gpsfix plot`: the SVG is read back by a real XML parser (python's ElementTree) and drawn
/// by a real renderer (rsvg-convert), not searched for strings alone.
@Suite("gpsfix plot", .serialized, .timeLimit(.minutes(2)), .enabled(if: GPSFixBinary.isAvailable && ServeTools.has(ServeTools.python)))
struct PlotCommandTests {
    /// What ElementTree reads of a plot: its title, the scatter's marks, every text, as JSON.
    static let reader = """
        import json, sys
        import xml.etree.ElementTree as E
        ns = '{http://www.w3.org/2000/svg}'
        root = E.parse(sys.argv[1]).getroot()
        groups = {g.get('aria-label'): g for g in root.iter(ns + 'g') if g.get('aria-label')}
        scatter = groups.get('Scatter of the fixes about their mean')
        marks = [c for g in scatter.findall(ns + 'g') for c in g.findall(ns + 'circle')] if scatter is not None else []
        print(json.dumps({'title': root.find(ns + 'title').text, 'desc': root.find(ns + 'desc').text,
                          'marks': len(marks), 'groups': sorted(groups), 'texts': [t.text for t in root.iter(ns + 'text')]}))
        """

    private func read(_ svg: String) async throws -> [String: Any] {
        let parsed = try await runTool(ServeTools.python, ["-c", Self.reader, svg])
        return try #require(jsonObject(parsed.out), "ElementTree could not read \(svg): \(parsed.err)")
    }

    @Test("A gpsd capture's plot: well-formed SVG, a mark per fix, the CEP circles labelled with stats' figures, the sky and the series",
          .enabled(if: haveGpsdCaptures, "needs gpsd's captures at ../shared/captures/gpsd"))
    func capture() async throws {
        let directory = try TemporaryDirectory()
        let capture = gpsdCaptures.appendingPathComponent("mt3339.log").path
        let svg = directory.path + "/mt3339.svg"
        let result = try #require(await runGPSFix(["plot", capture, "-o", svg]))
        #expect(result.status == 0 && result.stderr.contains("plot: 30 fixes of 30 epochs drawn to \(svg)"), "\(result)")
        let plot = try await read(svg)
        #expect(plot["title"] as? String == capture)
        #expect(plot["marks"] as? Int == 30, "\(plot)")
        let statsRun = try #require(await runGPSFix(["stats", capture, "--json"]))
        let stats = try #require(jsonObject(statsRun.stdout), "\(statsRun)")
        let texts = plot["texts"] as? [String] ?? []
        let cep50 = String(format: "CEP50 %.3f m", stats["cep50_m"] as? Double ?? -1), cep95 = String(format: "CEP95 %.3f m", stats["cep95_m"] as? Double ?? -1)
        #expect(texts.contains(cep50) && texts.contains(cep95), "\(cep50), \(cep95) in \(texts)")
        #expect(["Altitude (m)", "HDOP", "Satellites used", "N", "E", "S", "W", "40 and above"].allSatisfy(texts.contains), "\(texts)")
        #expect(!texts.contains("Time offset (ms)"), "a replay has no time of arrival: \(texts)")
        // Each series' ends, told apart: altitude to the centimetre, satellites as counts.
        #expect(texts.contains("1108.10") && texts.contains("1107.80") && texts.contains("11") && texts.contains("10"), "\(texts)")
        #expect((plot["desc"] as? String ?? "").hasPrefix("Scatter of 30 fixes about their mean: CEP50 "), "\(plot)")
        #expect(plot["groups"] as? [String] == ["Altitude (m) over time", "HDOP over time", "Satellites heard over the sky, coloured by signal strength",
                                                  "Satellites used over time", "Scatter of the fixes about their mean"], "\(plot)")
    }

    @Test("-o FILE.png: rsvg-convert draws the SVG into a PNG of the plot's size, and no SVG is left beside it",
          .enabled(if: ServeTools.has("/usr/bin/rsvg-convert"), "needs rsvg-convert (librsvg2-bin)"))
    func png() async throws {
        let directory = try TemporaryDirectory()
        let png = directory.path + "/drive.png"
        let result = try #require(await runGPSFix(["plot", projectCapture("drive-1hz.nmea"), "-o", png]))
        #expect(result.status == 0, "\(result)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: png)))
        #expect(bytes.count > 24 && Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "not a PNG")
        // IHDR's width and height, big-endian, after the signature and the chunk's length and type.
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 960 && height > 900, "\(width)×\(height)")
        #expect(!FileManager.default.fileExists(atPath: png + ".svg"))
    }

    @Test("A capture's name is text, not markup: < > & and quotes in it leave the SVG well-formed")
    func hostileName() async throws {
        let directory = try TemporaryDirectory()
        let capture = directory.path + "/a<b>&\"c'.nmea"
        try FileManager.default.copyItem(atPath: projectCapture("drive-1hz.nmea"), toPath: capture)
        let svg = directory.path + "/x.svg"
        let result = try #require(await runGPSFix(["plot", capture, "-o", svg]))
        #expect(result.status == 0, "\(result)")
        let plot = try await read(svg)
        #expect(plot["title"] as? String == capture, "\(plot)")
    }

    @Test("A live stream: its time offset is drawn too", .timeLimit(.minutes(1)))
    func live() async throws {
        let receiver = try await TimedNMEAServer(late: 0.1)
        defer { receiver.stop() }
        let directory = try TemporaryDirectory()
        let svg = directory.path + "/live.svg"
        let result = try #require(await runGPSFix(["plot", "--nmea-tcp", "127.0.0.1:\(receiver.port)", "--minutes", "0.07", "-o", svg]))
        #expect(result.status == 0, "\(result)")
        let texts = try await read(svg)["texts"] as? [String] ?? []
        #expect(texts.contains("Time offset (ms)"), "\(texts)")
    }

    @Test("Usage errors (64): no -o, a picture of another kind", arguments: [
        (["plot", "Captures/drive-1hz.nmea"], "plot writes a picture: name it with -o FILE.svg"),
        (["plot", "Captures/drive-1hz.nmea", "-o", "x.pdf"], "-o names an .svg or a .png file, not 'x.pdf'"),
        (["plot", "--replay", "a.nmea", "-o", "x.svg"], "captures are read whole, named on their own: gpsfix plot a.nmea"),
    ])
    func usage(_ arguments: [String], _ message: String) async throws {
        let result = try #require(await runGPSFix(arguments))
        #expect(result.status == 64 && result.stderr.contains(message), "\(result)")
    }

    @Test("A file that cannot be written: exit 1, naming it")
    func unwritable() async throws {
        let result = try #require(await runGPSFix(["plot", projectCapture("drive-1hz.nmea"), "-o", "/nonexistent-dir/x.svg"]))
        #expect(result.status == 1 && result.stderr.contains("plot: cannot write /nonexistent-dir/x.svg"), "\(result)")
    }
}
