import NMEA
import Glibc
import GPSLocation
import GPSSources
import Testing
@testable import GPSFixCLI

@Suite("ArgumentParser")
struct ArgumentParserTests {
    let options: [OptionSpec] = [
        .value("--replay", "FILE", "A capture."),
        .value("--speed", "X|max", "Pace."),
        .flag("--loop", "Again."),
        .flag("--json", "JSON."),
    ]

    private func parse(_ arguments: [String], positionals: Int = 0) throws(UsageError) -> ParsedArguments {
        try ArgumentParser.parse(arguments, options: options, positionals: positionals)
    }

    private func error(_ arguments: [String], positionals: Int = 0) -> String? {
        do {
            _ = try parse(arguments, positionals: positionals)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("Values, flags, and the --name=value form")
    func valuesAndFlags() throws {
        // When
        let parsed = try parse(["--replay", "a.nmea", "--json", "--speed=max"])

        // Then
        #expect(parsed["--replay"] == "a.nmea")
        #expect(parsed["--speed"] == "max")
        #expect(parsed.has("--json"))
        #expect(!parsed.has("--loop"))
        #expect(parsed.positionals.isEmpty)
        #expect(!parsed.wantsHelp)
    }

    @Test("Nothing given is nothing parsed")
    func empty() throws {
        let parsed = try parse([])
        #expect(parsed.values.isEmpty && parsed.flags.isEmpty && parsed.positionals.isEmpty && !parsed.wantsHelp)
    }

    @Test("An inline value may be empty or hold '='")
    func inline() throws {
        #expect(try parse(["--speed="])["--speed"] == "")
        #expect(try parse(["--replay=a=b.nmea"])["--replay"] == "a=b.nmea")
    }

    @Test("A single-valued option given twice is an error that names both values, however each was written")
    func repeatedSingleValue() {
        #expect(error(["--replay", "a.nmea", "--replay", "b.nmea"]) == "--replay given twice ('a.nmea', then 'b.nmea'): it takes one FILE")
        #expect(error(["--speed=2", "--json", "--speed", "2"]) == "--speed given twice ('2', then '2'): it takes one X|max")
    }

    @Test("A repeatable option keeps every value in order; the others still take one")
    func repeatable() throws {
        let options = self.options + [OptionSpec.value("--device", "PATH", "A port.").repeatable()]
        let parsed = try ArgumentParser.parse(["--device", "/dev/a", "--json", "--device=/dev/b"], options: options, positionals: 0)
        #expect(parsed.all("--device") == ["/dev/a", "/dev/b"])
        #expect(parsed.all("--replay") == [])
        #expect(try ArgumentParser.parse(["--replay", "x"], options: options, positionals: 0).all("--replay") == ["x"])
        #expect(throws: UsageError.self) {
            try ArgumentParser.parse(["--device", "/dev/a", "--replay", "x", "--replay", "y"], options: options, positionals: 0)
        }
    }

    @Test("A flag given twice is the flag")
    func repeatedFlag() throws {
        #expect(try parse(["--json", "--json"]).has("--json"))
    }

    @Test("A value may start with a dash when it follows its option")
    func dashValue() throws {
        #expect(try parse(["--speed", "-1"])["--speed"] == "-1")
    }

    @Test("--help and -h anywhere ask for help", arguments: [["--help"], ["-h"], ["--replay", "x", "--help"], ["--json", "-h"]])
    func help(arguments: [String]) throws {
        #expect(try parse(arguments).wantsHelp)
    }

    @Test("An unknown option is an error, with a suggestion when one is close")
    func unknown() {
        #expect(error(["--bogus"]) == "unknown option '--bogus'")
        #expect(error(["--sped", "2"]) == "unknown option '--sped' (did you mean --speed?)")
        #expect(error(["--jsn"]) == "unknown option '--jsn' (did you mean --json?)")
        #expect(error(["-x"]) == "unknown option '-x'")
        #expect(error(["--bogus=1"]) == "unknown option '--bogus'")
    }

    @Test("A value option at the end needs its value")
    func missingValue() {
        #expect(error(["--replay"]) == "--replay needs a value (FILE)")
        #expect(error(["--json", "--speed"]) == "--speed needs a value (X|max)")
    }

    @Test("A flag takes no value")
    func flagWithValue() {
        #expect(error(["--json=yes"]) == "--json takes no value")
    }

    @Test("Positionals up to the command's maximum; more is an error")
    func positionals() throws {
        #expect(error(["extra"]) == "unexpected argument 'extra'")
        #expect(try parse(["a", "--json", "b"], positionals: 2).positionals == ["a", "b"])
        #expect(error(["a", "b", "c"], positionals: 2) == "unexpected argument 'c'")
        #expect(try parse(["-"], positionals: 1).positionals == ["-"], "a lone dash is an argument (stdin), not an option")
    }

    @Test("After --, everything is a positional")
    func doubleDash() throws {
        let parsed = try parse(["--json", "--", "--loop", "-h"], positionals: 2)
        #expect(parsed.positionals == ["--loop", "-h"])
        #expect(!parsed.has("--loop"))
        #expect(!parsed.wantsHelp)
    }

    @Test("After --, the positional maximum still holds")
    func doubleDashMaximum() {
        #expect(error(["--", "extra"], positionals: 0) == "unexpected argument 'extra'")
    }
}

@Suite("SourceOptions")
struct SourceOptionsTests {
    private func args(_ values: [String: String], flags: Set<String> = []) -> ParsedArguments {
        var parsed = ParsedArguments()
        parsed.values = values
        parsed.flags = flags
        return parsed
    }

