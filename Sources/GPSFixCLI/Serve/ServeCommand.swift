import GPSLocation
import GPSMQTT
import GPSServer
import GPSSystem
import Synchronization

/// `gpsfix serve`: gpsd's JSON protocol on a TCP port, fed by one source or several (each a
/// device of its own), for gpsd's clients; with `--mqtt`, published to a broker too (or only,
/// with `--no-listen`).
struct ServeCommand {
    let args: ParsedArguments
    let terminal: Terminal

    func run() throws -> Int32 {
        // What a service manager passed, read first: before any thread may read the
        // environment these calls change.
        var notifier: ServiceNotifier?
        do throws(ServiceNotifierError) {
            notifier = try ServiceNotifier.take()
        } catch {
            // Serving matters more than reporting: a Type=notify unit then times out, and this says why.
            terminal.note("gpsfix: serve: \(error); the service manager will not hear from gpsfix")
        }
        // The source's own failure has been told already, with the rest of its news.
        let failure: LocationError?
        do {
            failure = try serve(passed: takePassedSockets(), notifier: notifier)
        } catch {
            // What stopped it before it could serve (options, a port), for `systemctl status`.
            let reason = switch error {
            case let usage as UsageError: usage.message
            case let location as LocationError: Advice.message(for: location)
            default: "\(error)"
            }
            try? notifier?.send(.status("failed: " + reason))
            throw error
        }
        if let failure { throw failure }
        return 0
    }

    private func takePassedSockets() throws -> PassedSockets? {
        do throws(PassedSocketsError) {
            return try PassedSockets.take()
        } catch {
            throw ServiceManagerFailure(description: "\(error). gpsfix serve takes the listening sockets of a socket unit such as gpsfix.socket (systemd's LISTEN_FDS); started by hand, unset LISTEN_PID and LISTEN_FDS.")
        }
    }

