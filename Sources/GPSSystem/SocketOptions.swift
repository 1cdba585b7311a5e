// Public: the inlinable calls below are made where they are called, so a typed descriptor
// costs what the C call costs.
public import Glibc

/// What is done on a connected socket: sending and receiving without blocking and without
/// `SIGPIPE`, and the options gpsfix sets.
extension FileDescriptor {
    /// Sends what the socket takes now of `bytes`, never waiting and never raising `SIGPIPE`
    /// (a peer's close is a thrown `SystemError`, EPIPE or ECONNRESET).
    @inlinable @inline(__always)
    public func send(_ bytes: UnsafeRawBufferPointer) throws(SystemError) -> IOResult<Int> {
        let fd = rawValue
        return try nonBlocking { Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
    }

    /// Receives what has arrived, never waiting: 0 at the peer's end.
    @inlinable @inline(__always)
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> IOResult<Int> {
        let fd = rawValue
        return try nonBlocking { Glibc.recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT)) }
    }

    /// Sends `bytes` as one datagram to `address`, never waiting.
    public func send(_ bytes: UnsafeRawBufferPointer, to address: SocketAddress) throws(SystemError) -> IOResult<Int> {
        let fd = rawValue
        return try address.withSocketAddress { target, length throws(SystemError) in
            try nonBlocking { sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT), target, length) }
        }
    }

    /// TCP keepalive, so that a peer that vanished without a FIN (a laptop closed, a cable
    /// pulled, a NAT that forgot the connection) is noticed: after `idle` of silence the
    /// kernel probes every `interval` and gives up after `count` unanswered probes. Without
    /// the timings, the kernel's (two hours before the first probe). False if the system
    /// refused any of it (the connection works anyway).
    @discardableResult
    public func enableKeepAlive(idle: Int32? = nil, interval: Int32? = nil, count: Int32? = nil) -> Bool {
        let tcp = Int32(IPPROTO_TCP)
        guard setOption(SOL_SOCKET, SO_KEEPALIVE, 1) else { return false }
        if let idle, !setOption(tcp, TCP_KEEPIDLE, idle) { return false }
        if let interval, !setOption(tcp, TCP_KEEPINTVL, interval) { return false }
        if let count, !setOption(tcp, TCP_KEEPCNT, count) { return false }
        return true
    }

    /// Sends small writes at once rather than gathering them (Nagle off): a report is one write.
    @discardableResult
    public func setNoDelay() -> Bool { setOption(Int32(IPPROTO_TCP), TCP_NODELAY, 1) }

    /// What the kernel may hold unsent for this socket (it doubles the figure).
    @discardableResult
    public func setSendBuffer(_ bytes: Int32) -> Bool { setOption(SOL_SOCKET, SO_SNDBUF, bytes) }

    /// Lets a datagram socket send to a broadcast address (the kernel refuses one with EACCES
    /// otherwise).
    public func allowBroadcast() throws(SystemError) {
        guard setOption(SOL_SOCKET, SO_BROADCAST, 1) else { throw SystemError(rawValue: errno) }
    }

    func setOption(_ level: Int32, _ name: Int32, _ value: Int32) -> Bool {
        var value = value
        return setsockopt(rawValue, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0
    }

    func option(_ level: Int32, _ name: Int32) -> Int32? {
        try? readOption(level, name)
    }

    /// The option's value, or why it cannot be read (ENOTSOCK: not a socket).
    func readOption(_ level: Int32, _ name: Int32) throws(SystemError) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        let fd = rawValue
        _ = try retryingInterrupts { getsockopt(fd, level, name, &value, &length) }
        return value
    }
}
