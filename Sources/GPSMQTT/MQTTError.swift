/// Why a broker could not be used, stated as what happened; the CLI adds what to do.
public enum MQTTError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The broker answered, and refused this client's user name or password (CONNACK 4 or 5).
    case loginRefused(broker: String, reason: String)
    /// The broker answered and refused the connection for another reason (protocol version,
    /// client id).
    case connectionRefused(broker: String, reason: String)
    /// The TLS handshake failed: the broker's certificate is not signed by the CA given, names
    /// another host, or the broker does not speak TLS on that port.
    case tlsFailed(broker: String, reason: String)
    /// A setting libmosquitto would not take (an unreadable CA or certificate file).
    case badSetting(String)
    /// The broker could not be reached (refused, no route, dropped): waited for, not fatal.
    case unreachable(broker: String, reason: String)

    public var description: String {
        switch self {
        case .loginRefused(let broker, let reason):
            "The MQTT broker at \(broker) refused the login (\(reason))."
        case .connectionRefused(let broker, let reason):
            "The MQTT broker at \(broker) refused the connection (\(reason))."
        case .tlsFailed(let broker, let reason):
            "TLS with the MQTT broker at \(broker) failed (\(reason))."
        case .badSetting(let text):
            text
        case .unreachable(let broker, let reason):
            "The MQTT broker at \(broker) cannot be reached (\(reason))."
        }
    }

    /// Whether trying again cannot help: the settings, not the network, are wrong.
    public var isFatal: Bool {
        switch self {
        case .unreachable: false
        default: true
        }
    }
}
