import Glibc
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
        if args["--mqtt-client-id"] == nil { settings.clientID += "-in-\(getpid())" }
        return MQTTManager(settings: settings, prefix: address.prefix, waitsForBroker: true, limits: try MQTTOptions.fleetLimits(args))
    }

    /// Serves `manager`'s fleet through `server` (made with no device) on the calling thread
    /// until the server stops; each publisher's reports go to its own device, and one that
    /// says `offline` is a device gone, as an unplugged receiver is. A vehicle the reader
    /// forgets gives its device to the next new one, so the server has at most the cap's
    /// number of devices. Statuses and refusals are logged through `log`, a fleet's held to a
    /// rate (`FleetLog`); `onEvent` sees every event with its vehicle's name as shown (for
    /// the service manager's status). Returns the source's failure, if that ended it.
    static func serve(_ manager: MQTTManager, on server: GpsdServer, heartbeat: Heartbeat?,
                      log: @escaping @Sendable (String) -> Void,
                      onEvent: @escaping @Sendable (String?, LocationEvent) -> Void) -> LocationError? {
        let service = LocationService(manager: manager)
        let devices = FleetDevices(server: server, fallback: manager.prefix)
        let fleetLog = FleetLog(write: log)
        manager.onFleetNews = { news in
            if case .forgotten(let vehicle) = news { devices.forget(vehicle) }
            fleetLog.take(news)
        }
        let subscription = service.subscribe { event in
            // Read while the manager delivers: whose this event is.
            let vehicle = manager.labelOfEventInHand
            let shown = vehicle.map { PeerText.display($0) }
            onEvent(shown, event)
            if case .status(let status) = event {
                let source = shown.map { "\(manager.sourceDescription) \($0)" } ?? manager.sourceDescription
                if let text = StatusWords.line(status, source: source) {
                    // A vehicle's comings and goings are its publisher's to cause: held to a rate.
                    if vehicle != nil { fleetLog.vehicle(text) } else { log("gpsfix: " + text) }
                }
            }
            switch event {
            case .fix, .sky, .status(.disconnected), .status(.streaming):
                // A broker's own loss (no vehicle in hand) is not any device's.
                if let index = devices.index(of: vehicle, creating: !event.isStatus) { server.publish(event, device: index) }
            case .error(let error):
                devices.fail(error)
                server.stop()
            default:
                break
            }
        }
        withExtendedLifetime(service) { server.run(heartbeat: heartbeat) }
        service.unsubscribe(subscription)
        service.stop()
        manager.onFleetNews = nil
        fleetLog.flush()
        return devices.failure
    }
}
