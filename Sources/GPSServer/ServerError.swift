public import GPSSystem

/// Why the server could not start, in words that say what to do about it.
public enum ServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another socket is bound to the address (EADDRINUSE): on 2947 most often gpsd itself;
    /// the message says how to stop it or which port to take instead.
    case addressInUse(ListenAddress)
    /// The system refused the bind (EACCES): a port below 1024 without root.
    case permissionDenied(ListenAddress)
    /// No interface of this machine has the address (EADDRNOTAVAIL).
    case addressNotAvailable(ListenAddress)
    /// The listen address's host name could not be resolved; `reason` is the resolver's
    /// (`getaddrinfo`'s) message.
    case unresolvable(host: String, reason: String)
    /// Any other system call that failed while setting up the sockets: `call` names it (with
    /// the address, for `bind`), `reason` is the system's message for its error.
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