    @Test("--speed: max, a positive factor, or the default")
    func speed() throws {
        #expect(try SourceOptions.speed(args([:]), default: .factor(1)) == .factor(1))
        #expect(try SourceOptions.speed(args(["--speed": "max"]), default: .factor(1)) == .maximum)
        #expect(try SourceOptions.speed(args(["--speed": "2.5"]), default: .maximum) == .factor(2.5))
        #expect(try SourceOptions.speed(args(["--speed": "10"]), default: .maximum) == .factor(10))
    }

    @Test("--speed rejects what is not a number from 0.001 to 1000000", arguments: ["0", "-1", "abc", "inf", "nan", "", "MAX"])
    func badSpeed(text: String) {
        #expect(throws: UsageError(message: "--speed takes a number from 0.001 to 1000000, or 'max', not '\(text)'")) {
            try SourceOptions.speed(args(["--speed": text]), default: .factor(1))
        }
    }

    @Test("--timeout: positive seconds, or the default")
    func seconds() throws {
        #expect(try SourceOptions.seconds(args([:]), "--timeout", default: 30) == 30)
        #expect(try SourceOptions.seconds(args(["--timeout": "0.25"]), "--timeout", default: 30) == 0.25)
        #expect(throws: UsageError(message: "--timeout takes a number of seconds above 0 and up to 1000000, not '0'")) {
            try SourceOptions.seconds(args(["--timeout": "0"]), "--timeout", default: 30)
        }
    }

    @Test("The manager is a ReplayManager of the named file, with the options given")
    func manager() throws {
        let manager = try SourceOptions.manager(args(["--replay": "c.nmea", "--speed": "4"], flags: ["--loop"]),
                                                defaultSpeed: .maximum)
        let replay = try #require(manager as? ReplayManager)
        #expect(replay.path == "c.nmea")
        #expect(replay.speed == .factor(4))
        #expect(replay.loop)
        #expect(manager.sourceDescription == "c.nmea")
    }

    @Test("Without --replay or --device, discovery picks the receiver; none found is a clear error",
          .enabled(if: DeviceDiscovery.candidates().isEmpty, "this machine has a serial port that may be a receiver"))
    func noSource() {
        #expect(throws: LocationError.deviceNotFound(searched: DeviceDiscovery.searchedLocations())) {
            try SourceOptions.manager(args([:]), defaultSpeed: .maximum)
        }
    }

    @Test("--device names the serial port; --baud takes only receivers' rates")
    func device() throws {
        let manager = try SourceOptions.manager(args(["--device": "/dev/ttyUSB7", "--baud": "4800"]), defaultSpeed: .maximum)
        let serial = try #require(manager as? SerialNMEAManager)
        #expect(serial.path == "/dev/ttyUSB7")
        #expect(serial.options.baud == 4800)
        #expect(throws: UsageError.self) { try SourceOptions.baud(args(["--baud": "1234"])) }
        #expect(throws: UsageError.self) {
            try SourceOptions.manager(args(["--device": "/dev/ttyUSB7", "--replay": "x.nmea"]), defaultSpeed: .maximum)
        }
    }
}

@Suite("Commands")
struct CommandsTests {
    @Test("The table names fix, watch, record, serve, timing, stats, plot, devices and completion")
    func table() {
        #expect(Commands.all.map(\.name) == ["fix", "watch", "record", "serve", "timing", "stats", "plot", "devices", "completion"])
        #expect(Commands.named("watch")?.name == "watch")
        #expect(Commands.named("nonsense") == nil)
    }

    @Test("Help lines up the options and adds --help")
    func help() {
        let help = Commands.watch.help
        // The help texts start in one column, two spaces after the longest option.
        // The longest is --mqtt-password-file FILE.
        #expect(help.contains("\nOptions:\n  --device PATH              The receiver's serial port"))
        #expect(help.contains("\n  --gpsd [HOST[:PORT]]       Read through a running gpsd"))
        #expect(help.contains("\n  --replay FILE              Read a recorded capture"))
        #expect(help.contains("\n  --loop                     Start the capture again when it ends (a file only: a pipe or FIFO is read once).\n"))
        #expect(help.contains("\n  --mqtt-password-file FILE  Read the broker password from FILE"))
        #expect(help.contains("  --help                     Show this help.\n\nExamples:\n"), "the options end with --help, and the examples follow")
    }

