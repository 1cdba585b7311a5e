import Dispatch
import Glibc
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
        var format = try OutputFormat.forWatch(args, stdoutIsTerminal: isatty(terminal.out.fd) == 1 && redraws)
        if format.isForPeople && !redraws {
            terminal.note("gpsfix: this terminal (TERM=\(TerminalScreen.environmentTerm ?? "")) cannot redraw in place; printing lines instead of the live view")
            format = OutputFormat.plain
        }
        let limit = try SourceOptions.count(args, "-n")
        let speed = try SourceOptions.speed(args, default: .factor(1))
        let manager: any LocationManagerInterface = try MQTTWatch.manager(args)
            ?? SourceOptions.manager(args, defaultSpeed: speed, forwardsSentences: format.needsSentences)
        // A pipe is live even at --speed max: what has arrived is shown before the next wait.
        let live = SourceOptions.isLiveReplay(manager)
        let context = WatchContext(terminal: terminal, source: manager.sourceDescription, kind: SourceKind(manager),
                                   paced: speed != .maximum || live)
        // The live view shows the source's running counts (sentences, bad checksums) as they grow.
        var setup = OutputSetup(context: context, timestamps: args.has("-t"), statistics: { [manager] in manager.statistics })
        // Text lines only: a prefix would break a JSON line (whose device member says the same).
        if format.flag == nil { setup.label = MQTTWatch.label(manager) }
        let output = try format.make(setup)
        let service = LocationService(manager: manager)
        // The output is written by one thread at a time: the source's, or the one that stops
        // it (Ctrl-C), which may deliver the end while the source is still mid-report. After
        // the end, and once `finish` has begun, nothing more is written.
        let gate = Mutex(Gate())
        let box = UncheckedBox(output)
        // Ctrl-C or SIGTERM stop the source; the output is then closed properly, exit 0.
        let (end, _) = SourceRun(service).run { event in
            let stop = gate.withLock { g -> Bool in
                guard !g.closed else { return false }
                g.written += box.value.write(event)
                if event.isTerminal { g.closed = true }
                return limit.map { g.written >= $0 } ?? false || box.value.failed
            }
            if stop { service.stop() }
        }
        gate.withLock { $0.closed = true }
        output.finish(end)
        if case .error(let error)? = end { throw error }
        return 0
    }
}

private struct Gate {
    var written = 0
    var closed = false
}

/// Hands a non-Sendable value to the one thread that uses it next. The caller guarantees
/// that only one thread touches it at a time (here: the source's thread while the main thread
/// waits on a semaphore).
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
