import GPSLocation
import GPSMQTT
import GPSServer
import Synchronization

/// `gpsfix serve`: gpsd's JSON protocol on a TCP port, fed by any source, for gpsd's clients;
/// with `--mqtt`, published to a broker too (or only, with `--no-listen`).
struct ServeCommand {
    let args: ParsedArguments
    let terminal: Terminal

    func run() throws -> Int32 {
        let listens = !args.has("--no-listen")
        if !listens {
            guard args["--mqtt"] != nil else { throw UsageError(message: "--no-listen leaves nothing to serve: add --mqtt URL") }
            let stray = ["--listen", "--client-timeout"].filter { args[$0] != nil }
            if !stray.isEmpty { throw UsageError(message: "\(stray.joined(separator: " and ")) are for the listener, which --no-listen turns off") }
        }
        var configuration = ServerConfiguration(release: "gpsfix \(GPSFixCLI.version)")
        if let text = args["--listen"] {
            guard let address = ListenAddress(parsing: text) else {
                throw UsageError(message: "--listen takes ADDR:PORT (e.g. 127.0.0.1:2947, 0.0.0.0:2947, [::1]:2947), not '\(text)'")
            }
            configuration.address = address
        }
        configuration.clientTimeout = try SourceOptions.seconds(args, "--client-timeout", default: configuration.clientTimeout)
        let speed = try SourceOptions.speed(args, default: .factor(1))
        // Sentences are forwarded for the clients that watch with "nmea" or "raw".
        // A service comes up before its receiver: what is not there yet is waited for.
        let manager = try SourceOptions.manager(args, defaultSpeed: speed, forwardsSentences: listens, waits: true)
        let note = UncheckedBox(terminal)
        // A broker that refuses the login or the certificate ends the serve, however it runs.
        let mqttFailure = Mutex<MQTTError?>(nil)
        let stopServing = Mutex<(@Sendable () -> Void)?>(nil)
        let publisher = try MQTTServe.publisher(args, source: manager.sourceDescription, terminal: terminal) { error in
            mqttFailure.withLock { $0 = $0 ?? error }
            stopServing.withLock { $0 }?()
        }
        let service = LocationService(manager: manager)
        let onEvent: @Sendable (LocationEvent) -> Void = { event in
            publisher?.publish(event)
            switch event {
            case .status(.finished) where listens:
                note.value.note("gpsfix: \(manager.sourceDescription): capture ended; still serving its last fix (Ctrl-C to stop)")
            case .status(let status):
                if let text = StatusWords.line(status, source: manager.sourceDescription, reception: manager.reception) {
                    note.value.note("gpsfix: " + text)
                }
            default:
                break
            }
        }
        let failure: LocationError?
        if listens {
            let device = DeviceDescription(path: manager.sourceDescription, bps: manager.reception?.baud)
            let server = try GpsdServer(configuration: configuration, device: device) { line in note.value.note(line) }
            terminal.note("gpsfix: serving gpsd's protocol on \(server.address) from \(manager.sourceDescription); Ctrl-C to stop")
            if !server.isLoopback {
                terminal.note("gpsfix: WARNING: \(server.address) is not loopback: anyone who can reach this machine on port \(server.address.port) can read its position.")
            }
            stopServing.withLock { $0 = { server.stop() } }
            publisher?.start()
            let interrupts = Interrupts { _ in server.stop() }
            failure = server.serve(service, onEvent: onEvent)
            interrupts.cancel()
        } else {
            terminal.note("gpsfix: publishing \(manager.sourceDescription) to MQTT only; Ctrl-C to stop")
            stopServing.withLock { $0 = { service.stop() } }
            publisher?.start()
            // Ctrl-C and SIGTERM stop the source; SourceRun waits for its end.
            let (end, _) = SourceRun(service).run(onEvent)
            if case .error(let error)? = end { failure = error } else { failure = nil }
        }
        // `offline`, then what is still queued, then goodbye.
        publisher?.stop()
        if let error = mqttFailure.withLock({ $0 }) { throw error }
        if let failure { throw failure }
        return 0
    }
}
