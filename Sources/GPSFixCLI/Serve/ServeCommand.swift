import GPSLocation
import GPSServer
import GPSSources

/// `gpsfix serve`: gpsd's JSON protocol on a TCP port, fed by any source, for gpsd's clients.
struct ServeCommand {
    let args: ParsedArguments
    let terminal: Terminal

    func run() throws -> Int32 {
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
        let manager = try SourceOptions.manager(args, defaultSpeed: speed, forwardsSentences: true)
        let device = DeviceDescription(path: manager.sourceDescription, bps: (manager as? SerialNMEAManager)?.options.baud)
        let note = UncheckedBox(terminal)
        let server = try GpsdServer(configuration: configuration, device: device) { line in note.value.note(line) }

        terminal.note("gpsfix: serving gpsd's protocol on \(server.address) from \(manager.sourceDescription); Ctrl-C to stop")
        if !server.isLoopback {
            terminal.note("gpsfix: WARNING: \(server.address) is not loopback: anyone who can reach this machine on port \(server.address.port) can read its position.")
        }
        let service = LocationService(manager: manager)
        let failure = UncheckedBox(FailureSlot())
        service.subscribe { event in
            server.publish(event)
            switch event {
            case .status(.finished):
                note.value.note("gpsfix: \(manager.sourceDescription): capture ended; still serving its last fix (Ctrl-C to stop)")
            case .status(let status):
                if let text = describe(status, source: manager.sourceDescription, reception: manager.reception) {
                    note.value.note("gpsfix: " + text)
                }
            case .error(let error):
                // The source cannot go on (no such device, gpsd refused): say why and stop.
                failure.value.error = error
                server.stop()
            default:
                break
            }
        }
        let interrupts = Interrupts { _ in server.stop() }
        withExtendedLifetime(service) { server.run() }
        interrupts.cancel()
        service.stop()
        if let error = failure.value.error { throw error }
        return 0
    }
}

/// The source's error, set on its thread before it stops the server; read after `run` returns.
final class FailureSlot {
    var error: LocationError?
}
