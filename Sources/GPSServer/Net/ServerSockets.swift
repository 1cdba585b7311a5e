import GPSSystem

/// The server's sockets, made by GPSSystem and told in the server's words: a `ListenAddress`
/// in, a `ServerError` that says what to do out.
extension TCPListener {
    /// Binds `requested` and listens.
    static func listening(on requested: ListenAddress) throws(ServerError) -> TCPListener {
        do {
            return try TCPListener(host: requested.host, port: requested.port)
        } catch {
            throw ServerError(error, address: requested, call: "bind \(requested)")
        }
    }

    /// Takes over a listening socket handed over (socket activation).
    static func adopting(_ descriptor: FileDescriptor) throws(ServerError) -> TCPListener {
        do {
            return try TCPListener(adopting: descriptor)
        } catch {
            throw ServerError(error, address: .gpsdDefault, call: "listen")
        }
    }

    /// What it is bound to, with the port the kernel chose when asked for port 0.
    var address: ListenAddress { ListenAddress(host: host, port: port) }
}

extension DatagramSender {
    /// A sender to `target`.
    static func sending(to target: ListenAddress) throws(ServerError) -> DatagramSender {
        do {
            return try DatagramSender(host: target.host, port: target.port)
        } catch {
            throw ServerError(error, address: target, call: "socket")
        }
    }
}

extension ServerError {
    /// `error`, met making a socket for `address`.
    init(_ error: SocketError, address: ListenAddress, call: String) {
        switch error {
        case .addressInUse: self = .addressInUse(address)
        case .permissionDenied: self = .permissionDenied(address)
        case .addressNotAvailable: self = .addressNotAvailable(address)
        case .unresolvable(let host, let reason): self = .unresolvable(host: host, reason: reason)
        case .notAListeningSocket(let descriptor, let reason): self = .notAListeningSocket(descriptor: descriptor, reason: reason)
        case .system(let call, let error): self = .system(call: call == "bind" ? "bind \(address)" : call, reason: error.description)
        case .refused, .timedOut, .stopped: self = .system(call: call, reason: error.description)
        }
    }
}

/// TCP keepalive on an accepted client, so that a peer that vanished without a FIN (a laptop
/// closed, a cable pulled, a NAT that forgot the connection) is noticed and its slot freed:
/// after `idle` seconds (60) of silence the kernel probes every `interval` (10) seconds and
/// gives up after `count` (6) unanswered probes, about two minutes in all. A watcher's
/// reports keep a live connection busy anyway; this is for the ones that have nothing to send.
enum KeepAlive {
    static let idle: Int32 = 60
    static let interval: Int32 = 10
    static let count: Int32 = 6

    /// Turns it on; false if the system refused any of it (the connection is served anyway).
    @discardableResult
    static func enable(on descriptor: FileDescriptor) -> Bool {
        descriptor.enableKeepAlive(idle: idle, interval: interval, count: count)
    }
}
