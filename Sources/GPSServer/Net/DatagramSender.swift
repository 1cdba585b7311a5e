import GPSSystem
import Glibc

/// A UDP socket that sends each line as one datagram to one address (unicast or broadcast),
/// never blocking: a datagram the kernel will not take now is lost, and the caller counts it.
final class DatagramSender: Sendable {
    let fd: Int32
    let target: ListenAddress
    private let destination: sockaddr_storage
    private let length: socklen_t

    init(_ target: ListenAddress) throws(ServerError) {
        let resolved = try ResolvedAddress(target, type: Int32(SOCK_DGRAM.rawValue), passive: false)
        let fd = try resolved.openSocket(type: Int32(SOCK_DGRAM.rawValue))
        if resolved.family == AF_INET {
            // Without it the kernel refuses a broadcast address (EACCES): boats and benches
            // send NMEA to 192.168.x.255 so that every display on the network hears it.
            var on: Int32 = 1
            guard setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw .system(call: "setsockopt SO_BROADCAST", reason: reason)
            }
        }
        self.fd = fd
        self.target = target
        destination = resolved.storage
        length = resolved.length
    }

    deinit { close(fd) }

    /// Sends `datagram` as one datagram; throws when it was not sent (`.wouldBlock`: the
    /// socket's buffer is full).
    func send(_ datagram: [UInt8]) throws(SystemError) {
        var destination = destination
        let (fd, length) = (fd, length)
        let failure = withUnsafePointer(to: &destination) { address -> SystemError? in
            address.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> SystemError? in
                datagram.withUnsafeBytes { bytes -> SystemError? in
                    do throws(SystemError) {
                        _ = try retryingInterrupts {
                            sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL), address, length)
                        }
                        return nil
                    } catch {
                        return error
                    }
                }
            }
        }
        if let failure { throw failure }
    }
}
