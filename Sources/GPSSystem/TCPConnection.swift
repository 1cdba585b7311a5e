import Glibc

/// A TCP connection made to a host, as a non-blocking descriptor: the client side of a
/// network stream (a receiver or phone app serving NMEA, gpsd). It owns its descriptor and
/// closes it when released.
public final class TCPConnection {
    /// The connected socket, owned: closed when the connection is released.
    public let descriptor: FileDescriptor
    /// What messages call the peer: "10.0.0.5:10110".
    public let peer: String

    private init(descriptor: FileDescriptor, peer: String) {
        self.descriptor = descriptor
        self.peer = peer
    }

    deinit { descriptor.close() }

    /// Connects to `host:port`, trying each address the name resolves to, each for at most
    /// `timeout`. The wait is in `poll` beside `wakeup`, so a stop ends it at once
    /// (`.stopped`). The name is resolved first, by the C library, which may wait on DNS.
    public static func connect(host: String, port: Int, timeout: Duration, wakeup: Wakeup) throws(SocketError) -> TCPConnection {
        var last = SocketError.refused
        for address in try SocketAddress.resolve(host: host, port: port, kind: .stream) {
            do {
                let fd = try attempt(address, timeout: timeout, wakeup: wakeup)
                return TCPConnection(descriptor: fd, peer: "\(host):\(port)")
            } catch .stopped {
                throw .stopped
            } catch {
                last = error
            }
        }
        throw last
    }

    /// Waits at most `timeout` for something to read, beside `wakeup`.
    public func waitReadable(within timeout: Duration, wakeup: Wakeup) throws(SystemError) -> FileDescriptor.Wait {
        try descriptor.wait(for: .readable, within: timeout, beside: wakeup)
    }

    /// Reads what has arrived: the count, 0 at the peer's end.
    @inlinable @inline(__always)
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> IOResult<Int> {
        try descriptor.receive(into: buffer)
    }

    /// Sends all of `bytes`, waiting at most `timeout` in all for the peer to take them (a
    /// request of a few bytes on a new connection is taken at once).
    public func sendAll(_ bytes: [UInt8], timeout: Duration, wakeup: Wakeup) throws(SocketError) {
        let deadline = Clocks.monotonicSeconds + timeout.inSeconds
        var offset = 0
        while offset < bytes.count {
            let result: IOResult<Int>
            do {
                result = try bytes[offset...].withUnsafeBytes { raw in
                    Result { () throws(SystemError) in try descriptor.send(raw) }
                }.get()
            } catch {
                throw .system(call: "send", error)
            }
            if case .processed(let sent) = result {
                offset += sent
                continue
            }
            let left = deadline - Clocks.monotonicSeconds
            guard left > 0 else { throw .timedOut(timeout) }
            let waited: FileDescriptor.Wait
            do {
                waited = try descriptor.wait(for: .writable, within: .seconds(left), beside: wakeup)
            } catch {
                throw .system(call: "poll", error)
            }
            if waited == .woken { throw .stopped }
        }
    }

    private static func attempt(_ address: SocketAddress, timeout: Duration, wakeup: Wakeup) throws(SocketError) -> FileDescriptor {
        let fd = try address.openSocket(.stream)
        var connected = false
        defer { if !connected { fd.close() } }
        if address.withSocketAddress({ Glibc.connect(fd.rawValue, $0, $1) }) != 0 {
            let error = errno
            // Interrupted, a non-blocking connect goes on in the background, as one in progress.
            guard error == EINPROGRESS || error == EINTR else { throw failure(error) }
            let waited: FileDescriptor.Wait
            do {
                waited = try fd.wait(for: .writable, within: timeout, beside: wakeup)
            } catch {
                throw .system(call: "poll", error)
            }
            switch waited {
            case .woken: throw .stopped
            case .timedOut: throw .timedOut(timeout)
            case .ready: break
            }
            let result = fd.option(SOL_SOCKET, SO_ERROR) ?? 0
            guard result == 0 else { throw failure(result) }
        }
        // A receiver that goes silent on a dead link is found by the stale timer; keepalive
        // lets the kernel close what is really gone.
        fd.enableKeepAlive()
        connected = true
        return fd
    }

    private static func failure(_ code: Int32) -> SocketError {
        code == ECONNREFUSED ? .refused : .system(call: "connect", SystemError(rawValue: code))
    }
}