    /// Serves until stopped; the sources' failure, if that is what ended it.
    private func serve(passed: PassedSockets?, notifier: ServiceNotifier?) throws -> LocationError? {
        let listens = !args.has("--no-listen")
        if !listens {
            // Anything that carries the fixes somewhere is something to serve without gpsd's listener.
            let outlets = ["--mqtt", "--nmea-listen", "--nmea-udp", "--chrony-sock", "--ntp-shm"]
            guard outlets.contains(where: { args[$0] != nil }) else {
                throw UsageError(message: "--no-listen leaves nothing to serve: add one of \(outlets.joined(separator: ", "))")
            }
            let stray = ["--listen", "--client-timeout", "--max-clients-per-address"].filter { args[$0] != nil }
            if !stray.isEmpty { throw UsageError(message: "\(stray.joined(separator: " and ")) are for the listener, which --no-listen turns off") }
            if passed != nil {
                throw UsageError(message: "--no-listen: the service manager passed sockets to listen on (LISTEN_FDS); run without the socket unit, or without --no-listen")
            }
        }
        var configuration = ServerConfiguration(release: "gpsfix \(GPSFixCLI.version)")
        if let text = args["--listen"] {
            guard passed == nil else {
                throw UsageError(message: "--listen \(text): the service manager passed the sockets to listen on (LISTEN_FDS); set the address in the socket unit (ListenStream= in gpsfix.socket) instead")
            }
            guard let address = ListenAddress(parsing: text) else {
                throw UsageError(message: "--listen takes [ADDR:]PORT, a port from 0 to 65535 on an IP address or a host name (e.g. 2948, 127.0.0.1:2947, 0.0.0.0:2947, [::1]:2947), not '\(text)'")
            }
            configuration.address = address
        }
        configuration.clientTimeout = try SourceOptions.seconds(args, "--client-timeout", default: configuration.clientTimeout)
        if let perAddress = try SourceOptions.count(args, "--max-clients-per-address") { configuration.maxClientsPerAddress = perAddress }
        try NMEAFeedOptions.apply(args, to: &configuration)
        let speed = try SourceOptions.speed(args, default: .factor(1))
        // Sentences are forwarded for the clients that watch with "nmea" or "raw". A service
        // comes up before its receiver: what is not there yet is waited for. Several sources
        // are several devices, as gpsd serves several receivers.
        if let fleet = try MQTTFleetIn.manager(args) {
            return try serveFleet(fleet, configuration: configuration, passed: passed, notifier: notifier, listens: listens)
        }
        // The server's loop runs for gpsd's clients, or for NMEA's alone.
        let servesNMEA = configuration.nmeaAddress != nil || configuration.nmeaDatagramAddress != nil
        let loops = listens || servesNMEA
        let managers = try SourceOptions.managers(args, defaultSpeed: speed, forwardsSentences: loops, waits: .everything)
        let several = managers.count > 1
        let sources = managers.map(\.sourceDescription).joined(separator: ", ")
        let note = UncheckedBox(terminal)
        let log: @Sendable (String) -> Void = { line in note.value.note(line) }

        // A broker that refuses the login or the certificate ends the serve, however it runs.
        let mqttFailure = Mutex<MQTTError?>(nil)
        let stopServing = Mutex<(@Sendable () -> Void)?>(nil)
        let publisher = try MQTTServe.publisher(args, source: managers[0].sourceDescription, terminal: terminal) { error in
            mqttFailure.withLock { $0 = $0 ?? error }
            stopServing.withLock { $0 }?()
        }
        // The first source only: a clock takes its time from one reference.
        let timeFeed = try TimeFeed.make(args, source: managers[0].sourceDescription, log: log)
        if let timeFeed {
            terminal.note("gpsfix: sending \(managers[0].sourceDescription)'s time to \(timeFeed.destinations) (NMEA alone: good to tens or hundreds of ms)")
        }
        // systemd's watchdog is fed from the server's loop: without a listener there is none.
        let link = loops ? notifier.map { ServiceManagerLink(notifier: $0, log: log) } : nil
        let onEvent: @Sendable (Int, LocationEvent) -> Void = { index, event in
            let manager = managers[index]
            if index == 0 { timeFeed?.take(event) }
            // With several sources, each under PREFIX/NAME/.
            publisher?.publish(event, device: several ? manager.sourceDescription : nil)
            link?.event(event, source: manager.sourceDescription, reception: manager.reception)
            switch event {
            case .status(.finished) where loops:
                note.value.note("gpsfix: \(manager.sourceDescription): capture ended; still serving its last fix (Ctrl-C to stop)")
            case .status(let status):
                if let text = StatusWords.line(status, source: manager.sourceDescription, reception: manager.reception) {
                    note.value.note("gpsfix: " + text)
                }
            case .error(let error) where several:
                // The others are still served; the last one to fail ends the serving.
                note.value.note("gpsfix: " + Advice.message(for: error) + " (still serving the other sources)")
            default:
                break
            }
        }
        let services = managers.map { LocationService(manager: $0) }

        let failure: LocationError?
        if loops {
            let devices = managers.map { DeviceDescription(path: $0.sourceDescription, bps: $0.reception?.baud) }
            let server = try makeServer(configuration, devices: devices, passed: passed, listens: listens, log: log)
            // Armed before "Ctrl-C to stop" is said: a signal right after must stop, not kill.
            let interrupts = Interrupts { _ in
                link?.stopping()
                server.stop()
            }
            noteNMEAFeeds(server)
            let addresses = server.addresses.map(\.description).joined(separator: " and ")
            let origin = passed == nil ? "" : " (sockets passed by the service manager)"
            if listens {
                terminal.note("gpsfix: serving gpsd's protocol on \(addresses)\(origin) from \(sources); Ctrl-C to stop")
            } else {
                terminal.note("gpsfix: serving \(sources) as NMEA only (--no-listen); Ctrl-C to stop")
            }
            for address in server.exposed {
                terminal.note("gpsfix: WARNING: \(address) is not loopback: anyone who can reach this machine on port \(address.port) can read its position.")
            }
            stopServing.withLock { $0 = { server.stop() } }
            publisher?.start()
            failure = server.serve(services, heartbeat: link?.heartbeat, onEvent: onEvent)
            interrupts.cancel()
        } else {
            let run = SourceRun(services)
            run.armInterrupts()
            let outlets = [args["--mqtt"] != nil ? "MQTT" : nil, timeFeed?.destinations].compactMap { $0 }
            terminal.note("gpsfix: sending \(sources) to \(outlets.joined(separator: " and ")) only; Ctrl-C to stop")
            stopServing.withLock { $0 = { run.stop() } }
            publisher?.start()
            // Ctrl-C and SIGTERM stop the sources; the run waits for their ends.
            let (ends, _) = run.runAll(onEvent)
            let errors = ends.compactMap { end -> LocationError? in if case .error(let e)? = end { e } else { nil } }
            failure = errors.count == ends.count ? errors.first : nil
        }
        link?.stopping()
        // `offline`, then what is still queued, then goodbye.
        publisher?.stop()
        if let error = mqttFailure.withLock({ $0 }) { throw error }
        return failure
    }

