import GPSSystem
import GPSLocation
import GPSMQTT

/// `watch --mqtt URL`: the source that reads a broker, and the label each line gets when the
/// prefix has wildcards (a fleet). The labelling is the smallest that tells vehicles apart in
/// lines: `van7: ` before a text line, and the vehicle as JSON's `device` (as `serve
/// --mqtt-in` names it); the live view shows them unlabelled. A fleet's refusals go to `log`,
/// held to a rate.
enum MQTTWatch {
    /// A fleet (or one publisher) read by `watch`: its reader, and the log its refusals and its
    /// vehicles' comings and goings go to, held to a rate.
    struct Fleet: Sendable {
        let manager: MQTTManager
        let log: FleetLog

        /// Whether `event` is one vehicle's status (offline, silent, back), said here through
        /// the log rather than by the output: a fleet's publishers decide how many there are.
        func saysVehicleStatus(_ event: LocationEvent) -> Bool {
            guard case .status(let status) = event, manager.labelOfEventInHand != nil else { return false }
            if let text = StatusWords.line(status, source: manager.sourceDescription) { log.vehicle(text) }
            return true
        }
    }

    static func fleet(_ args: ParsedArguments, log: @escaping @Sendable (String) -> Void) throws -> Fleet? {
        guard let address = try MQTTOptions.address(args) else {
            let stray = MQTTOptions.watch.map(\.name).filter { $0 != "--mqtt" && args[$0] != nil }
            if !stray.isEmpty { throw UsageError(message: "\(stray.joined(separator: " and ")) need --mqtt URL") }
            return nil
        }
        let others = SourceOptions.sourceNames.filter { args[$0] != nil }
        guard others.isEmpty else {
            throw UsageError(message: "--mqtt and \(others.joined(separator: " and ")) are different sources: choose one")
        }
        guard address.isSubscribable else {
            throw UsageError(message: "--mqtt: '\(address.prefix)' is not a topic filter ('+' stands for a whole level, '#' only at the end)")
        }
        var settings = try MQTTOptions.settings(args, address)
        // A reader is not the publisher: its default id must not take the publisher's place.
        if args["--mqtt-client-id"] == nil { settings.clientID += "-watch-\(FileSystem.processID)" }
        let manager = MQTTManager(settings: settings, prefix: address.prefix, limits: try MQTTOptions.fleetLimits(args))
        let fleetLog = FleetLog(write: log)
        manager.onFleetNews = { fleetLog.take($0) }
        return Fleet(manager: manager, log: fleetLog)
    }

    /// For text lines: the vehicle the line is about, as a person may see it, when the
    /// manager reads a fleet.
    static func label(_ manager: any LocationManagerInterface) -> (@Sendable () -> String?)? {
        guard let vehicle = vehicle(manager) else { return nil }
        return { vehicle().map { PeerText.display($0) } }
    }

    /// For JSON: the vehicle a report is of, as its `device` (escaped there as JSON).
    static func vehicle(_ manager: any LocationManagerInterface) -> (@Sendable () -> String?)? {
        guard let manager = manager as? MQTTManager, manager.prefix.contains("+") || manager.prefix.contains("#") else { return nil }
        return { manager.labelOfEventInHand }
    }
}
