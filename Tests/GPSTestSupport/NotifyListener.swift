import Glibc

/// The service manager's end of `NOTIFY_SOCKET`, as a test plays it: a datagram unix socket
/// bound at a path or at an abstract name (`@name`), whose messages are read with a deadline.
public final class NotifyListener {
    /// What to put in `NOTIFY_SOCKET`.
    public let address: String
    private let fd: Int32
    public private(set) var messages: [String] = []

    /// Binds `address`: a path (in a directory of the test's own) or `@name`.
    public init(address: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SpawnError(description: "socket: \(String(cString: strerror(errno)))") }
        var name = Array(address.utf8)
        if name.first == UInt8(ascii: "@") { name[0] = 0 } else { name.append(0) }
        var unix = sockaddr_un()
        unix.sun_family = sa_family_t(AF_UNIX)
        guard name.count <= MemoryLayout.size(ofValue: unix.sun_path) else {
            close(fd)
            throw SpawnError(description: "\(address) is too long for a unix socket")
        }
        withUnsafeMutableBytes(of: &unix.sun_path) { raw in name.withUnsafeBytes { raw.copyMemory(from: $0) } }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + name.count)
        let bound = withUnsafePointer(to: &unix) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw SpawnError(description: "bind \(address): \(reason)")
        }
        self.fd = fd
        self.address = address
    }

    deinit { close(fd) }

    /// Reads until a message satisfies `condition` (true) or `seconds` pass (false); every
    /// message read is kept in `messages`, in order.
    public func waitFor(within seconds: Double = 10, _ condition: (String) -> Bool) -> Bool {
        let deadline = monotonicSeconds() + seconds
        while true {
            let left = deadline - monotonicSeconds()
            guard left > 0, let message = receive(waiting: left) else { return false }
            messages.append(message)
            if condition(message) { return true }
        }
    }

    /// The lines of every message read so far (`READY=1`, `STATUS=…`), in order.
    public var lines: [String] { messages.flatMap { $0.split(separator: "\n").map(String.init) } }

    private func receive(waiting seconds: Double) -> String? {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(max(1, min(seconds * 1000, 60_000)))) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n >= 0 else { return nil }
        return String(decoding: buffer[..<n], as: UTF8.self)
    }
}
