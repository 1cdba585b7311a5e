import CTimeSamples
import GPSSystem

/// chrony's SOCK refclock: a datagram per sample, `struct sock_sample`, sent to the Unix
/// socket chronyd made for its `refclock SOCK PATH` line.
///
/// chronyd creates the socket and reads it; this side only sends, unbound, and never
/// waits: a chronyd that is slow or stopped loses samples, never the source's time.
public final class ChronySocket: Sendable {
    /// The socket's path, as in chrony's `refclock SOCK PATH` line.
    public let path: String
    private let socket: UnixDatagramSender

    /// `struct sock_sample`'s magic number, "SOCK".
    public static let magic: Int32 = 0x534f_434b

    /// A sender to chronyd's socket at `path`: it makes an unbound datagram socket and sends
    /// nothing yet, so chronyd need not be running. Throws ``TimeFeedError/socketPathTooLong(path:)``
    /// for a path longer than a unix socket's name, ``TimeFeedError/system(call:_:)`` when the
    /// system gives no socket (out of descriptors).
    public init(path: String) throws(TimeFeedError) {
        do {
            socket = try UnixDatagramSender(path: Array(path.utf8))
        } catch {
            switch error {
            case .badLength: throw .socketPathTooLong(path: path)
            case .system(let error): throw .system(call: "socket", error)
            }
        }
        self.path = path
    }

    /// The datagram for `sample`, as chrony's refclock_sock.c reads it.
    public static func datagram(_ sample: TimeSample) -> [UInt8] {
        var record = gpsfix_sock_sample()
        let whole = sample.arrival.rounded(.down)
        record.tv.tv_sec = .init(whole)
        record.tv.tv_usec = .init(min(((sample.arrival - whole) * 1e6).rounded(), 999_999))
        record.offset = sample.offset
        record.pulse = 0
        record.leap = 0
        record.magic = magic
        return withUnsafeBytes(of: record) { Array($0) }
    }

    /// The datagram for a pulse: `pulse` set, so chronyd takes it as a PPS refclock's edge (it
    /// uses the offset's fraction of a second, and the second from the refclock it is locked
    /// to or from its own clock). For a pulse the offset is the other way round from a
    /// sample's: system time minus true time, as chrony's own PPS driver hands it the edge's
    /// fraction of a second. The time is the edge's to the microsecond, as a `timeval` holds
    /// it, and the offset is from that microsecond, so nothing of the edge's nanoseconds is
    /// lost.
    public static func datagram(_ sample: PulseSample) -> [UInt8] {
        var record = gpsfix_sock_sample()
        let microseconds = Int64(sample.pulse.nanoseconds / 1000)
        record.tv.tv_sec = .init(sample.pulse.seconds)
        record.tv.tv_usec = .init(microseconds)
        record.offset = Double(microseconds) / 1e6 - Double(sample.second &- sample.pulse.seconds)
        record.pulse = 1
        record.leap = 0
        record.magic = magic
        return withUnsafeBytes(of: record) { Array($0) }
    }

    /// Sends a pulse, as `send(_:)` a sample.
    public func send(_ sample: PulseSample) throws(TimeFeedError) {
        try send(datagram: Self.datagram(sample))
    }

    /// Sends `sample`. A chronyd not there is `.chronyNotListening`; one that is busy (its
    /// queue full) loses this sample quietly.
    public func send(_ sample: TimeSample) throws(TimeFeedError) {
        try send(datagram: Self.datagram(sample))
    }

    private func send(datagram: [UInt8]) throws(TimeFeedError) {
        do {
            // Not taken (chronyd's queue full): this sample is lost quietly.
            _ = try socket.send(datagram)
        } catch .noSuchFile {
            throw .chronyNotListening(path: path)
        } catch .connectionRefused {
            // The socket file is left behind by a chronyd that is gone.
            throw .chronyNotListening(path: path)
        } catch {
            throw .system(call: "sendto \(path)", error)
        }
    }
}
