@testable import GPSFixCLI
import GPSGpsd
import GPSLocation
import GPSSources
import Testing

/// A source is one `SourceOptionKind` and a line in `SourceOptions.kinds`; a feed of `serve`
/// one `ServeFeedKind` and a line in `ServeFeeds.all`. Everything else the commands know of
/// them (their options, repeats, the refusal of two, `--no-listen`'s outlets, the words of
/// their statuses) is read from those lists, so a kind added there is everywhere at once.
@Suite("Source and feed registries")
struct SourceAndFeedRegistryTests {
    private func parse(_ command: Command, _ arguments: [String]) throws -> ParsedArguments {
        try ArgumentParser.parse(arguments, options: command.options, positionals: command.positionals)
    }

    @Test("serve's options are the sources' and then each feed kind's, in ServeFeeds.all's order")
    func serveOptionsFromFeeds() {
        let names = Commands.serve.options.map(\.name)
        let expected = SourceOptions.severalOptions.map(\.name) + ServeFeeds.all.flatMap { $0.options.map(\.name) }
        #expect(names == expected)
        // Each kind that serves anything brings options of its own.
        #expect(GpsdServerFeedKind.options.map(\.name).contains("--nmea-udp"))
        #expect(TimeFeedOptions.options.map(\.name) == ["--chrony-sock", "--ntp-shm", "--time-offset", "--pps", "--pps-epoch", "--chrony-pps-sock"])
    }

    @Test("gpsd's listener comes first after the sources in serve's help; every feed's usage errors are said when its kind is made, before any source or feed")
    func feedOrderAndJudging() throws {
        let names = Commands.serve.options.map(\.name)
        #expect(names[SourceOptions.severalOptions.count] == "--listen")
        let setting = ServeSetting(listens: true, passed: nil)
        let refusals: [([String], String)] = [
            (["--ntp-shm", "256"], "--ntp-shm takes a unit from 0 to 255"),
            (["--time-offset", "0.1"], "--time-offset corrects the time sent with --chrony-sock or --ntp-shm: add one"),
            (["--mqtt-qos", "1"], "--mqtt-qos need --mqtt URL"),
            (["--mqtt", "mqtt://broker/fleet/+"], "cannot be published to"),
            (["--nmea-udp", "nowhere"], "--nmea-udp takes HOST:PORT"),
        ]
        for (arguments, message) in refusals {
            let args = try parse(Commands.serve, arguments)
            var said: String?
            do {
                _ = try ServeFeeds.all.map { kind throws -> any ServeFeedKind in try kind.init(args, setting) }
            } catch let error as UsageError {
                said = error.message
            }
            #expect(said?.contains(message) == true, "\(arguments): \(said ?? "nothing refused")")
        }
    }

    @Test("--no-listen's outlets are the feeds' own: each is an option of serve, and its help names every one")
    func outletsFromFeeds() throws {
        let outlets = ServeFeeds.outlets
        #expect(Set(outlets) == ["--mqtt", "--nmea-listen", "--nmea-udp", "--http", "--chrony-sock", "--ntp-shm", "--chrony-pps-sock"])
        let options = Commands.serve.options
        for outlet in outlets {
            #expect(options.contains { $0.name == outlet }, "\(outlet) is an outlet serve does not take")
        }
        let noListen = try #require(options.first { $0.name == "--no-listen" })
        for outlet in outlets {
            #expect(noListen.help.contains(outlet), "--no-listen's help leaves out \(outlet)")
        }
        // Nothing that needs the listener is an outlet.
        #expect(!outlets.contains("--listen") && !outlets.contains("--client-timeout"))
    }

    @Test("Each source kind's options are in every command that reads sources; its name is a source choice, repeated only where several are read",
          arguments: SourceOptions.kinds.map { $0.name })
    func sourceOptionsFromKinds(_ name: String) throws {
        let kind = try #require(SourceOptions.kinds.first { $0.name == name })
        #expect(kind.options.first?.name == name)
        for command in [Commands.fix, Commands.watch, Commands.serve, Commands.record] {
            let taken = command.options.map(\.name)
            for option in kind.options {
                #expect(taken.contains(option.name), "\(command.name) does not take \(option.name)")
            }
            let naming = try #require(command.options.first { $0.name == name })
            #expect(naming.usageChoice == "source")
            #expect(naming.isRepeatable == [Commands.watch.name, Commands.serve.name].contains(command.name),
                    "\(command.name) \(name)")
        }
    }

    @Test("The manager built is the named kind's, and the words its statuses use are that kind's",
          arguments: [
              (["--gpsd", "gpsd-box:2948"], SourceKind.gpsd),
              (["--nmea-tcp", "192.168.1.20:10110"], SourceKind.network),
              (["--replay", "drive.nmea"], SourceKind.capture),
              (["--device", "/dev/ttyUSB7", "--baud", "4800"], SourceKind.receiver),
          ])
    func managerFromKind(_ arguments: [String], _ words: SourceKind) throws {
        let args = try parse(Commands.watch, arguments)
        let manager = try SourceOptions.manager(args, defaultSpeed: .maximum)
        let kind = try #require(SourceOptions.kinds.first { $0.name == arguments[0] })
        let builtByIt = kind.built(manager)
        let builders = SourceOptions.kinds.filter { $0.built(manager) }.count
        let kindWords = kind.words
        #expect(builtByIt)
        #expect(builders == 1, "one kind per manager")
        #expect(SourceKind(manager) == words)
        #expect(kindWords == words)
    }

    @Test("record FILE keeps the bytes of the kinds that say they have them; the others' options need --gpx, and its usage line leaves them out")
    func recordsBytes() throws {
        #expect(SourceOptions.byteSourceNames == ["--device", "--nmea-tcp"])
        #expect(SourceOptions.fixesOnlyOptions == ["--gpsd", "--replay", "--speed", "--loop"])
        let capture = try #require(Commands.record.usage.split(separator: "\n").first)
        for option in SourceOptions.fixesOnlyOptions {
            #expect(!capture.contains(option + " ") && !capture.contains(option + "]"), "record FILE's line shows \(option)")
        }
    }

    @Test("Two kinds named to a one-source command are refused, named in the kinds' order")
    func twoKinds() throws {
        let args = try parse(Commands.fix, ["--replay", "x.nmea", "--nmea-tcp", "h:1"])
        #expect(throws: UsageError(message: "--nmea-tcp and --replay are different sources: choose one")) {
            try SourceOptions.manager(args, defaultSpeed: .maximum)
        }
    }
}