    @Test("The overview lists every command with its summary")
    func overview() {
        for command in Commands.all {
            #expect(GPSFixCLI.overview.contains(command.name))
            #expect(GPSFixCLI.overview.contains(command.summary))
        }
    }

    @Test("The summary line counts what the engine read")
    func summary() {
        let parser = NMEAParser()
        parser.parse(Array("$GPGGA,120000.00,,,,,0,00,,,M,,M,,*4B\r\n$GPXXX,1*00\r\n".utf8)) { _ in }
        parser.finish { _ in }
        let line = Summary.line(parser.statistics, source: "x.nmea")
        #expect(line.hasPrefix("x.nmea: 1 sentences decoded, 1 epochs"))
        #expect(line.contains("1 with bad checksums"))
        #expect(!line.contains("left out"))
        var crowded = parser.statistics
        crowded.epochs.satellitesLeftOut = 79
        #expect(Summary.line(crowded, source: "x.nmea").contains("79 satellites left out of sky views (over 140 in one)"))
    }
}

/// `GPSFixCLI.run` in-process, with the terminal on pipes.
@Suite("GPSFixCLI.run")
struct RunTests {
    private func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        var outFDs: [Int32] = [0, 0], errFDs: [Int32] = [0, 0]
        try #require(pipe(&outFDs) == 0 && pipe(&errFDs) == 0)
        defer { for fd in outFDs + errFDs { close(fd) } }
        let status = GPSFixCLI.run(arguments, terminal: Terminal(outFD: outFDs[1], errFD: errFDs[1]))
        return (status, drain(outFDs[0]), drain(errFDs[0]))
    }

    private func drain(_ fd: Int32) -> String {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("--version and version")
    func version() throws {
        for spelling in ["--version", "version"] {
            let result = try run([spelling])
            #expect(result.status == 0)
            #expect(result.out == "gpsfix \(GPSFixCLI.version)\n")
        }
    }

    @Test("Usage errors are 64, with the command's usage on stderr")
    func usage() throws {
        let result = try run(["fix", "--speed"])
        #expect(result.status == 64)
        #expect(result.out.isEmpty)
        #expect(result.err == "gpsfix: fix: --speed needs a value (X|max)\nUsage: gpsfix [fix] [--device PATH [--baud N] | --gpsd [HOST[:PORT]] | --nmea-tcp HOST:PORT | --replay FILE [--speed X|max] [--loop]] [--simulated] [--timeout S] [--json]\nSee 'gpsfix fix --help'.\n")
    }

    @Test("Runtime failures are 1, with the reason on stderr")
    func failure() throws {
        let result = try run(["fix", "--replay", "/nonexistent-gpsfix/x.nmea"])
        #expect(result.status == 1)
        #expect(result.err.hasPrefix("gpsfix: /nonexistent-gpsfix/x.nmea: no such file."))
    }
}

@Suite("--gpsd")
struct GpsdOptionTests {
    @Test("HOST[:PORT] with gpsd's defaults", arguments: [
        ("", "127.0.0.1", 2947), ("example.org", "example.org", 2947), ("10.1.2.3:3000", "10.1.2.3", 3000),
        (":2948", "127.0.0.1", 2948),
    ] as [(String, String, Int)])
    func address(text: String, host: String, port: Int) throws {
        let parsed = try SourceOptions.gpsdAddress(text)
        #expect(parsed.host == host)
        #expect(parsed.port == port)
    }

    @Test("Bad addresses are usage errors", arguments: ["a:b:c", "host:0", "host:70000", "host:x"])
    func bad(text: String) {
        #expect(throws: UsageError.self) { try SourceOptions.gpsdAddress(text) }
    }

    @Test("--gpsd alone takes the default; it and --replay are two sources")
    func parsing() throws {
        let spec = Commands.watch.options
        let parsed = try ArgumentParser.parse(["--gpsd", "--json"], options: spec, positionals: 0)
        #expect(parsed["--gpsd"] == "")
        #expect(parsed.has("--json"))
        #expect(try ArgumentParser.parse(["--gpsd", "h:1"], options: spec, positionals: 0)["--gpsd"] == "h:1")
        #expect(throws: UsageError.self) {
            try SourceOptions.manager(try ArgumentParser.parse(["--gpsd", "--replay", "x"], options: spec, positionals: 0),
                                      defaultSpeed: .maximum)
        }
    }
}
