import GPSSystem

/// What waits to be written to one client: whole lines, bounded in bytes. The lines are
/// shared arrays (a report is formatted once for every client, a DEVICES or POLL reply once
/// for every client that asks), so a queue holds references, and the bounds are on what they
/// would cost to send.
///
/// Reports and replies are bounded apart: reports by `limit`, replies to the client's own
/// requests by `replyLimit`. A queue full of reports the client has not read yet still takes
/// the DEVICES or POLL it asked for, whole, behind them.
struct OutputQueue {
    let limit: Int
    let replyLimit: Int
    private var lines: [(bytes: [UInt8], reply: Bool)] = []
    private var head = 0
    /// How much of `lines[head]` has been written already.
    private var offset = 0
    /// Bytes waiting, of reports and of replies.
    private(set) var reportBytes = 0
    private(set) var replyBytes = 0

    init(limit: Int, replyLimit: Int) {
        self.limit = limit
        self.replyLimit = replyLimit
    }

    var isEmpty: Bool { head == lines.count }
    var bytes: Int { reportBytes + replyBytes }

    /// Queues a whole line, or refuses it (returns false) when it would pass its bound: a
    /// client gets whole reports or none, never half of one.
    mutating func push(_ line: [UInt8], reply: Bool = false) -> Bool {
        if reply {
            guard replyBytes + line.count <= replyLimit else { return false }
            replyBytes += line.count
        } else {
            guard reportBytes + line.count <= limit else { return false }
            reportBytes += line.count
        }
        lines.append((line, reply))
        return true
    }

    /// Queues the rest of a report whose first `sent` bytes were written straight to the
    /// socket; only into an empty queue, whose head it becomes. It is taken even past the
    /// bound: a client gets whole reports or none, and this one has begun.
    mutating func push(_ line: [UInt8], sent: Int) {
        precondition(isEmpty && sent < line.count, "only the rest of a report begun on an empty queue")
        lines.removeAll(keepingCapacity: true)
        head = 0
        lines.append((line, false))
        offset = sent
        reportBytes += line.count - sent
    }

    enum Progress: Equatable {
        /// Everything queued was written; `wrote` bytes this time.
        case drained(wrote: Int)
        /// The socket is full; `wrote` bytes went before it was.
        case blocked(wrote: Int)
        /// The client has gone (EPIPE, ECONNRESET).
        case failed(SystemError)
    }

    /// Writes as much as the socket takes now, without blocking.
    mutating func flush(to descriptor: FileDescriptor) -> Progress {
        var wrote = 0
        while head < lines.count {
            let start = offset
            let result: IOResult<Int>
            do {
                result = try lines[head].bytes.withUnsafeBytes { raw in
                    Result { () throws(SystemError) in try descriptor.send(UnsafeRawBufferPointer(rebasing: raw[start...])) }
                }.get()
            } catch {
                return .failed(error)
            }
            guard case .processed(let n) = result else {
                compact()
                return .blocked(wrote: wrote)
            }
            wrote += n
            if lines[head].reply { replyBytes -= n } else { reportBytes -= n }
            offset += n
            if offset == lines[head].bytes.count {
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
