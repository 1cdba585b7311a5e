import GPSSystem
import GPSLocation
import GPSMQTT
import GPSServer

/// `serve --mqtt-in URL`: a fleet on a broker, re-served over gpsd's protocol with one device
/// per publisher (per vehicle), so that cgps or any gpsd client can watch a remote vehicle.
/// Vehicles are not known in advance: each becomes a device when it is first heard from.
enum MQTTFleetIn {
    /// The reader of the fleet named by `--mqtt-in`; nil without it. A service comes up before
    /// its broker: an absent broker is waited for.
    static func manager(_ args: ParsedArguments) throws -> MQTTManager? {
        guard let address = try MQTTOptions.address(args, "--mqtt-in") else { return nil }
        guard address.isSubscribable else {
            throw UsageError(message: "--mqtt-in: '\(address.prefix)' is not a topic filter ('+' stands for a whole level, '#' only at the end)")
        }
        var settings = try MQTTOptions.settings(args, address)
        // A reader is not the publisher: its default id must not take a publisher's place.
        if args["--mqtt-client-id"] == nil { settings.clientID += "-in-\(FileSystem.processID)" }
        return MQTTManager(settings: settings, prefix: address.prefix, waitsForBroker: true, limits: try MQTTOptions.fleetLimits(args))
    }

    /// `manager`'s fleet served through a server made with no device: each publisher's
    /// reports go to its own device, and one that says `offline` is a device gone, as an
    /// unplugged receiver is. A vehicle the reader forgets gives its device to the next new
    /// one, so the server has at most the cap's number of devices. Statuses and refusals are
    /// said through `note`, a fleet's held to a rate (`FleetLog`). The reader's failure ends
    /// the relay, as any source's does.
    final class Feed: LocationFeed {
        let manager: MQTTManager
        let server: GpsdFeed
        let devices: FleetDevices
        let fleetLog: FleetLog
        let note: @Sendable (String) -> Void

        init(_ manager: MQTTManager, server: GpsdFeed, note: @escaping @Sendable (String) -> Void) {
            self.manager = manager
            self.server = server
            self.note = note
            devices = FleetDevices(server: server.server, fallback: manager.prefix)
            fleetLog = FleetLog(write: note)
        }

        /// The server's loop, and the reader's news, before the reader starts.
        func start(_ sources: [RelaySource], control: FeedControl) throws(FeedFailure) {
            let devices = devices, fleetLog = fleetLog
            manager.onFleetNews = { news in
                if case .forgotten(let vehicle) = news { devices.forget(vehicle) }
                fleetLog.take(news)
            }
            try server.start(sources, control: control)
        }

        func take(_ event: LocationEvent, from source: RelaySource) {
            // Read while the manager delivers: whose this event is.
            let vehicle = manager.labelOfEventInHand
            if case .status(let status) = event {
                let shown = vehicle.map { PeerText.display($0) }
                let source = shown.map { "\(manager.sourceDescription) \($0)" } ?? manager.sourceDescription
                if let text = StatusWords.line(status, source: source) {
                    // A vehicle's comings and goings are its publisher's to cause: held to a rate.
                    if vehicle != nil { fleetLog.vehicle(text) } else { note("gpsfix: " + text) }
                }
            }
            switch event {
            case .fix, .sky, .status(.disconnected), .status(.streaming):
                // A broker's own loss (no vehicle in hand) is not any device's.
                if let index = devices.index(of: vehicle, creating: !event.isStatus) { server.server.publish(event, device: index) }
            default:
                break
            }
        }

        func stop() {
            server.stop()
            manager.onFleetNews = nil
            fleetLog.flush()
        }

        /// Serving what it has while the broker is away: only the reader's failure ends it.
        var outlivesSources: Bool { true }
    }
}
