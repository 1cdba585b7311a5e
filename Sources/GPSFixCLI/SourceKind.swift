import GPSLocation
import GPSMQTT

/// What kind of source a command reads, for words that depend on it ("device unplugged" or
/// "gpsd went away"): known from the manager the options built (its kind's `words`), not
/// guessed from its name.
enum SourceKind: Sendable {
    case receiver, gpsd, capture, network

    init(_ manager: any LocationManagerInterface) {
        // A broker read by `watch --mqtt` is not one of the kinds the source options list.
        if manager is MQTTManager {
            self = .network
            return
        }
        self = SourceOptions.kinds.first { $0.built(manager) }?.words ?? .receiver
    }
}
