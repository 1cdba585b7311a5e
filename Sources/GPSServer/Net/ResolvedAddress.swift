import Glibc

/// An address the C library resolved (its first answer), and a socket opened for it: what a
/// listener and a datagram sender both start from.
struct ResolvedAddress {
    let family: Int32
    /// The socket address, copied out of the resolver's list (which is freed at once).
    let storage: sockaddr_storage
    let length: socklen_t

    /// Resolves `address` for sockets of `type` (SOCK_STREAM, SOCK_DGRAM); `passive` for one
    /// to bind to.
    init(_ address: ListenAddress, type: Int32, passive: Bool) throws(ServerError) {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = type
        var found: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(address.host, String(address.port), &hints, &found)
        guard code == 0, let info = found else {
            throw .unresolvable(host: address.host, reason: String(cString: gai_strerror(code)))
        }
        defer { freeaddrinfo(found) }
        family = info.pointee.ai_family
        length = info.pointee.ai_addrlen
        var storage = sockaddr_storage()
        let length = length
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(start: info.pointee.ai_addr, count: Int(length)))
        }
        self.storage = storage
    }

    /// A non-blocking, close-on-exec socket of `type` for this address's family.
    func openSocket(type: Int32) throws(ServerError) -> Int32 {
        let fd = socket(family, type | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(call: "socket", reason: String(cString: strerror(errno))) }
        return fd
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        var storage = storage
        return withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
