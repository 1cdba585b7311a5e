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
        service.fetchCurrentLocation(timeout: .milliseconds(Int(timeout * 1000))) { r in
            result.withLock { $0 = r }
            done.signal()
        }
        // The manager holds its delegate weakly: keep the service alive until the run ends.
        withExtendedLifetime(service) { done.wait() }
        let fix = try result.withLock { $0! }.get()
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
