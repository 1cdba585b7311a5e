import Dispatch
import GPSLocation
import GPSSources
import GPSStats
import Synchronization

/// `gpsfix stats`: the figures of captures (each on its own), or of a live source for
/// `--minutes`. The counting is GPSStats' (`FixStatistics`); this runs the sources and
/// prints the figures as text or JSON. `plot` reads its sources the same way.
struct StatsCommand {
    let args: ParsedArguments
    let terminal: Terminal
    /// The command read for, as its messages name it.
    var command = "stats"

    static let defaultMinutes = 10.0

    /// Every live kind's options; a replay's naming option is taken, hidden, only to say that
    /// captures are named as they are (`stats FILE`), and read whole.
    static var sourceOptions: [OptionSpec] {
        let live = SourceOptions.kinds.filter { $0.name != "--replay" }
        return live.flatMap { $0.options } + SourceOptions.options.filter { $0.name == "--simulated" }
            + [OptionSpec(name: "--replay", value: "X", help: "", valueIsOptional: true, isHidden: true)]
    }

    /// The options a live run takes and a capture's does not.
    static var liveOptions: [String] { sourceOptions.filter { !$0.isHidden && $0.name != "--simulated" }.map(\.name) + ["--minutes"] }

    /// A source to read: a capture to its end, or a live one for `seconds`.
    private struct Reading {
        let manager: any LocationManagerInterface
        let name: String
        let seconds: Double?
    }

    func run() throws -> Int32 {
        let json = args.has("--json")
        let reports = try readings().map { reading in
            let collection = Collection()
            try collect(reading, into: collection)
            return StatsReport(source: reading.name, statistics: collection.statistics)
        }
        for (index, report) in reports.enumerated() {
            terminal.print(json ? report.json : (index > 0 ? "\n" : "") + report.text + "\n")
        }
        return reports.contains { $0.statistics.fixes == 0 } ? 1 : 0
    }

    /// Every source named, read into one collection (`plot`'s): the figures, and the names read.
    func collectAll() throws -> (FixStatistics, [String]) {
        let collection = Collection()
        let readings = try readings()
        for reading in readings { try collect(reading, into: collection) }
        // The figures once, at the end: each sorts every distance.
        return (collection.statistics, readings.map(\.name))
    }

    /// The positional captures, or the live source the options name; the usage judged.
    private func readings() throws -> [Reading] {
        let captures = args.positionals
        if let replay = args["--replay"] {
            throw UsageError(message: "captures are read whole, named on their own: gpsfix \(command) \(replay.isEmpty ? "FILE" : replay)")
        }
        let named = SourceOptions.kinds.filter { args[$0.name] != nil }
        if !captures.isEmpty && !named.isEmpty {
            throw UsageError(message: "\(command) reads captures or \(named.map { $0.name }.joined(separator: ", ")), not both: name one")
        }
        if !captures.isEmpty && args["--minutes"] != nil {
            throw UsageError(message: "--minutes bounds a live run; a capture is read to its end")
        }
        guard captures.isEmpty else {
            return captures.map { Reading(manager: ReplayManager(path: $0, speed: .maximum), name: $0, seconds: nil) }
        }
        let minutes = try minutesOption()
        let manager = try SourceOptions.manager(args, defaultSpeed: .factor(1))
        return [Reading(manager: manager, name: manager.sourceDescription, seconds: minutes * 60)]
    }

    /// `--minutes`, judged: more than none, at most a week.
    private func minutesOption() throws(UsageError) -> Double {
        guard let text = args["--minutes"] else { return Self.defaultMinutes }
        guard let m = Double(text), m > 0, m <= 10_080 else {
            throw UsageError(message: "--minutes takes a number of minutes above 0 and up to 10080 (a week), not '\(text)'")
        }
        return m
    }

    /// Every fix and sky view of one source until it ends, its time is up, or Ctrl-C.
    private func collect(_ reading: Reading, into collection: Collection) throws {
        let run = SourceRun(LocationService(manager: reading.manager))
        run.armInterrupts()
        if let seconds = reading.seconds {
            terminal.note("gpsfix: \(command) of \(reading.name) for \(TimingCommand.duration(seconds)); Ctrl-C to stop sooner")
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { run.stop() }
        }
        let (end, signal) = run.run { event in
            switch event {
            case .fix(let fix): collection.state.withLock { $0.add(fix) }
            case .sky(let sky): collection.state.withLock { $0.add(sky) }
            default: break
            }
        }
        if case .error(let error)? = end, signal == nil { throw error }
    }

    /// A collector the source's thread adds to and this one reads.
    private final class Collection: Sendable {
        let state = Mutex(FixStatistics.Collector())
        var statistics: FixStatistics { state.withLock { $0.statistics } }
    }
}
