import GPSLocation
import GPSServer

/// `gpsfix serve`: gpsd's JSON protocol on a TCP port, fed by any source, for gpsd's clients.
struct ServeCommand {
    let args: ParsedArguments
    let terminal: Terminal

    func run() throws -> Int32 {
        var configuration = ServerConfiguration(release: "gpsfix \(GPSFixCLI.version)")
        if let text = args["--listen"] {
            guard let address = ListenAddress(parsing: text) else {
                throw UsageError(message: "--listen takes [ADDR:]PORT, a port from 0 to 65535 on an IP address or a host name (e.g. 2948, 127.0.0.1:2947, 0.0.0.0:2947, [::1]:2947), not '\(text)'")
            }
            configuration.address = address
        }
        configuration.clientTimeout = try SourceOptions.seconds(args, "--client-timeout", default: configuration.clientTimeout)
        try NMEAFeedOptions.apply(args, to: &configuration)
        let speed = try SourceOptions.speed(args, default: .factor(1))
        // Sentences are forwarded for the clients that watch with "nmea" or "raw".
        // A service comes up before its receiver: what is not there yet is waited for.
        let managers = try SourceOptions.managers(args, defaultSpeed: speed, forwardsSentences: true, waits: true)
        guard managers.count == 1 else { throw UsageError(message: "serving several sources at once comes with the next change") }
        let manager = managers[0]
        let device = DeviceDescription(path: manager.sourceDescription, bps: manager.reception?.baud)
        let note = UncheckedBox(terminal)
        let server: GpsdServer
        do {
            server = try GpsdServer(configuration: configuration, device: device) { line in note.value.note(line) }
        } catch {
            throw ServeStartFailure(error, configuration)
        }

        noteNMEAFeeds(server)
        terminal.note("gpsfix: serving gpsd's protocol on \(server.address) from \(manager.sourceDescription); Ctrl-C to stop")
        if !server.isLoopback {
            terminal.note("gpsfix: WARNING: \(server.address) is not loopback: anyone who can reach this machine on port \(server.address.port) can read its position.")
        }
        let interrupts = Interrupts { _ in server.stop() }
        let failure = server.serve(LocationService(manager: manager)) { event in
            switch event {
            case .status(.finished):
                note.value.note("gpsfix: \(manager.sourceDescription): capture ended; still serving its last fix (Ctrl-C to stop)")
            case .status(let status):
                if let text = StatusWords.line(status, source: manager.sourceDescription, reception: manager.reception) {
                    note.value.note("gpsfix: " + text)
                }
            default:
                break
            }
        }
        interrupts.cancel()
        if let failure { throw failure }
        return 0
    }

    /// Says where the bare sentences go, before the line that says the server is up.
    private func noteNMEAFeeds(_ server: GpsdServer) {
        if let address = server.nmeaAddress {
            terminal.note("gpsfix: serving NMEA sentences on \(address) (TCP)")
            if !server.nmeaIsLoopback {
                terminal.note("gpsfix: WARNING: \(address) is not loopback: anyone who can reach this machine on port \(address.port) can read its position.")
            }
        }
        if let target = server.configuration.nmeaDatagramAddress {
            terminal.note("gpsfix: sending NMEA sentences to \(target) (UDP, one datagram each)")
        }
    }
}
