import Dispatch
import GPSLocation
import GPSOutput
import Synchronization

/// `gpsfix watch`: every fix, as text or as gpsd JSON, until the source ends.
struct WatchCommand {
    let args: ParsedArguments
    let terminal: Terminal
    var json: Bool { args.has("--json") }
    var nmea: Bool { args.has("--nmea") }

    func run() throws -> Int32 {
        guard !(json && nmea) else { throw UsageError(message: "--json and --nmea are two different outputs: choose one") }
        let speed = try SourceOptions.speed(args, default: .factor(1))
        let manager = try SourceOptions.manager(args, defaultSpeed: speed, forwardsSentences: nmea)
        let service = LocationService(manager: manager)
        let device = manager.sourceDescription
        let tag = GPSDJSON.Device(device)
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<LocationEvent?>(nil)
        let paced = speed != .maximum
        let out = terminal.out
        let json = self.json, nmea = self.nmea
        let box = UncheckedBox(out)
        let note = UncheckedBox(terminal)

        service.subscribe { event in
            let out = box.value
            switch event {
            case .sentence(let line):
                // Passthrough: every sentence that passed its checksum, exactly as received.
                out.writer.append(line)
                out.writer.append("\r\n")
                out.commit(flushNow: paced)
                if out.failed { service.stop() }
            case .fix where nmea, .sky where nmea:
                break
            case .fix(let fix):
                if json {
                    GPSDJSON.tpv(fix, device: tag, into: &out.writer)
                } else {
                    TextFormat.line(fix, into: &out.writer)
                }
                // Paced output is for someone watching: show each fix at once.
                out.commit(flushNow: paced)
                if out.failed { service.stop() }
            case .sky(let sky):
                if json {
                    GPSDJSON.sky(sky, device: tag, into: &out.writer)
                    out.commit(flushNow: paced)
                }
            case .status(let status):
                // Unplugged, reconnecting, stale: said on stderr, so piped output stays clean.
                if let text = describe(status, source: device) { note.value.note("gpsfix: " + text) }
            case .error:
                break
            }
            if event.isTerminal {
                outcome.withLock { $0 = event }
                done.signal()
            }
        }
        // Ctrl-C or SIGTERM: stop the source, flush what was written, exit 0.
        let interrupts = Interrupts { _ in service.stop() }
        // The manager holds its delegate weakly: keep the service alive until the run ends.
        withExtendedLifetime(service) { done.wait() }
        interrupts.cancel()
        out.flush()
        switch outcome.withLock({ $0 }) {
        case .error(let error)?:
            throw error
        case .status(.finished(let statistics))? where !json && !nmea:
            terminal.note(Summary.line(statistics, source: device))
        default:
            break
        }
        return 0
    }
}

/// Hands a non-Sendable value to the one thread that uses it next. The caller guarantees
/// that only one thread touches it at a time (here: the source's thread while the main thread
/// waits on a semaphore).
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
