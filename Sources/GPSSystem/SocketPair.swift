import Glibc

/// A connected pair of local stream sockets: one thread writes into one end, another reads
/// the other end as it would a device (what `PushedNMEAManager` feeds the stream reader
/// through). What is written and not yet read waits in the kernel's buffers, which bounds it.
extension FileDescriptor {
    /// Two connected local stream sockets, closed on exec; the caller closes both.
    public static func socketPair() throws(SystemError) -> (FileDescriptor, FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        _ = try retryingInterrupts { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) }
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    /// What the kernel may hold unread for this socket (it doubles the figure).
    @discardableResult
    public func setReceiveBuffer(_ bytes: Int32) -> Bool { setOption(SOL_SOCKET, SO_RCVBUF, bytes) }

    /// Sends all of `bytes` on a blocking socket, waiting for room as long as it takes, never
    /// raising `SIGPIPE` (a reader gone is a thrown `SystemError`, EPIPE).
    public func sendWaiting(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        let fd = rawValue
        var offset = 0
        while offset < bytes.count {
            let sent = try retryingInterrupts { Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw SystemError(rawValue: EPIPE) }
            offset += sent
        }
    }

    /// Which way of a socket `shutdown(_:)` ends.
    public enum ShutdownDirection: Sendable {
        /// No more sending: the peer reads what was sent, then its end.
        case writing
        /// Neither way: a thread waiting to send or receive on it returns at once.
        case both
    }

    /// Ends one or both ways of a connected socket without closing the descriptor, so a thread
    /// using it at this moment is woken rather than handed a number that may be reused.
    public func shutdown(_ direction: ShutdownDirection) {
        _ = Glibc.shutdown(rawValue, direction == .writing ? Int32(SHUT_WR) : Int32(SHUT_RDWR))
    }
}
