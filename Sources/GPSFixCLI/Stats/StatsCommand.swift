import Dispatch
import GPSLocation
import GPSSources
import GPSStats
import Synchronization

/// `gpsfix stats`: the figures of captures (each on its own), or of a live source for
/// `--minutes`. The counting is GPSStats' (`FixStatistics`); this runs the sources and
/// prints the figures as text or JSON.
struct StatsCommand {
    let args: ParsedArguments
    let terminal: Terminal

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

    func run() throws -> Int32 {
        let captures = args.positionals
        if let replay = args["--replay"] {
            throw UsageError(message: "stats reads a capture whole, named on its own: gpsfix stats \(replay.isEmpty ? "FILE" : replay)")
        }
        let named = SourceOptions.kinds.filter { args[$0.name] != nil }
        if !captures.isEmpty && !named.isEmpty {
            throw UsageError(message: "stats reads captures or \(named.map { $0.name }.joined(separator: ", ")), not both: name one")
        }
        if !captures.isEmpty && args["--minutes"] != nil {
            throw UsageError(message: "--minutes bounds a live run; a capture is read to its end")
        }
        let json = args.has("--json")
        var reports: [StatsReport] = []
        if captures.isEmpty {
            let minutes = try minutesOption()
            let manager = try SourceOptions.manager(args, defaultSpeed: .factor(1))
            let source = manager.sourceDescription
            terminal.note("gpsfix: stats of \(source) for \(TimingCommand.duration(minutes * 60)); Ctrl-C to stop sooner")
            reports.append(try collect(manager, name: source, seconds: minutes * 60))
        } else {
            for path in captures {
                reports.append(try collect(ReplayManager(path: path, speed: .maximum), name: path, seconds: nil))
            }
        }
        for (index, report) in reports.enumerated() {
            terminal.print(json ? report.json : (index > 0 ? "\n" : "") + report.text + "\n")
        }
        return reports.contains { $0.statistics.fixes == 0 } ? 1 : 0
    }

    /// `--minutes`, judged: more than none, at most a week.
    private func minutesOption() throws(UsageError) -> Double {
        guard let text = args["--minutes"] else { return Self.defaultMinutes }
        guard let m = Double(text), m > 0, m <= 10_080 else {
            throw UsageError(message: "--minutes takes a number of minutes above 0 and up to 10080 (a week), not '\(text)'")
        }
        return m
    }

    /// Every fix and sky view of one source until it ends, `seconds` pass, or Ctrl-C.
    private func collect(_ manager: any LocationManagerInterface, name: String, seconds: Double?) throws -> StatsReport {
        let collector = Mutex(FixStatistics.Collector())
        let run = SourceRun(LocationService(manager: manager))
        run.armInterrupts()
        if let seconds { DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { run.stop() } }
        let (end, signal) = run.run { event in
            switch event {
            case .fix(let fix): collector.withLock { $0.add(fix) }
            case .sky(let sky): collector.withLock { $0.add(sky) }
            default: break
            }
        }
        if case .error(let error)? = end, signal == nil { throw error }
        return StatsReport(source: name, statistics: collector.withLock { $0.statistics })
    }
}
