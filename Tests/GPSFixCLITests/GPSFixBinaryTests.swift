import GPSTestSupport
import Foundation
import Testing
@testable import GPSFixCLI

/// The built `gpsfix`, run as a person runs it: arguments in, stdout, stderr and exit status out.
@Suite("gpsfix binary", .enabled(if: GPSFixBinary.isAvailable, "gpsfix binary not found beside the test bundle (build it with 'swift build')"),
       .timeLimit(.minutes(1)))
struct GPSFixBinaryTests {
    static let expectedLine = "2019-04-12T12:00:0%d.000Z  48.1173000 N 11.5166667 E  alt 545.4 m  0.26 m/s  course 54.7  3D GPS  sats 8"

    static func line(_ second: Int) -> String { expectedLine.replacingOccurrences(of: "%d", with: "\(second)") }

    // MARK: - Help and version

    @Test("gpsfix --help lists the commands and exits 0", .timeLimit(.minutes(1)))
    func help() async throws {
        let result = try #require(await gpsfix("--help"))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Usage: gpsfix [COMMAND] [OPTIONS]"))
        #expect(result.stdout.contains("Commands:"))
        #expect(result.stdout.contains("  watch       Print fixes as they arrive."))
        #expect(result.stdout.contains("  fix         Print the first fix and exit"))
        #expect(result.stdout.contains("  record      Record a receiver's output"))
        #expect(result.stdout.contains("  devices     List serial ports"))
        #expect(result.stdout.contains("  serve       Serve fixes to gpsd clients"))
        #expect(result.stdout.contains("  completion  Print a completion script for bash or zsh."))
        #expect(result.stderr.isEmpty)
    }

    @Test("-h and 'help' are --help too", .timeLimit(.minutes(1)), arguments: ["-h", "help"])
    func helpSpellings(spelling: String) async throws {
        let result = try #require(await gpsfix(spelling))
        #expect(result.status == 0)
        #expect(result.stdout.contains("Commands:"))
    }

    @Test("gpsfix watch --help shows the command's usage and options", .timeLimit(.minutes(1)))
    func watchHelp() async throws {
        let result = try #require(await gpsfix("watch", "--help"))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("Print fixes as they arrive.\n\nUsage: gpsfix watch [--device PATH"))
        for option in ["--device PATH", "--baud N", "--replay FILE", "--speed X|max", "--loop", "--json", "--nmea", "--help"] {
            #expect(result.stdout.contains("  \(option)  "), "missing \(option)")
        }
        #expect(result.stderr.isEmpty)
    }

    @Test("gpsfix help fix and gpsfix fix -h show fix's help", .timeLimit(.minutes(1)))
    func fixHelp() async throws {
        let a = try #require(await gpsfix("help", "fix"))
        let b = try #require(await gpsfix("fix", "-h"))
        #expect(a.status == 0 && b.status == 0)
        #expect(a.stdout == b.stdout)
        #expect(a.stdout.contains("Usage: gpsfix [fix] [--device PATH [--baud N] | --gpsd [HOST[:PORT]] | --nmea-tcp HOST:PORT | --replay FILE [--speed X|max] [--loop]] [--simulated] [--timeout S] [--json]"))
        #expect(a.stdout.contains("--timeout S"))
    }

    @Test("gpsfix --version", .timeLimit(.minutes(1)))
    func version() async throws {
        let result = try #require(await gpsfix("--version"))
        #expect(result.status == 0)
        #expect(result.stdout == "gpsfix 0.1.0\n")
        #expect(result.stderr.isEmpty)
    }

    // MARK: - watch

    @Test("watch --json --speed max: every line is JSON, TPV and SKY, in order", .timeLimit(.minutes(1)))
    func watchJSON() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.drive()

        // When
        let result = try #require(await gpsfix("watch", "--replay", path, "--json", "--speed", "max"))

