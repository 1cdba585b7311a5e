import NMEA
import Dispatch
import GPSLocation
import GPSSystem
import GPSOutput
import Synchronization

/// `gpsfix fix`: the first fix with a position, then exit.
struct FixCommand {
    let args: ParsedArguments
    let terminal: Terminal

    func run() throws -> Int32 {
        // fix ends at the first fix: a loop could only replay a capture that has none until
        // the timeout, which then hides that it has none.
        if args.has("--loop") {
            throw UsageError(message: "--loop has nothing to do for fix, which ends at the first fix: a capture without one would only be replayed until --timeout. Use 'gpsfix watch --replay FILE --loop' to replay it again and again")
        }
        let format = try OutputFormat.forOneFix(args)
        let timeout = try SourceOptions.seconds(args, "--timeout", default: 30)
        let manager = try SourceOptions.manager(args, defaultSpeed: .maximum)
        let service = LocationService(manager: manager)
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<Fix, LocationError>?>(nil)
        // Ctrl-C or SIGTERM: someone has stopped waiting, so stop the source at once (the
        // request then fails) rather than wait out the timeout and report that.
        let interruption = Atomic<Int32>(0)
        let interrupts = Interrupts { number in
            interruption.store(number, ordering: .releasing)
            service.stop()
        }
        service.fetchCurrentLocation(timeout: .milliseconds(Int(timeout * 1000))) { r in
            result.withLock { $0 = r }
            done.signal()
        }
        // The manager holds its delegate weakly: keep the service alive until the run ends.
        withExtendedLifetime(service) { done.wait() }
        interrupts.cancel()
        let outcome = result.withLock { $0! }
        // A fix that came before the interrupt is still the answer.
        if case .failure = outcome, case let signal = interruption.load(ordering: .acquiring), signal != 0 {
            throw Interrupted(signal: signal, before: "a fix arrived")
        }
        var fix = try outcome.get()
        // `fix` answers with one report, the fix itself (a TPV in JSON), as it always has:
        // a script reading one JSON object keeps working when the receiver also sends GST.
        fix.errorStatistics = nil
        let context = WatchContext(terminal: terminal, source: manager.sourceDescription, paced: true)
        let output = try format.make(OutputSetup(context: context))
        _ = output.write(.fix(fix))
        output.finish(nil)
        return 0
    }
}
