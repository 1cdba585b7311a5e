import Glibc

/// A UDP socket bound to a free loopback port, for tests of what is sent to it: each
/// datagram whole, with a deadline, so a sender that sends nothing fails the test.
public final class DatagramReceiver {
    public let fd: Int32
    public let port: Int

    /// Bound to 127.0.0.1, or with `everyAddress` to 0.0.0.0: only such a socket hears a
    /// datagram sent to a broadcast address.
    public init(everyAddress: Bool = false) throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw SpawnError(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = everyAddress ? 0 : UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw SpawnError(description: "bind UDP: \(reason)")
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(fd) }

    /// The next datagram, or nil if none came within `seconds`.
    public func receive(within seconds: Double = 5) -> [UInt8]? {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(max(1, seconds * 1000))) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n < 0 ? nil : Array(buffer[..<n])
    }
}