    /// `--mqtt-in`: a fleet from a broker, each publisher a device of its own.
    private func serveFleet(_ fleet: MQTTManager, configuration: ServerConfiguration, passed: PassedSockets?,
                            notifier: ServiceNotifier?, listens: Bool) throws -> LocationError? {
        let others = SourceOptions.sourceNames.filter { args[$0] != nil } + (args["--mqtt"] != nil ? ["--mqtt"] : [])
        guard others.isEmpty else {
            throw UsageError(message: "--mqtt-in re-serves a fleet on its own: \(others.joined(separator: " and ")) cannot be mixed in")
        }
        guard listens else { throw UsageError(message: "--mqtt-in serves over gpsd's protocol: --no-listen leaves nothing to serve") }
        let note = UncheckedBox(terminal)
        let log: @Sendable (String) -> Void = { line in note.value.note(line) }
        let server = try makeServer(configuration, devices: [], passed: passed, listens: true, log: log)
        let link = notifier.map { ServiceManagerLink(notifier: $0, log: log) }
        let interrupts = Interrupts { _ in
            link?.stopping()
            server.stop()
        }
        let addresses = server.addresses.map(\.description).joined(separator: " and ")
        terminal.note("gpsfix: serving gpsd's protocol on \(addresses) from \(fleet.sourceDescription), one device per publisher; Ctrl-C to stop")
        for address in server.exposed {
            terminal.note("gpsfix: WARNING: \(address) is not loopback: anyone who can reach this machine on port \(address.port) can read its position.")
        }
        let failure = MQTTFleetIn.serve(fleet, on: server, heartbeat: link?.heartbeat, log: log) { vehicle, event in
            let source = vehicle.map { "\(fleet.sourceDescription) \($0)" } ?? fleet.sourceDescription
            link?.event(event, source: source, reception: nil)
        }
        link?.stopping()
        interrupts.cancel()
        return failure
    }

    /// The server on the sockets the service manager passed, or on its own; what cannot be
    /// listened on is said with what to change.
    private func makeServer(_ configuration: ServerConfiguration, devices: [DeviceDescription], passed: PassedSockets?,
                            listens: Bool, log: @escaping @Sendable (String) -> Void) throws -> GpsdServer {
        do throws(ServerError) {
            if !listens { return try GpsdServer(nmeaOnly: configuration, devices: devices, log: log) }
            if let passed {
                return try GpsdServer(configuration: configuration, listeningOn: passed.descriptors, devices: devices, log: log)
            }
            return try GpsdServer(configuration: configuration, devices: devices, log: log)
        } catch .notAListeningSocket(let descriptor, let reason) {
            let error = ServerError.notAListeningSocket(descriptor: descriptor, reason: reason)
            throw ServiceManagerFailure(description: "\(error) gpsfix serve speaks gpsd's protocol over TCP: its socket unit needs ListenStream=ADDRESS:PORT lines only (gpsfix.socket has ListenStream=127.0.0.1:2947).")
        } catch {
            throw ServeStartFailure(error, configuration)
        }
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

/// What the service manager passed cannot be used: exit 1, with what to change.
struct ServiceManagerFailure: Error, CustomStringConvertible {
    let description: String
}
