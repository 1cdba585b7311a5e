import Dispatch
import GPSSystem
import GPSLocation
import GPSOutput
import Synchronization

/// `gpsfix watch`: every fix, in the output chosen, until the source ends, Ctrl-C, or `-n N`.
struct WatchCommand {
    let args: ParsedArguments
    let terminal: Terminal

    func run() throws -> Int32 {
        // A person at a terminal gets the live view; a pipe, a file or a terminal that cannot
        // redraw in place (TERM=dumb) gets lines.
        let redraws = TerminalScreen.canRedraw(term: TerminalScreen.environmentTerm)
        var format = try OutputFormat.forWatch(args, stdoutIsTerminal: terminal.out.descriptor.isTerminal && redraws)
        let limit = try SourceOptions.count(args, "-n")
        let speed = try SourceOptions.speed(args, default: .factor(1))
        let fleet = try MQTTWatch.fleet(args, log: { [terminal] in terminal.note($0) })
        let managers: [any LocationManagerInterface] = try fleet.map { [$0.manager] }
            ?? SourceOptions.managers(args, defaultSpeed: speed, forwardsSentences: format.needsSentences, waits: .receivers)
        let several = managers.count > 1
        if several && !format.showsSeveralSources {
            let lines = OutputFormat.all.filter(\.showsSeveralSources).map { $0.flag ?? $0.title }
            throw UsageError(message: "\(format.flag ?? format.title) shows one source; with several, watch prints \(lines.joined(separator: ", "))")
        }
        // What was asked is judged first, whatever the terminal: a usage error is one everywhere.
        if format.isForPeople && !redraws {
            terminal.note("gpsfix: this terminal (TERM=\(TerminalScreen.environmentTerm ?? "")) cannot redraw in place; printing lines instead of the live view")
            format = OutputFormat.plain
        }
        // Each source writes through an output of its own (its name in its lines), all into
        // the one stdout.
        let outputs = try managers.map { manager in
            // A pipe is live even at --speed max: what has arrived is shown before the next wait.
            let live = SourceOptions.isLiveReplay(manager)
            let context = WatchContext(terminal: terminal, source: manager.sourceDescription, kind: SourceKind(manager),
                                       paced: speed != .maximum || live)
            // The live view shows the source's running counts (sentences, bad checksums) as they grow.
            var setup = OutputSetup(context: context, timestamps: args.has("-t"), statistics: { [manager] in manager.statistics })
            if format.labelsLines {
                // Several sources: each line says its own; one MQTT prefix with wildcards: the
                // vehicle the line is of.
                let name = manager.sourceDescription
                let fixed: @Sendable () -> String? = { name }
                setup.label = several ? fixed : MQTTWatch.label(manager)
            }
            setup.device = MQTTWatch.vehicle(manager)
            let output = try format.make(setup)
            // A whole capture as fast as it decodes, into a pipe or a file: written beside the decoding.
            let bulk = !context.paced && !several && limit == nil && !format.isForPeople
            return bulk ? PipelinedOutput(output) : output
        }
        let run = SourceRun(managers.map { LocationService(manager: $0) })
        // The output is written by one thread at a time: a source's, or the one that stops
        // them (Ctrl-C), which may deliver an end while a source is still mid-report. After
        // every end, and once `finish` has begun, nothing more is written.
        let gate = Mutex(Gate(open: Array(repeating: true, count: managers.count)))
        // Ctrl-C or SIGTERM stop the sources; the outputs are then closed properly, exit 0.
        let (ends, _) = run.runEach(outputs.indices.map { index in
            let output = UncheckedBox(outputs[index])
            return { event in
                // A fleet's vehicles come and go as their publishers decide: said at a rate.
                if let fleet, fleet.saysVehicleStatus(event) { return }
                // With several sources, one that fails is said at once; the others go on.
                if several, case .error(let error) = event { terminal.note("gpsfix: " + Advice.message(for: error)) }
                let stop = gate.withLock { g -> Bool in
                    guard g.open[index] else { return false }
                    g.written += output.value.write(event)
                    if event.isTerminal { g.open[index] = false }
                    return limit.map { g.written >= $0 } ?? false || output.value.failed
                }
                if stop { run.stop() }
            }
        })
        gate.withLock { $0.open = $0.open.map { _ in false } }
        for (output, end) in zip(outputs, ends) { output.finish(end) }
        let failures = ends.filter { if case .error? = $0 { true } else { false } }.count
        if several && failures > 0 { throw SourcesFailed(failed: failures, of: ends.count) }
        if case .error(let error)? = ends.first { throw error }
        return 0
    }
}

/// Some of several sources failed (each said why as it did): exit 1.
struct SourcesFailed: Error, CustomStringConvertible {
    let failed: Int
    let of: Int
    var description: String { "\(failed) of \(of) sources failed (see above)" }
}

private struct Gate {
    var written = 0
    /// Which sources' outputs still take events.
    var open: [Bool]
}

/// Hands a non-Sendable value to the one thread that uses it next. The caller guarantees
/// that only one thread touches it at a time (here: the source's thread while the main thread
/// waits on a semaphore).
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
