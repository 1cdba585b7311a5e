import Glibc

/// An unbound unix datagram socket that sends to one named socket another process made and
/// reads (chrony's SOCK refclock, a service manager's notify socket), never waiting. It owns
/// its socket and closes it when released.
public final class UnixDatagramSender: Sendable {
    /// The most bytes a socket's name may have, with its terminating NUL (`sun_path`).
    public static let nameLimit = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    private let descriptor: FileDescriptor
    private let address: SocketAddress

    /// Why a name cannot be sent to.
    public enum NameError: Error, Equatable, Sendable {
        /// Empty, or longer than `nameLimit` allows.
        case badLength
        /// The socket could not be made.
        case system(SystemError)
    }

    /// A sender to the socket at `path`, or to the abstract name `path` less its leading NUL
    /// when `abstract`.
    public init(path: [UInt8], abstract: Bool = false) throws(NameError) {
        // A path ends in NUL; an abstract name starts with one and has none at its end.
        let name = abstract ? [0] + path : path + [0]
        // An abstract name may be empty (the NUL alone); a path may not.
        guard !path.isEmpty || abstract, name.count <= Self.nameLimit else { throw .badLength }
        var unix = sockaddr_un()
        unix.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &unix.sun_path) { raw in
            name.withUnsafeBytes { raw.copyMemory(from: $0) }
        }
        // The length counts a path's NUL but not an abstract name's missing one.
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + name.count)
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { raw in
            withUnsafeBytes(of: unix) { raw.copyMemory(from: $0) }
        }
        address = SocketAddress(storage: storage, length: length)
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(SystemError(rawValue: errno)) }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { descriptor.close() }

    /// Sends `bytes` as one datagram: `.wouldBlock` when the reader's queue is full (the
    /// datagram is lost); thrown: `.noSuchFile` or ECONNREFUSED when nobody reads there.
    public func send(_ bytes: [UInt8]) throws(SystemError) -> IOResult<Int> {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(SystemError) in try descriptor.send(raw, to: address) }
        }.get()
    }
}

extension SystemError {
    /// Nobody listens there (a socket file left behind). The corresponding C constant is `ECONNREFUSED`.
    public static let connectionRefused = SystemError(rawValue: ECONNREFUSED)
}
