import Glibc

/// A listening TCP socket, non-blocking, and the connections it accepts: bound here, or
/// made by someone else (a service manager) and handed over. Closed when released.
final class Listener: Sendable {
    let fd: Int32
    /// What it is bound to, with the port the kernel chose when asked for port 0.
    let address: ListenAddress
    /// Whether only this machine can connect (127.0.0.0/8 or ::1).
    let isLoopback: Bool

    init(_ requested: ListenAddress) throws(ServerError) {
        let resolved = try ResolvedAddress(requested, type: Int32(SOCK_STREAM.rawValue), passive: true)
        let fd = try resolved.openSocket(type: Int32(SOCK_STREAM.rawValue))
        // A restarted server must not wait out TIME_WAIT from its last run's clients.
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard resolved.withSocketAddress({ bind(fd, $0, $1) }) == 0 else {
            let error = errno
            close(fd)
            switch error {
            case EADDRINUSE: throw .addressInUse(requested)
            case EACCES: throw .permissionDenied(requested)
            case EADDRNOTAVAIL: throw .addressNotAvailable(requested)
            default: throw .system(call: "bind \(requested)", reason: String(cString: strerror(error)))
            }
        }
        guard listen(fd, 128) == 0 else {
            let reason = Self.errorText()
            close(fd)
            throw .system(call: "listen", reason: reason)
        }
        let bound = Self.boundAddress(fd)
        self.fd = fd
        let (host, port) = Self.describe(bound)
        address = ListenAddress(host: host, port: port)
        isLoopback = Self.isLoopback(bound)
    }

    /// Takes over `fd`, a socket another process made, bound and set listening (systemd's
    /// socket activation), once it is seen to be a listening TCP socket. It is made
    /// non-blocking (a manager passes blocking ones, and one client that gives up between
    /// poll and accept must not stall the loop) and closed when released.
    init(adopting fd: Int32) throws(ServerError) {
        func option(_ name: Int32) -> Int32? {
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(fd, SOL_SOCKET, name, &value, &length) == 0 ? value : nil
        }
        guard let type = option(SO_TYPE) else {
            throw .notAListeningSocket(descriptor: fd, reason: errno == ENOTSOCK ? "not a socket" : String(cString: strerror(errno)))
        }
        let bound = Self.boundAddress(fd)
        let family = Int32(bound.ss_family)
        guard family == AF_INET || family == AF_INET6 else {
            throw .notAListeningSocket(descriptor: fd, reason: family == AF_UNIX ? "a unix socket, not TCP" : "not an IP socket (family \(family))")
        }
        guard type == Int32(SOCK_STREAM.rawValue) else {
            throw .notAListeningSocket(descriptor: fd, reason: type == Int32(SOCK_DGRAM.rawValue) ? "a datagram (UDP) socket, not TCP" : "not a stream socket")
        }
        guard option(SO_ACCEPTCONN) == 1 else { throw .notAListeningSocket(descriptor: fd, reason: "bound but not listening") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        self.fd = fd
        let (host, port) = Self.describe(bound)
        address = ListenAddress(host: host, port: port)
        isLoopback = Self.isLoopback(bound)
    }

    private static func boundAddress(_ fd: Int32) -> sockaddr_storage {
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return bound
    }

    deinit { close(fd) }

    enum Accepted {
        /// `peer` is host and port, for the log; `host` alone, for counting by address.
        case client(fd: Int32, peer: String, host: String)
        /// Nobody is waiting (or the one who was gave up).
        case none
        /// The process or the system is out of file descriptors, or of memory.
        case exhausted(reason: String)
    }

    /// The next waiting connection, non-blocking.
    func accept() -> Accepted {
        var peer = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let client = withUnsafeMutablePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.accept(fd, $0, &length)
            }
        }
        guard client >= 0 else {
            switch errno {
            case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .exhausted(reason: String(cString: strerror(errno)))
            default: return .none
            }
        }
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        let (host, port) = Self.describe(peer)
        return .client(fd: client, peer: ListenAddress(host: host, port: port).description, host: host)
    }

    static func describe(_ address: sockaddr_storage) -> (String, Int) {
        var address = address
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let code = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, socklen_t(MemoryLayout<sockaddr_storage>.size), &host, socklen_t(host.count),
                            &service, socklen_t(service.count), NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        guard code == 0 else { return ("?", 0) }
        let hostText = host.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let serviceText = service.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return (hostText, Int(serviceText) ?? 0)
    }

    static func isLoopback(_ address: sockaddr_storage) -> Bool {
        var address = address
        return withUnsafePointer(to: &address) { pointer in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    UInt32(bigEndian: $0.pointee.sin_addr.s_addr) >> 24 == 127
                }
            case AF_INET6:
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    let bytes = $0.pointee.sin6_addr.__in6_u.__u6_addr8
                    return withUnsafeBytes(of: bytes) { raw in raw.dropLast().allSatisfy { $0 == 0 } && raw.last == 1 }
                }
            default:
                return false
            }
        }
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}
