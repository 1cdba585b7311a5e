import Glibc

/// What waits to be written to one client: whole lines, bounded in bytes. The lines are
/// shared arrays (a report is formatted once for every client), so a queue holds references,
/// and the bound is on what they would cost to send.
struct OutputQueue {
    let limit: Int
    private var lines: [[UInt8]] = []
    private var head = 0
    /// How much of `lines[head]` has been written already.
    private var offset = 0
    private(set) var bytes = 0

    init(limit: Int) {
        self.limit = limit
    }

    var isEmpty: Bool { head == lines.count }

    /// Queues a whole line, or refuses it (returns false) when it would pass the bound: a
    /// client gets whole reports or none, never half of one.
    mutating func push(_ line: [UInt8]) -> Bool {
        guard bytes + line.count <= limit else { return false }
        lines.append(line)
        bytes += line.count
        return true
    }

    enum Progress: Equatable {
        /// Everything queued was written; `wrote` bytes this time.
        case drained(wrote: Int)
        /// The socket is full; `wrote` bytes went before it was.
        case blocked(wrote: Int)
        /// The client has gone (EPIPE, ECONNRESET).
        case failed(errno: Int32)
    }

    /// Writes as much as the socket takes now, without blocking.
    mutating func flush(to fd: Int32) -> Progress {
        var wrote = 0
        while head < lines.count {
            let n = lines[head].withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { compact(); return .blocked(wrote: wrote) }
                return .failed(errno: errno)
            }
            wrote += n
            bytes -= n
            offset += n
            if offset == lines[head].count {
                head += 1
                offset = 0
            }
        }
        lines.removeAll(keepingCapacity: true)
        head = 0
        return .drained(wrote: wrote)
    }

    private mutating func compact() {
        guard head > 64 && head * 2 > lines.count else { return }
        lines.removeFirst(head)
        head = 0
    }
}
