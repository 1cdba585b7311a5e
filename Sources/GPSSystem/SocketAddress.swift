import Glibc

/// An IPv4 or IPv6 socket address, copied out of the resolver's answer (whose list is freed
/// at once) or out of the kernel's (`accept`, `getsockname`). The one place a name is
/// resolved (`getaddrinfo`).
public struct SocketAddress: Sendable {
    let storage: sockaddr_storage
    let length: socklen_t

    /// `AF_INET` or `AF_INET6` (or another family, for an address the kernel gave).
    var family: Int32 { Int32(storage.ss_family) }

    init(storage: sockaddr_storage, length: socklen_t) {
        self.storage = storage
        self.length = length
    }

    /// What a socket is for, as the resolver is asked.
    public enum Kind: Sendable {
        /// TCP.
        case stream
        /// UDP.
        case datagram
        var socketType: Int32 { Int32(self == .stream ? SOCK_STREAM.rawValue : SOCK_DGRAM.rawValue) }
    }

    /// Every address `host` resolves to for `port` (numeric only: no service names), in the
    /// resolver's order; `passive` for one to bind to. Throws `.unresolvable` with the
    /// resolver's reason. (The C library may wait on DNS here.)
    public static func resolve(host: String, port: Int, kind: Kind, passive: Bool = false) throws(SocketError) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = kind.socketType
        var found: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &found)
        guard code == 0, found != nil else {
            throw .unresolvable(host: host, reason: String(cString: gai_strerror(code)))
        }
        defer { freeaddrinfo(found) }
        var addresses: [SocketAddress] = []
        var next = found
        while let info = next {
            next = info.pointee.ai_next
            let length = info.pointee.ai_addrlen
            guard Int(length) <= MemoryLayout<sockaddr_storage>.size else { continue }
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { raw in
                raw.copyMemory(from: UnsafeRawBufferPointer(start: info.pointee.ai_addr, count: Int(length)))
            }
            addresses.append(SocketAddress(storage: storage, length: length))
        }
        guard !addresses.isEmpty else { throw .unresolvable(host: host, reason: "no address") }
        return addresses
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    func withSocketAddress<Value, Failure: Error>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws(Failure) -> Value) throws(Failure) -> Value {
        var storage = storage
        let result = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                Result { () throws(Failure) in try body(address, length) }
            }
        }
        return try result.get()
    }

    /// A non-blocking, close-on-exec socket for this address's family, owned by the caller.
    func openSocket(_ kind: Kind) throws(SocketError) -> FileDescriptor {
        let flags = kind.socketType | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(family, flags, 0)
        guard fd >= 0 else { throw .system(call: "socket", SystemError(rawValue: errno)) }
        return FileDescriptor(rawValue: fd)
    }

    /// The numeric host ("10.0.0.5", "::1") and port; "?" and 0 when it is neither IPv4 nor IPv6.
    public var hostAndPort: (host: String, port: Int) {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let code = withSocketAddress { address, _ in
            getnameinfo(address, socklen_t(MemoryLayout<sockaddr_storage>.size), &host, socklen_t(host.count),
                        &service, socklen_t(service.count), NI_NUMERICHOST | NI_NUMERICSERV)
        }
        guard code == 0 else { return ("?", 0) }
        let hostText = host.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let serviceText = service.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return (hostText, Int(serviceText) ?? 0)
    }

    /// Whether only this machine can reach it (127.0.0.0/8 or ::1).
    public var isLoopback: Bool {
        var address = storage
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

    /// Whether `text` is an IPv6 address as `inet_pton` takes it, with an optional zone
    /// (`fe80::1%eth0`).
    public static func isIPv6(_ text: some StringProtocol) -> Bool {
        let parts = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2 && parts[1].isEmpty { return false }
        var address = in6_addr()
        return inet_pton(AF_INET6, String(parts[0]), &address) == 1
    }

    /// The address a socket is bound to (`getsockname`).
    static func local(of fd: FileDescriptor) -> SocketAddress {
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd.rawValue, $0, &length) }
        }
        return SocketAddress(storage: bound, length: length)
    }
}
