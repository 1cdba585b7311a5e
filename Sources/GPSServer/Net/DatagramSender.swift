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
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(target.host, String(target.port), &hints, &found)
        guard code == 0, let info = found else {
            throw .unresolvable(host: target.host, reason: String(cString: gai_strerror(code)))
        }
        defer { freeaddrinfo(found) }
        var destination = sockaddr_storage()
        let length = info.pointee.ai_addrlen
        withUnsafeMutableBytes(of: &destination) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(start: info.pointee.ai_addr, count: Int(length)))
        }

        let fd = socket(info.pointee.ai_family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(call: "socket", reason: String(cString: strerror(errno))) }
        if info.pointee.ai_family == AF_INET {
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
        self.destination = destination
        self.length = length
    }

    deinit { close(fd) }

    /// Sends `datagram` as one datagram; throws when it was not sent (`.wouldBlock`: the
    /// socket's buffer is full).
    func send(_ datagram: [UInt8]) throws(Errno) {
        var destination = destination
        let (fd, length) = (fd, length)
        let failure = withUnsafePointer(to: &destination) { address -> Errno? in
            address.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> Errno? in
                datagram.withUnsafeBytes { bytes -> Errno? in
                    do throws(Errno) {
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
