import Glibc

/// A listening TCP socket, non-blocking, and the connections it accepts: bound here, or
/// made by someone else (a service manager) and handed over. It owns its descriptor and
/// closes it when released.
public final class TCPListener: Sendable {
    /// The listening socket, owned.
    public let descriptor: FileDescriptor
    /// What it is bound to (numeric), with the port the kernel chose when asked for port 0.
    public let host: String
    /// The port it is bound to.
    public let port: Int
    /// Whether only this machine can connect (127.0.0.0/8 or ::1).
    public let isLoopback: Bool

    /// How many connections the kernel holds that were not accepted yet.
    public static let backlog: Int32 = 128

    /// Binds `host:port` (the resolver's first answer) and listens.
    public init(host: String, port: Int) throws(SocketError) {
        let resolved = try SocketAddress.resolve(host: host, port: port, kind: .stream, passive: true)[0]
        let fd = try resolved.openSocket(.stream)
        // A restarted server must not wait out TIME_WAIT from its last run's clients.
        _ = fd.setOption(SOL_SOCKET, SO_REUSEADDR, 1)
        guard resolved.withSocketAddress({ bind(fd.rawValue, $0, $1) }) == 0 else {
            let error = errno
            fd.close()
            switch error {
            case EADDRINUSE: throw .addressInUse
            case EACCES: throw .permissionDenied
            case EADDRNOTAVAIL: throw .addressNotAvailable
            default: throw .system(call: "bind", SystemError(rawValue: error))
            }
        }
        guard listen(fd.rawValue, Self.backlog) == 0 else {
            let error = SystemError(rawValue: errno)
            fd.close()
            throw .system(call: "listen", error)
        }
        let bound = SocketAddress.local(of: fd)
        descriptor = fd
        (self.host, self.port) = bound.hostAndPort
        isLoopback = bound.isLoopback
    }

    /// Takes over `descriptor`, a socket another process made, bound and set listening
    /// (systemd's socket activation), once it is seen to be a listening TCP socket. It is
    /// made non-blocking (a manager passes blocking ones, and one client that gives up
    /// between poll and accept must not stall the loop) and is closed when released; one
    /// refused is left open, as it came.
    public init(adopting descriptor: FileDescriptor) throws(SocketError) {
        let type: Int32
        do {
            type = try descriptor.readOption(SOL_SOCKET, SO_TYPE)
        } catch {
            throw .notAListeningSocket(descriptor: descriptor, reason: error.rawValue == ENOTSOCK ? "not a socket" : error.description)
        }
        let bound = SocketAddress.local(of: descriptor)
        let family = bound.family
        guard family == AF_INET || family == AF_INET6 else {
            throw .notAListeningSocket(descriptor: descriptor, reason: family == AF_UNIX ? "a unix socket, not TCP" : "not an IP socket (family \(family))")
        }
        guard type == Int32(SOCK_STREAM.rawValue) else {
            throw .notAListeningSocket(descriptor: descriptor, reason: type == Int32(SOCK_DGRAM.rawValue) ? "a datagram (UDP) socket, not TCP" : "not a stream socket")
        }
        guard descriptor.option(SOL_SOCKET, SO_ACCEPTCONN) == 1 else { throw .notAListeningSocket(descriptor: descriptor, reason: "bound but not listening") }
        try? descriptor.setNonBlocking()
        try? descriptor.setCloseOnExec()
        self.descriptor = descriptor
        (host, port) = bound.hostAndPort
        isLoopback = bound.isLoopback
    }

    deinit { descriptor.close() }

    /// A connection taken from the queue: the caller owns `descriptor` (non-blocking,
    /// close-on-exec) and closes it.
    public struct Connection: Sendable {
        /// The connection's socket, now the caller's.
        public let descriptor: FileDescriptor
        /// Numeric host of the peer.
        public let host: String
        /// The peer's port.
        public let port: Int
    }

    /// What `accept` found.
    public enum Accepted: Sendable {
        /// A connection, now the caller's.
        case connection(Connection)
        /// Nobody is waiting (or the one who was gave up).
        case none
        /// The process or the system is out of file descriptors, or of memory.
        case exhausted(SystemError)
    }

    /// The next waiting connection, without waiting.
    public func accept() -> Accepted {
        var peer = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = descriptor.rawValue
        while true {
            let client = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.accept(fd, $0, &length)
                }
            }
            if client >= 0 {
                let accepted = FileDescriptor(rawValue: client)
                try? accepted.setNonBlocking()
                try? accepted.setCloseOnExec()
                let (host, port) = SocketAddress(storage: peer, length: length).hostAndPort
                return .connection(Connection(descriptor: accepted, host: host, port: port))
            }
            let code = errno
            switch code {
            case EINTR: continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .exhausted(SystemError(rawValue: code))
            default: return .none
            }
        }
    }
}
