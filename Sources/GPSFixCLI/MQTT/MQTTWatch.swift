import Glibc
import GPSLocation
import GPSMQTT

/// `watch --mqtt URL`: the source that reads a broker, and the label each line gets when the
/// prefix has wildcards (a fleet). The labelling is the smallest that tells vehicles apart in
/// lines: `van7: ` before the line; the live view and JSON show them unlabelled.
enum MQTTWatch {
    static func manager(_ args: ParsedArguments) throws -> MQTTManager? {
        guard let address = try MQTTOptions.address(args) else {
            let stray = MQTTOptions.connection.map(\.name).filter { args[$0] != nil }
            if !stray.isEmpty { throw UsageError(message: "\(stray.joined(separator: " and ")) need --mqtt URL") }
            return nil
        }
        let others = ["--replay", "--device", "--gpsd", "--nmea-tcp"].filter { args[$0] != nil }
        guard others.isEmpty else {
            throw UsageError(message: "--mqtt and \(others.joined(separator: " and ")) are different sources: choose one")
        }
        guard address.isSubscribable else {
            throw UsageError(message: "--mqtt: '\(address.prefix)' is not a topic filter ('+' stands for a whole level, '#' only at the end)")
        }
        var settings = try MQTTOptions.settings(args, address)
        // A reader is not the publisher: its default id must not take the publisher's place.
        if args["--mqtt-client-id"] == nil { settings.clientID += "-watch-\(getpid())" }
        return MQTTManager(settings: settings, prefix: address.prefix)
    }

    /// For lines: the vehicle the line is about, when the manager reads a fleet.
    static func label(_ manager: any LocationManagerInterface) -> (@Sendable () -> String?)? {
        guard let manager = manager as? MQTTManager, manager.prefix.contains("+") || manager.prefix.contains("#") else { return nil }
        return { manager.labelOfEventInHand }
    }
}