        // Then
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "no summary in JSON mode")
        let lines = result.stdoutLines
        let objects = lines.map(jsonObject)
        #expect(!lines.isEmpty)
        #expect(objects.allSatisfy { $0 != nil }, "not JSON: \(zip(lines, objects).filter { $0.1 == nil }.map(\.0))")
        let reports = objects.compactMap { $0 }
        #expect(reports.map { $0["class"] as? String } == ["TPV", "SKY", "TPV", "SKY", "TPV", "SKY"])
        let tpv = reports.filter { $0["class"] as? String == "TPV" }
        #expect(tpv.map { $0["time"] as? String } == (0..<3).map { "2019-04-12T12:00:0\($0).000Z" })
        for report in tpv {
            #expect(report["device"] as? String == path)
            #expect((report["mode"] as? NSNumber)?.intValue == 3)
            #expect((report["lat"] as? NSNumber)?.doubleValue == 48.1173)
            #expect((report["altMSL"] as? NSNumber)?.doubleValue == 545.4)
            #expect((report["speed"] as? NSNumber)?.doubleValue == 0.257, "0.5 kn in m/s")
            #expect(report["status"] == nil)
        }
        let sky = reports.filter { $0["class"] as? String == "SKY" }
        for report in sky {
            #expect((report["nSat"] as? NSNumber)?.intValue == 5)
            #expect((report["uSat"] as? NSNumber)?.intValue == 5)
            #expect((report["satellites"] as? [[String: Any]])?.compactMap { ($0["PRN"] as? NSNumber)?.intValue } == [4, 5, 9, 12, 24])
            #expect((report["pdop"] as? NSNumber)?.doubleValue == 2.5)
            #expect((report["hdop"] as? NSNumber)?.doubleValue == 1.3)
            #expect((report["vdop"] as? NSNumber)?.doubleValue == 2.1)
        }
    }

    @Test("watch prints one readable line per epoch, then a summary on stderr", .timeLimit(.minutes(1)))
    func watchText() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.drive()

        // When
        let result = try #require(await gpsfix("watch", "--replay", path, "--speed", "max"))

        // Then
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines == [Self.line(0), Self.line(1), Self.line(2)])
        #expect(result.stderr == "\(path): 15 sentences decoded, 3 epochs\n")
    }

    @Test("watch paced at 20x takes about a tenth of a second for 3 epochs", .timeLimit(.minutes(1)))
    func watchPaced() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.drive()
        let clock = ContinuousClock()
        let start = clock.now
        let result = try #require(await gpsfix("watch", "--replay", path, "--speed", "20"))
        let elapsed = clock.now - start
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.count == 3)
        #expect(elapsed >= .milliseconds(90), "took \(elapsed)")
    }

    @Test("watch of a capture without a fix prints 'no fix' lines and exits 0", .timeLimit(.minutes(1)))
    func watchNoFix() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.noFix()
        let result = try #require(await gpsfix("watch", "--replay", path, "--speed", "max"))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.count == 3)
        #expect(result.stdoutLines.allSatisfy { $0.contains("no fix") })
    }

    // MARK: - fix

    @Test("fix --replay prints one line and exits 0", .timeLimit(.minutes(1)))
    func fix() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.drive()
        let result = try #require(await gpsfix("fix", "--replay", path))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines == [Self.line(0)])
        #expect(result.stderr.isEmpty)
    }

    @Test("fix is the default command", .timeLimit(.minutes(1)))
    func fixIsDefault() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.drive()
        let result = try #require(await gpsfix("--replay", path))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines == [Self.line(0)])
    }

    @Test("fix --json prints one TPV report", .timeLimit(.minutes(1)))
    func fixJSON() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.drive()
        let result = try #require(await gpsfix("fix", "--replay", path, "--json"))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.count == 1)
        let report = try #require(jsonObject(result.stdoutLines.first ?? ""))
        #expect(report["class"] as? String == "TPV")
        #expect(report["time"] as? String == "2019-04-12T12:00:00.000Z")
        #expect(report["device"] as? String == path)
    }

    @Test("fix on a capture that never has a fix exits 1 and says so", .timeLimit(.minutes(1)))
    func fixWithoutFix() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.noFix()
        let result = try #require(await gpsfix("fix", "--replay", path))
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "gpsfix: \(path) ended without a fix.\n")
    }

    @Test("fix --timeout gives up when no fix comes in time", .timeLimit(.minutes(1)))
    func fixTimeout() async throws {
        // Given: a minute of no-fix epochs, replayed in real time
        let dir = try TemporaryDirectory()
        let path = try dir.noFix(epochs: 60)

        // When
        let result = try #require(await gpsfix("fix", "--replay", path, "--speed", "1", "--timeout", "0.3"))

        // Then
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("gpsfix: No fix within 0.3 s."))
    }

    // MARK: - Mistakes

    @Test("A missing file: exit 1 and a message naming the file", .timeLimit(.minutes(1)), arguments: ["watch", "fix"])
    func missingFile(command: String) async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/missing.nmea"
        let result = try #require(await gpsfix(command, "--replay", path))
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(path))
        #expect(result.stderr.hasPrefix("gpsfix: \(path): no such file."))
    }

    @Test("A directory or a file without NMEA: exit 1 and a message naming it", .timeLimit(.minutes(1)))
    func unreadable() async throws {
        let dir = try TemporaryDirectory()
        let directory = try #require(await gpsfix("watch", "--replay", dir.path))
        #expect(directory.status == 1)
        #expect(directory.stderr == "gpsfix: \(dir.path): cannot be read (it is a directory).\n")

        let notes = try dir.write("notes.txt", "eggs\nmilk\n")
        let text = try #require(await gpsfix("fix", "--replay", notes))
        #expect(text.status == 1)
        #expect(text.stderr.hasPrefix("gpsfix: \(notes): holds no NMEA sentences."))
    }

    @Test("An unknown option: exit 64 with the command's usage", .timeLimit(.minutes(1)))
    func unknownOption() async throws {
        let result = try #require(await gpsfix("watch", "--bogus"))
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4, "\(result.stderr)")
        #expect(lines.first == "gpsfix: watch: unknown option '--bogus'")
        #expect(lines.dropFirst().first?.hasPrefix("Usage: gpsfix watch [--device PATH [--baud N] | --gpsd [HOST[:PORT]] | --nmea-tcp HOST:PORT | --replay FILE") == true)
        #expect(lines.dropFirst(2).first == "See 'gpsfix watch --help'.")
    }

    @Test("A misspelt option gets a suggestion", .timeLimit(.minutes(1)))
    func misspelt() async throws {
        let result = try #require(await gpsfix("watch", "--jsn"))
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("gpsfix: watch: unknown option '--jsn' (did you mean --json?)"))
    }

    @Test("A single-valued option given twice: exit 64 naming both, rather than silently the last", .timeLimit(.minutes(1)),
          arguments: [
              (["fix", "--replay", "a.nmea", "--replay", "b.nmea"], "--replay given twice ('a.nmea', then 'b.nmea'): it takes one FILE"),
              (["serve", "--listen", "2948", "--listen=2949"], "--listen given twice ('2948', then '2949'): it takes one [ADDR:]PORT"),
              // serve and watch read several receivers; record reads one.
              (["record", "x.nmea", "--device", "/dev/ttyUSB0", "--device", "/dev/ttyUSB1"], "--device given twice ('/dev/ttyUSB0', then '/dev/ttyUSB1'): it takes one PATH"),
              (["--timeout", "5", "--timeout", "6"], "--timeout given twice ('5', then '6'): it takes one S"),
          ])
    func repeatedOption(arguments: [String], message: String) async throws {
        let result = try #require(await runGPSFix(arguments))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix("gpsfix: \(Commands.named(arguments[0])?.name ?? "fix"): \(message)\n"), "\(result)")
        #expect(result.stdout.isEmpty)
    }

    @Test("A bad --speed: exit 64", .timeLimit(.minutes(1)), arguments: ["abc", "0", "-2", "inf", "nan", ""])
    func badSpeed(speed: String) async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.drive()
        let result = try #require(await gpsfix("watch", "--replay", path, "--speed", speed))
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("--speed takes a number from 0.001 to 1000000, or 'max', not '\(speed)'"))
        #expect(result.stderr.contains("Usage: gpsfix watch"))
    }

    @Test("A bad --timeout: exit 64", .timeLimit(.minutes(1)))
    func badTimeout() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.drive()
        let result = try #require(await gpsfix("fix", "--replay", path, "--timeout", "soon"))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--timeout takes a number of seconds above 0 and up to 1000000, not 'soon'"))
    }

    @Test("An option missing its value: exit 64", .timeLimit(.minutes(1)))
    func missingValue() async throws {
        let result = try #require(await gpsfix("watch", "--replay"))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix("gpsfix: watch: --replay needs a value (FILE)"))
    }

    @Test("No receiver found: fix exits 1, saying where it looked (watch and serve wait instead)", .timeLimit(.minutes(1)),
          .enabled(if: !FileManager.default.fileExists(atPath: "/dev/serial/by-id") && !FileManager.default.fileExists(atPath: "/dev/ttyACM0")
                   && !FileManager.default.fileExists(atPath: "/dev/ttyUSB0") && !FileManager.default.fileExists(atPath: "/dev/gps0"),
                   "this machine has a serial port that may be a receiver"),
          arguments: [[], ["fix", "--json"], ["record", "x.nmea"]])
    func noSource(arguments: [String]) async throws {
        let result = try #require(await runGPSFix(arguments))
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("No GPS receiver found (searched /dev/gps*, /dev/serial/by-id/*"))
        #expect(result.stderr.contains("name it with --device PATH"))
    }

    @Test("A --device that does not exist: exit 1, naming it", .timeLimit(.minutes(1)))
    func missingDevice() async throws {
        let result = try #require(await gpsfix("fix", "--device", "/dev/ttyGPSFIX-none", "--timeout", "2"))
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("/dev/ttyGPSFIX-none"))
    }

    @Test("gpsfix nonsense: exit 64, naming the commands", .timeLimit(.minutes(1)))
    func unknownCommand() async throws {
        let result = try #require(await gpsfix("nonsense"))
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "gpsfix: unknown command 'nonsense'. Commands: fix, watch, record, serve, timing, stats, plot, devices, completion; see 'gpsfix --help'.\n")
    }

    @Test("A stray argument: exit 64", .timeLimit(.minutes(1)))
    func strayArgument() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.drive()
        let result = try #require(await gpsfix("watch", "--replay", path, "extra"))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("unexpected argument 'extra'"))
    }

    // MARK: - Edge cases that once failed

    @Test("A huge --timeout is refused, not a crash", .timeLimit(.minutes(1)))
    func hugeTimeout() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.drive()

        // When: a timeout SourceOptions.seconds accepts (positive and finite)
        let result = try #require(await gpsfix("fix", "--replay", path, "--timeout", "1e20"))

        // Then: the fix, or a usage error; not a crash
        #expect(!result.signalled, "\(result.stderr.prefix(200))")
        #expect(result.status == 0 || result.status == 64)
    }

    @Test("A tiny --speed is refused, not a crash", .timeLimit(.minutes(1)))
    func tinySpeed() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.drive()

        // When: a speed SourceOptions.speed accepts (positive and finite); the replay would take
        // forever, so it may still be running after a few seconds, which is fine
        let result = try #require(await gpsfix("watch", "--replay", path, "--speed", "1e-300",
                                               limit: .seconds(3), mayRunOn: true))

        // Then
        #expect(!result.signalled, "\(result.stderr.prefix(200))")
        #expect(result.timedOut || result.status == 64)
    }
}

