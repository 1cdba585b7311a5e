import Glibc

/// A UDP socket that sends each line as one datagram to one address (unicast or broadcast),
/// never blocking: a datagram the kernel will not take now is lost, and the caller counts
/// it. It owns its socket and closes it when released.
public final class DatagramSender: Sendable {
    private let descriptor: FileDescriptor
    private let destination: SocketAddress

    /// Resolves `host:port` (the first answer) and opens a socket for it; an IPv4 one may
    /// send to a broadcast address.
    public init(host: String, port: Int) throws(SocketError) {
        let resolved = try SocketAddress.resolve(host: host, port: port, kind: .datagram)[0]
        let fd = try resolved.openSocket(.datagram)
        if resolved.family == AF_INET {
            // Without it the kernel refuses a broadcast address (EACCES): boats and benches
            // send NMEA to 192.168.x.255 so that every display on the network hears it.
            do {
                try fd.allowBroadcast()
            } catch {
                fd.close()
                throw .system(call: "setsockopt SO_BROADCAST", error)
            }
        }
        descriptor = fd
        destination = resolved
    }

    deinit { descriptor.close() }

    /// Sends `datagram` as one datagram; throws when it was not sent (`.wouldBlock`: the
    /// socket's buffer is full).
    public func send(_ datagram: [UInt8]) throws(SystemError) {
        let result = try datagram.withUnsafeBytes { bytes in
            Result { () throws(SystemError) in try descriptor.send(bytes, to: destination) }
        }.get()
        if case .wouldBlock = result { throw .wouldBlock }
    }
}
