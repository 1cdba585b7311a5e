import GPSServer

/// Why `serve` could not start, led by the option whose value to change: the server says
/// which address failed, and only the command knows which option named it.
struct ServeStartFailure: Error, CustomStringConvertible {
    let description: String

    init(_ error: ServerError, _ configuration: ServerConfiguration) {
        let option: String? = switch error {
        case .addressInUse(let a), .permissionDenied(let a), .addressNotAvailable(let a):
            a == configuration.address ? "--listen" : a == configuration.nmeaAddress ? "--nmea-listen" : nil
        case .unresolvable(let host, _):
            host == configuration.address.host ? "--listen"
                : host == configuration.nmeaAddress?.host ? "--nmea-listen"
                : host == configuration.nmeaDatagramAddress?.host ? "--nmea-udp" : nil
        case .system, .notAListeningSocket:
            nil
        }
        description = option.map { "\($0): \(error)" } ?? error.description
    }
}
