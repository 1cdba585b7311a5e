import Glibc

/// A plain TCP client for tests of line protocols: connect, send text, read CR LF lines with
/// a deadline. Blocking calls, bounded by `poll`, so a server that says nothing fails the test
/// instead of hanging it.
public final class LineClient {
    public let fd: Int32
    private var buffer: [UInt8] = []
    /// Set once the server has closed the connection (read returned 0 or an error).
    public private(set) var closed = false

    /// Connects to 127.0.0.1:`port`; `receiveBuffer` shrinks the socket's buffer (a slow reader);
    /// `from`, another loopback address (127.0.0.2), is where it connects from (a second host).
    public init(port: Int, receiveBuffer: Int32? = nil, from source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SpawnError(description: "socket: \(String(cString: strerror(errno)))") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            guard inet_pton(AF_INET, source, &local.sin_addr) == 1 else {
                close(fd)
                throw SpawnError(description: "not an IPv4 address: \(source)")
            }
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw SpawnError(description: "bind to \(source): \(reason)")
            }
        }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw SpawnError(description: "connect to 127.0.0.1:\(port): \(reason)")
        }
    }

    deinit { close(fd) }

    public func send(_ text: String) {
        var bytes = Array(text.utf8)
        send(bytes: &bytes)
    }

    public func send(bytes: inout [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }
            offset += n
        }
    }

    /// The next line without its CR LF, or nil if none came within `seconds` or the server closed.
    public func readLine(within seconds: Double = 5) -> String? {
        let deadline = monotonicSeconds() + seconds
        while true {
            if let end = buffer.firstIndex(of: 0x0A) {
                var line = Array(buffer[..<end])
                buffer.removeFirst(end + 1)
                if line.last == 0x0D { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            let left = deadline - monotonicSeconds()
            guard !closed, left > 0, fill(waiting: left) else { return nil }
        }
    }

    /// Lines until `count` have come or `seconds` have passed.
    public func readLines(_ count: Int, within seconds: Double = 5) -> [String] {
        let deadline = monotonicSeconds() + seconds
        var lines: [String] = []
        while lines.count < count, let line = readLine(within: max(0, deadline - monotonicSeconds())) { lines.append(line) }
        return lines
    }

    /// Reads and discards until the server closes (true) or `seconds` pass (false).
    public func waitForClose(within seconds: Double) -> Bool {
        let deadline = monotonicSeconds() + seconds
        while !closed {
            let left = deadline - monotonicSeconds()
            guard left > 0 else { return false }
            _ = fill(waiting: left)
            buffer.removeAll()
        }
        return true
    }

    private func fill(waiting seconds: Double) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(max(1, min(seconds * 1000, 60_000)))) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else {
            closed = true
            return false
        }
        buffer.append(contentsOf: chunk[..<n])
        return true
    }
}

public func monotonicSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}
