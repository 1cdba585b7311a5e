import Glibc

/// Tells a service manager how the service is doing, as `sd_notify` does: datagrams of
/// `KEY=VALUE` lines to the unix socket named in `NOTIFY_SOCKET` (a path, or an abstract name
/// written with a leading `@`). systemd reads them for `Type=notify` services (READY=1 ends
/// the start, STATUS= is what `systemctl status` shows, WATCHDOG=1 keeps `WatchdogSec=` from
/// killing the service).
///
/// The socket is made once, at the start, so a process that later runs out of descriptors
/// can still say how it is. Sends never block: a status the manager has no room for is lost,
/// and the next one says more.
public final class ServiceNotifier: Sendable {
    /// The socket's name as the manager gave it.
    public let address: String
    /// How often the manager wants to hear WATCHDOG=1 (half its `WATCHDOG_USEC`, as systemd
    /// advises); nil when it does not watch this process.
    public let watchdogInterval: Duration?
    private let socket: UnixDatagramSender

    /// One `KEY=VALUE` assignment to the manager; `send(_:)` puts several in one datagram.
    public enum Message: Equatable, Sendable {
        /// Started: the manager ends the start job.
        case ready
        /// Alive: the watchdog's timer starts again.
        case watchdog
        /// Shutting down on purpose, not failing.
        case stopping
        /// One line for `systemctl status`.
        case status(String)

        var line: String {
            switch self {
            case .ready: "READY=1"
            case .watchdog: "WATCHDOG=1"
            case .stopping: "STOPPING=1"
            // A newline would end the assignment and start another.
            case .status(let text): "STATUS=" + text.map { $0.isNewline ? " " : String($0) }.joined()
            }
        }
    }

    /// A notifier for the socket `address`; `watchdogMicroseconds` is `WATCHDOG_USEC` when the
    /// manager watches this process.
    public init(address: String, watchdogMicroseconds: UInt64? = nil) throws(ServiceNotifierError) {
        let abstract: Bool
        switch address.utf8.first {
        case UInt8(ascii: "/"): abstract = false
        case UInt8(ascii: "@"): abstract = true
        default: throw .unsupportedAddress(address)
        }
        do {
            socket = try UnixDatagramSender(path: Array(address.utf8.dropFirst(abstract ? 1 : 0)), abstract: abstract)
        } catch {
            switch error {
            case .badLength: throw .addressTooLong(address)
            case .system(let error): throw .system(call: "socket", error)
            }
        }
        self.address = address
        watchdogInterval = watchdogMicroseconds.flatMap { $0 > 0 ? .microseconds(Double($0) / 2) : nil }
    }

    /// What `take` reads from the environment, in this order.
    public static let variables = ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"]

    /// The notifier `NOTIFY_SOCKET` asks for, with the watchdog `WATCHDOG_USEC` asks for when
    /// `WATCHDOG_PID` is this process or unset; nil without `NOTIFY_SOCKET`. The variables are
    /// removed, as `sd_notify(1, …)` removes them: a child must not speak for this process.
    /// Call it before any other thread may read the environment.
    public static func take() throws(ServiceNotifierError) -> ServiceNotifier? {
        let values = variables.map { getenv($0).map { String(cString: $0) } }
        defer { for name in variables { unsetenv(name) } }
        guard let address = values[0], !address.isEmpty else { return nil }
        return try ServiceNotifier(address: address, watchdogMicroseconds: watchdog(usec: values[1], pid: values[2], processID: getpid()))
    }

    /// `WATCHDOG_USEC` when it is meant for `processID`; nil when there is no watchdog for it.
    public static func watchdog(usec: String?, pid: String?, processID: Int32) throws(ServiceNotifierError) -> UInt64? {
        guard let usec else { return nil }
        if let pid {
            guard let number = pid_t(pid), number > 0 else { throw .malformed(variable: "WATCHDOG_PID", value: pid) }
            guard number == processID else { return nil }
        }
        guard let microseconds = UInt64(usec), microseconds > 0 else { throw .malformed(variable: "WATCHDOG_USEC", value: usec) }
        return microseconds
    }

    /// Sends `messages` as one datagram, in their order. Safe from any thread.
    public func send(_ messages: Message...) throws(SystemError) {
        try send(messages)
    }

    /// Sends `messages` as one datagram, in their order; throws `SystemError.wouldBlock` when
    /// the manager has no room for it now (it is lost: the next says more).
    public func send(_ messages: [Message]) throws(SystemError) {
        let text = messages.map(\.line).joined(separator: "\n")
        if case .wouldBlock = try socket.send(Array(text.utf8)) { throw .wouldBlock }
    }
}

/// Why the service manager cannot be told anything.
public enum ServiceNotifierError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Neither a path nor an abstract name (`vsock:` and others are not spoken here).
    case unsupportedAddress(String)
    /// Longer than a unix socket's name can be (107 bytes).
    case addressTooLong(String)
    /// `WATCHDOG_USEC` or `WATCHDOG_PID` (`variable`) holds `value`, which is not a positive
    /// number: the manager's environment is broken, or was set by hand.
    case malformed(variable: String, value: String)
    /// The system refused the socket to the manager: `call` (`socket`) failed with the errno
    /// given, as when the process has run out of descriptors.
    case system(call: String, SystemError)

    public var description: String {
        switch self {
        case .unsupportedAddress(let address):
            "NOTIFY_SOCKET='\(address)' is neither a path nor an abstract socket name ('@…')"
        case .addressTooLong(let address):
            "NOTIFY_SOCKET='\(address)' is longer than a unix socket's name can be"
        case .malformed(let variable, let value):
            "the service manager's \(variable)='\(value)' is not a positive number"
        case .system(let call, let error):
            "cannot make a socket to the service manager: \(call) failed: \(error)"
        }
    }
}
