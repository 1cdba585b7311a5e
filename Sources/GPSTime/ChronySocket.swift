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

    /// Sends `sample`. A chronyd not there is `.chronyNotListening`; one that is busy (its
    /// queue full) loses this sample quietly.
    public func send(_ sample: TimeSample) throws(TimeFeedError) {
        let datagram = Self.datagram(sample)
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
