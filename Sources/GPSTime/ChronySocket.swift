import CTimeSamples
import Glibc
import GPSSystem

/// chrony's SOCK refclock: a datagram per sample, `struct sock_sample`, sent to the Unix
/// socket chronyd made for its `refclock SOCK PATH` line.
///
/// chronyd creates the socket and reads it; this side only sends, unbound, and never
/// waits: a chronyd that is slow or stopped loses samples, never the source's time.
public final class ChronySocket: @unchecked Sendable {
    // @unchecked: the descriptor and address are set once; `send` is a single syscall.
    public let path: String
    private let descriptor: Int32
    private var address = sockaddr_un()
    private let addressLength: socklen_t

    /// `struct sock_sample`'s magic number, "SOCK".
    public static let magic: Int32 = 0x534f_434b

    public init(path: String) throws(TimeFeedError) {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw .socketPathTooLong(path: path)
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .system(call: "socket", SystemError(rawValue: errno)) }
        self.descriptor = descriptor
        self.path = path
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            bytes.withUnsafeBytes { raw.copyMemory(from: $0) }
        }
        addressLength = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + 1)
    }

    deinit { close(descriptor) }

    /// The datagram for `sample`, as chrony's refclock_sock.c reads it.
    public static func datagram(_ sample: TimeSample) -> [UInt8] {
        var record = gpsfix_sock_sample()
        let whole = sample.arrival.rounded(.down)
        record.tv.tv_sec = time_t(whole)
        record.tv.tv_usec = suseconds_t(min(((sample.arrival - whole) * 1e6).rounded(), 999_999))
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
            _ = try retryingInterrupts {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                        datagram.withUnsafeBytes {
                            sendto(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT), target, addressLength)
                        }
                    }
                }
            }
        } catch .wouldBlock {
            return
        } catch .noSuchFile {
            throw .chronyNotListening(path: path)
        } catch where error.rawValue == ECONNREFUSED {
            // The socket file is left behind by a chronyd that is gone.
            throw .chronyNotListening(path: path)
        } catch {
            throw .system(call: "sendto \(path)", error)
        }
    }
}
