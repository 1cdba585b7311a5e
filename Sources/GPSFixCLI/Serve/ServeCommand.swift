import GPSLocation
import GPSMQTT
import GPSServer
import GPSSystem

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

    /// Serves until stopped; the sources' failure, if that is what ended it. The feeds are
    /// `ServeFeeds.all`'s, each built from its own options; a `LocationRelay` runs them with
    /// the sources.
    private func serve(passed: PassedSockets?, notifier: ServiceNotifier?) throws -> LocationError? {
        let listens = !args.has("--no-listen")
        if !listens {
            // Anything that carries the fixes somewhere is something to serve without gpsd's
            // listener: each feed names its own (`ServeFeedKind.outlets`); the listener's other
            // options are refused by its kind.
            let outlets = ServeFeeds.outlets
            guard outlets.contains(where: { args[$0] != nil }) else {
                throw UsageError(message: "--no-listen leaves nothing to serve: add one of \(outlets.joined(separator: ", "))")
            }
        }
        let setting = ServeSetting(listens: listens, passed: passed)
        let kinds = try ServeFeeds.all.map { kind throws -> any ServeFeedKind in try kind.init(args, setting) }
        let speed = try SourceOptions.speed(args, default: .factor(1))
        let fleet = try MQTTFleetIn.manager(args)
        if fleet != nil {
            let others = SourceOptions.sourceNames.filter { args[$0] != nil } + (args["--mqtt"] != nil ? ["--mqtt"] : [])
            guard others.isEmpty else {
                throw UsageError(message: "--mqtt-in re-serves a fleet on its own: \(others.joined(separator: " and ")) cannot be mixed in")
            }
            guard listens else { throw UsageError(message: "--mqtt-in serves over gpsd's protocol: --no-listen leaves nothing to serve") }
        }
        // Sentences are forwarded for the clients that watch with "nmea" or "raw". A service
        // comes up before its receiver: what is not there yet is waited for. Several sources
        // are several devices, as gpsd serves several receivers.
        let runsServer = kinds.contains { $0.servesSentences }
        let managers: [any LocationManagerInterface] = try fleet.map { [$0] }
            ?? SourceOptions.managers(args, defaultSpeed: speed, forwardsSentences: runsServer, waits: .everything)
        var context = ServeContext(args: args, terminal: terminal, setting: setting, sources: managers, fleet: fleet,
                                   notifier: notifier, runsServer: runsServer)
        var feeds: [ServeFeed] = []
        for kind in kinds {
            if let feed = try kind.make(&context) { feeds.append(feed) }
        }
        let relay = LocationRelay(managers.map { LocationService(manager: $0) }, feeds: feeds.map(\.feed))
        // Armed before "Ctrl-C to stop" is said: a signal right after must stop, not kill.
        relay.armInterrupts()
        for line in feeds.flatMap(\.preamble) { terminal.note("gpsfix: " + line) }
        let headline = feeds.lazy.compactMap(\.headline).first
            ?? "sending \(context.sourceNames) to \(feeds.compactMap(\.outlet).joined(separator: " and ")) only"
        terminal.note("gpsfix: \(headline); Ctrl-C to stop")
        for line in feeds.flatMap(\.afterword) { terminal.note("gpsfix: " + line) }
        do throws(RelayError) {
            try relay.run()
            return nil
        } catch .sourcesFailed(let failure) {
            return failure
        } catch .feedFailed(let failure) {
            // The feed's own error (a broker's refusal), as the command's end reports it.
            throw failure.error
        }
    }
}
