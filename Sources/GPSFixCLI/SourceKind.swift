import GPSLocation
import GPSMQTT
import GPSSources
import GPSGpsd

/// What kind of source a command reads, for words that depend on it ("device unplugged" or
/// "gpsd went away"): known from the manager the options built, not guessed from its name.
enum SourceKind: Sendable {
    case receiver, gpsd, capture, network

    init(_ manager: any LocationManagerInterface) {
        switch manager {
        case is GpsdManager: self = .gpsd
        case is NMEATCPManager, is MQTTManager: self = .network
        case is ReplayManager: self = .capture
        default: self = .receiver
        }
    }
}
