import NMEA
import Dispatch
import GPSLocation
import GPSOutput
import Synchronization

/// `gpsfix fix`: the first fix with a position, then exit.
struct FixCommand {
    let args: ParsedArguments
    let terminal: Terminal

    func run() throws -> Int32 {
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
        let fix = try outcome.get()
        var w = ByteWriter()
        if args.has("--json") {
            GPSDJSON.tpv(fix, device: manager.sourceDescription, into: &w)
        } else {
            TextFormat.line(fix, into: &w)
        }
        terminal.print(String(decoding: w.bytes, as: UTF8.self))
        return 0
    }
}
