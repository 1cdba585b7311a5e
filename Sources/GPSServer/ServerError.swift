public import GPSSystem

/// Why the server could not start, in words that say what to do about it.
public enum ServerError: Error, Equatable, Sendable, CustomStringConvertible {
    case addressInUse(ListenAddress)
    case permissionDenied(ListenAddress)
    case addressNotAvailable(ListenAddress)
    case unresolvable(host: String, reason: String)
    case system(call: String, reason: String)
    /// A descriptor handed over to listen on (socket activation) that cannot be listened on.
    case notAListeningSocket(descriptor: FileDescriptor, reason: String)

    public var description: String {
        switch self {
        case .addressInUse(let a):
            let hint = a.port == 2947
                ? " Is gpsd running? Stop it ('sudo systemctl stop gpsd.socket gpsd') or serve on another port, e.g. --listen \(ListenAddress(host: a.host, port: 2948))."
                : " Choose another port, or stop what is using it ('ss -ltnp' shows what)."
            return "\(a) is already in use.\(hint)"
        case .permissionDenied(let a):
            return "not allowed to listen on \(a): ports below 1024 need root. Choose a port from 1024 up."
        case .addressNotAvailable(let a):
            return "cannot listen on \(a): no network interface here has that address ('ip addr' lists them; 0.0.0.0 means all)."
        case .unresolvable(let host, let reason):
            return "cannot resolve '\(host)': \(reason). Give an IP address, e.g. 127.0.0.1:2947."
        case .notAListeningSocket(let descriptor, let reason):
            return "descriptor \(descriptor.rawValue), passed to listen on, is not a listening TCP socket: \(reason)."
        case .system(let call, let reason):
            return "the server could not start: \(call) failed: \(reason)."
        }
    }
}
