import Glibc

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
    static func enable(on fd: Int32) -> Bool {
        func set(_ level: Int32, _ name: Int32, _ value: Int32) -> Bool {
            var value = value
            return setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0
        }
        let tcp = Int32(IPPROTO_TCP)
        return set(SOL_SOCKET, SO_KEEPALIVE, 1) && set(tcp, TCP_KEEPIDLE, idle)
            && set(tcp, TCP_KEEPINTVL, interval) && set(tcp, TCP_KEEPCNT, count)
    }
}