@Suite("gpsfix watch --nmea")
struct NMEAPassthroughTests {
    @Test("Every sentence with a good checksum comes out as it went in; the damaged ones do not", .timeLimit(.minutes(1)))
    func passthrough() async throws {
        // Given: a capture with a good sentence in lowercase hex, a bad checksum and junk
        let dir = try TemporaryDirectory()
        let good = "$GPGGA,120000.00,5332.7072,N,00957.9804,E,1,08,1.10,3.0,M,40.3,M,,*58"
        let lower = "$GPRMC,120000.00,A,5332.7072,N,00957.9804,E,6.03,268.0,140324,,,A*6f"
        let bad = "$GPGGA,120001.00,5332.7072,N,00957.9804,E,1,08,1.10,3.0,M,40.3,M,,*00"
        let path = try dir.write("mixed.nmea", "# Name: mixed\n\(good)\r\n\(bad)\r\nBANNER\n\(lower)\n")

        // When
        let result = try #require(await gpsfix("watch", "--replay", path, "--nmea", "--speed", "max"))

        // Then: byte for byte, lowercase checksum kept, CR LF endings, nothing else
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == good + "\r\n" + lower + "\r\n")
    }

    @Test("--json and --nmea together are a usage error", .timeLimit(.minutes(1)))
    func exclusive() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.drive()
        let result = try #require(await gpsfix("watch", "--replay", path, "--nmea", "--json"))
        #expect(result.status == 64)
        #expect(result.stderr.contains("choose one"))
    }
}

@Suite("gpsfix --gpsd")
struct GpsdCLITests {
    @Test("No gpsd listening: a clear error within a second, naming host and port", .timeLimit(.minutes(1)))
    func absent() async throws {
        // Given: a port nobody listens on (1 is privileged and unused here)
        let start = ContinuousClock.now
        // When
        let result = try #require(await gpsfix("fix", "--gpsd", "127.0.0.1:1"))
        // Then
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("gpsd at 127.0.0.1:1 is not answering"))
    }
}
