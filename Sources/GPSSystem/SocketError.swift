/// Why a socket could not be resolved, bound, connected or taken over; the server and the
/// sources say it in their own words (`ServerError`, a source's failure).
public enum SocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `host` has no address, in the resolver's words.
    case unresolvable(host: String, reason: String)
    /// Something else is bound to that address and port (`EADDRINUSE`).
    case addressInUse
    /// A port below 1024 without the right to it (`EACCES`).
    case permissionDenied
    /// No interface here has that address (`EADDRNOTAVAIL`).
    case addressNotAvailable
    /// Nothing listens there (`ECONNREFUSED`).
    case refused
    /// No answer within this long.
    case timedOut(Duration)
    /// A wake-up was signalled (a stop) while waiting.
    case stopped
    /// A descriptor handed over that is not a listening TCP socket, and what it is instead.
    case notAListeningSocket(descriptor: FileDescriptor, reason: String)
    /// Any other failure of the call `call`.
    case system(call: String, SystemError)

    /// What happened, for a message that names the address before it.
    public var description: String {
        switch self {
        case .unresolvable(let host, let reason): "cannot resolve '\(host)': \(reason)"
        case .addressInUse: "the address is already in use"
        case .permissionDenied: "not allowed (ports below 1024 need root)"
        case .addressNotAvailable: "no network interface here has that address"
        case .refused: "connection refused (is it listening on that port?)"
        case .timedOut(let duration): "no answer within \(Int(duration.inSeconds)) s"
        case .stopped: "stopped while waiting"
        case .notAListeningSocket(let descriptor, let reason): "descriptor \(descriptor.rawValue) is not a listening TCP socket: \(reason)"
        case .system(let call, let error): "\(call) failed: \(error)"
        }
    }
}
