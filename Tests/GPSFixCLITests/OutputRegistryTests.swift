import Foundation
import GPSTestSupport
import Testing
@testable import GPSFixCLI

/// The one list of output formats: each flag picks the row it always picked, and each
/// command's choices and refusals follow from the rows.
@Suite("Output registry")
struct OutputRegistryTests {
    private func watch(_ arguments: String...) throws -> ParsedArguments {
        try ArgumentParser.parse(arguments, options: Commands.watch.options, positionals: 0)
    }

    private func fix(_ arguments: String...) throws -> ParsedArguments {
        try ArgumentParser.parse(arguments, options: Commands.fix.options, positionals: 0)
    }

    @Test("watch: each flag picks its format; NMEA alone needs the sentences; -t only where there are lines",
          arguments: [
              (flag: "--json", title: "JSON", sentences: false, lines: true),
              (flag: "--nmea", title: "NMEA", sentences: true, lines: true),
              (flag: "--gpx", title: "GPX", sentences: false, lines: false),
              (flag: "--view", title: "the live view", sentences: false, lines: false),
          ])
    func watchFlags(_ row: (flag: String, title: String, sentences: Bool, lines: Bool)) throws {
        // Given the flag, with stdout a pipe and then a terminal
        let args = try watch(row.flag)

        // When
        let piped = try OutputFormat.forWatch(args, stdoutIsTerminal: false)
        let atTerminal = try OutputFormat.forWatch(args, stdoutIsTerminal: true)

        // Then the flag wins wherever stdout goes
        #expect(piped.title == row.title && atTerminal.title == row.title)
        #expect(piped.needsSentences == row.sentences)
        #expect(piped.stampsLines == row.lines)
    }

    @Test("watch without a flag: the live view at a terminal, text lines in a pipe or with -t")
    func watchDefault() throws {
        // Given no output flag
        let plain = try watch()
        let stamped = try watch("-t")

        // When / Then
        #expect(try OutputFormat.forWatch(plain, stdoutIsTerminal: true).title == "the live view")
        #expect(try OutputFormat.forWatch(plain, stdoutIsTerminal: false).title == "text")
        #expect(try OutputFormat.forWatch(stamped, stdoutIsTerminal: true).title == "text")
    }

    @Test("fix takes text or --json, and refuses the others with a reason, not as unknown options",
          arguments: ["--nmea", "--gpx", "--view"])
    func fixRefuses(_ flag: String) throws {
        // Given fix with a format that cannot show one fix
        let args = try fix(flag)

        // When / Then
        #expect(throws: UsageError(message: "\(flag) shows a run of fixes, not one: fix prints text or --json; 'gpsfix watch \(flag)' shows \(try OutputFormat.forWatch(watch(flag), stdoutIsTerminal: false).title)")) {
            try OutputFormat.forOneFix(args)
        }
        #expect(try OutputFormat.forOneFix(fix("--json")).title == "JSON")
        #expect(try OutputFormat.forOneFix(fix()).title == "text")
        // and fix's help still offers only what it can print
        #expect(!Commands.fix.options.contains { $0.name == flag && !$0.isHidden })
    }

    @Test("record: --gpx FILE is the one format kept in files")
    func recordFile() throws {
        // Given
        let args = try ArgumentParser.parse(["--gpx", "track.gpx"], options: Commands.record.options, positionals: 1)

        // When
        let chosen = try #require(OutputFormat.forFile(args))

        // Then
        #expect(chosen.format.title == "GPX" && chosen.path == "track.gpx")
        #expect(OutputFormat.forFile(try ArgumentParser.parse(["raw.nmea"], options: Commands.record.options, positionals: 1)) == nil)
    }
}


@Suite("gpsfix outputs: GST and fix's formats", .enabled(if: GPSFixBinary.isAvailable), .timeLimit(.minutes(1)))
struct OutputCommandTests {
    @Test("fix --gpx is a usage error that says what to use instead", arguments: ["--gpx", "--nmea", "--view"])
    func fixGPX(_ flag: String) async throws {
        // Given a capture with fixes
        let dir = try TemporaryDirectory()

        // When
        let result = try #require(await gpsfix("fix", "--replay", try dir.drive(), flag))

        // Then
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix("gpsfix: fix: \(flag) shows a run of fixes, not one: fix prints text or --json"), "\(result)")
        #expect(result.stdout.isEmpty)
    }

    @Test("watch --json: each GST follows its epoch's TPV, and all are gpsd's own GST reports",
          .enabled(if: haveGpsdCaptures, "gpsd's captures are not at ../shared/captures/gpsd/; skipped"))
    func gstAsGpsd() async throws {
        // Given a u-blox capture whose GSTs gpsd reported (its .chk file)
        let capture = gpsdCaptures.appendingPathComponent("ublox-zed-f9p-nmea.log")
        let expected = try String(contentsOf: capture.appendingPathExtension("chk"), encoding: .utf8)
            .split(whereSeparator: \.isNewline).filter { $0.contains(#""class":"GST""#) }.map(String.init)

        // When
        let result = try #require(await gpsfix("watch", "--replay", capture.path, "--json", "--speed", "max"))

        // Then every GST is gpsd's, member for member and digit for digit (less the device)
        #expect(result.status == 0, "\(result)")
        let lines = result.stdoutLines
        let device = #","device":"\#(capture.path)""#
        let ours = lines.filter { $0.contains(#""class":"GST""#) }.map { $0.replacingOccurrences(of: device, with: "") }
        #expect(expected.count == 29)
        #expect(ours == expected)
        // and each comes right after the TPV of its epoch, with the same time
        for (i, line) in lines.enumerated() where line.contains(#""class":"GST""#) {
            let tpv = i > 0 ? jsonObject(lines[i - 1]) : nil
            #expect(tpv?["class"] as? String == "TPV", "\(line)")
            #expect(tpv?["time"] as? String == jsonObject(line)?["time"] as? String)
        }
    }

    @Test("fix --json still prints one TPV when the receiver sends GST",
          .enabled(if: haveGpsdCaptures, "gpsd's captures are not at ../shared/captures/gpsd/; skipped"))
    func fixOneReport() async throws {
        // Given a capture with a GST in every epoch
        let capture = gpsdCaptures.appendingPathComponent("ublox-zed-f9p-nmea.log").path

        // When
        let result = try #require(await gpsfix("fix", "--replay", capture, "--json"))

        // Then
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.count == 1)
        #expect(jsonObject(result.stdoutLines.first ?? "")?["class"] as? String == "TPV")
    }
}
