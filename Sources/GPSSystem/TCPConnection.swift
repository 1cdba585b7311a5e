import Glibc

/// A TCP connection made to a host, as a non-blocking descriptor: the client side of a
/// network stream (a receiver or phone app serving NMEA). Closed when released.
public final class TCPConnection {
    public let descriptor: Int32
    /// What messages call the peer: "10.0.0.5:10110".
    public let peer: String

    /// Why a connection could not be made.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case unresolvable(reason: String)
        case refused
        case timedOut(seconds: Double)
        /// Stopped while connecting.
        case stopped
        case system(SystemError)

        public var description: String {
            switch self {
            case .unresolvable(let reason): "the name does not resolve (\(reason))"
            case .refused: "connection refused (is it listening on that port?)"
            case .timedOut(let seconds): "no answer within \(Int(seconds)) s"
            case .stopped: "stopped while connecting"
            case .system(let error): error.description
            }
        }
    }

    private init(descriptor: Int32, peer: String) {
        self.descriptor = descriptor
        self.peer = peer
    }

    deinit { close(descriptor) }

    /// Connects to `host:port`, trying each address the name resolves to, each for at most
    /// `timeout` seconds. The wait is in `poll` beside `wakeup`, so a stop ends it at once.
    /// (The name is resolved first, by the C library, which may wait on DNS.)
    public static func connect(host: String, port: Int, timeout: Double, wakeup: Wakeup) throws(Failure) -> TCPConnection {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &found)
        guard code == 0, found != nil else { throw .unresolvable(reason: String(cString: gai_strerror(code))) }
        defer { freeaddrinfo(found) }
        var last = Failure.refused
        var next = found
        while let info = next {
            next = info.pointee.ai_next
            do {
                let fd = try attempt(info.pointee, timeout: timeout, wakeup: wakeup)
                return TCPConnection(descriptor: fd, peer: "\(host):\(port)")
            } catch .stopped {
                throw .stopped
            } catch {
                last = error
            }
        }
        throw last
    }

    /// What a wait for the peer ended with.
    public enum Readiness: Equatable, Sendable {
        /// Something to read (or the peer's end: a read says which).
        case readable
        /// The wake-up was signalled (a stop).
        case woken
        case timedOut
    }

    /// Waits at most `seconds` for something to read, beside `wakeup`.
    public func waitReadable(seconds: Double, wakeup: Wakeup) throws(SystemError) -> Readiness {
        var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)]
        let ready = try retryingInterrupts { poll(&fds, 2, Clocks.pollTimeout(seconds)) }
        if fds[1].revents != 0 { return .woken }
        return ready > 0 ? .readable : .timedOut
    }

    /// Reads what has arrived: the count, 0 at the peer's end, `SystemError.wouldBlock` when nothing has.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try retryingInterrupts { recv(descriptor, buffer.baseAddress, buffer.count, 0) }
    }

    /// Sends all of `bytes`, waiting at most `seconds` in all for the peer to take them (a
    /// request of a few bytes on a new connection is taken at once).
    public func sendAll(_ bytes: [UInt8], seconds: Double, wakeup: Wakeup) throws(Failure) {
        let deadline = Clocks.monotonicSeconds + seconds
        var offset = 0
        while offset < bytes.count {
            do {
                let rest = bytes[offset...]
                let sent = try retryingInterrupts {
                    rest.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
                offset += sent
                continue
            } catch where error != .wouldBlock {
                throw .system(error)
            } catch {}
            let left = deadline - Clocks.monotonicSeconds
            guard left > 0 else { throw .timedOut(seconds: seconds) }
            var fds = [pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0),
                       pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)]
            do {
                _ = try retryingInterrupts { poll(&fds, 2, Clocks.pollTimeout(left)) }
            } catch {
                throw .system(error)
            }
            if fds[1].revents != 0 { throw .stopped }
        }
    }

    private static func attempt(_ info: addrinfo, timeout: Double, wakeup: Wakeup) throws(Failure) -> Int32 {
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(info.ai_family, flags, 0)
        guard fd >= 0 else { throw .system(SystemError(rawValue: errno)) }
        var connected = false
        defer { if !connected { close(fd) } }
        if Glibc.connect(fd, info.ai_addr, info.ai_addrlen) != 0 {
            let error = errno
            guard error == EINPROGRESS || error == EINTR else { throw failure(error) }
            var fds = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0),
                       pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)]
            let ready: Int32
            do {
                ready = try retryingInterrupts { poll(&fds, 2, Clocks.pollTimeout(timeout)) }
            } catch {
                throw .system(error)
            }
            if fds[1].revents != 0 { throw .stopped }
            guard ready > 0 else { throw .timedOut(seconds: timeout) }
            var result: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &result, &length)
            guard result == 0 else { throw failure(result) }
        }
        // A receiver that goes silent on a dead link is found by the stale timer; keepalive
        // lets the kernel close what is really gone.
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, socklen_t(MemoryLayout<Int32>.size))
        connected = true
        return fd
    }

    private static func failure(_ code: Int32) -> Failure {
        code == ECONNREFUSED ? .refused : .system(SystemError(rawValue: code))
    }
}
