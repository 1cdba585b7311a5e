import Dispatch
import Glibc
import GPSLocation
import GPSSources
import Synchronization

/// `gpsfix record FILE`: a receiver's bytes, exactly as read, into a gpsfake-format capture.
struct RecordCommand {
    let args: ParsedArguments
    let terminal: Terminal

    func run() throws -> Int32 {
        guard let file = args.positionals.first else { throw UsageError(message: "name the file to record into") }
        let manager = try SourceOptions.serial(args)
        let device = DeviceDiscovery.device(at: manager.path)
        var fields: [(key: String, value: String)] = [("Name", "gpsfix record"), ("Device", manager.path)]
        if let byID = device?.byID { fields.append(("By-ID", byID)) }
        if let id = device?.usbID { fields.append(("USB", id + (device?.knownGPS.map { " " + $0.name } ?? ""))) }
        fields.append(("Baud", args["--baud"] ?? (device?.isCDCACM == true ? "USB CDC-ACM (none)" : "automatic")))
        fields.append(("Date", utcNow()))
        fields.append(("Program", "gpsfix \(GPSFixCLI.version)"))
        let writer = try CaptureWriter(path: file, header: CaptureHeader(fields: fields), overwrite: args.has("--force"))
        let failure = Mutex<LocationError?>(nil)
        manager.onBytes = { bytes in
            do throws(LocationError) {
                try writer.write(bytes)
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
        let service = LocationService(manager: manager)
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<LocationEvent?>(nil)
        let path = manager.path
        let note = UncheckedBox(terminal)
        service.subscribe { event in
            if case .status(let status) = event, let text = describe(status, source: path) { note.value.note("gpsfix: " + text) }
            if event.isTerminal || failure.withLock({ $0 != nil }) {
                outcome.withLock { $0 = $0 ?? event }
                done.signal()
            }
        }
        terminal.note("gpsfix: recording \(path) into \(file); Ctrl-C to stop")
        let interrupts = Interrupts { _ in done.signal() }
        withExtendedLifetime(service) { done.wait() }
        interrupts.cancel()
        service.stop()
        writer.close()
        terminal.note("gpsfix: \(writer.bytesWritten) bytes recorded in \(file)")
        if let error = failure.withLock({ $0 }) { throw error }
        if case .error(let error)? = outcome.withLock({ $0 }) { throw error }
        return 0
    }
}

/// `2026-11-30T06:10:00Z`, for capture headers.
func utcNow() -> String {
    var now = time(nil)
    var parts = tm()
    gmtime_r(&now, &parts)
    func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
}
