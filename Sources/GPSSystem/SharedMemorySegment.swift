import Glibc

/// A System V shared memory segment, attached for as long as this lives (the NTP SHM
/// refclock's). Made if not there; it outlives the process, as its readers expect.
public final class SharedMemorySegment: @unchecked Sendable {
    // @unchecked: the address is set once; what is stored there is the owner's to order.
    /// Where it is attached.
    public let address: UnsafeMutableRawPointer

    /// Why a segment could not be had: the call that failed, and why.
    public struct Failure: Error, Equatable, Sendable {
        /// "shmget" or "shmat".
        public let call: String
        /// Why.
        public let error: SystemError
    }

    /// Attaches the segment under `key` of at least `size` bytes, making it with the
    /// permission bits `mode` if it is not there. EINVAL from "shmget": one is there, smaller.
    public init(key: Int32, size: Int, mode: Int32) throws(Failure) {
        let identifier = shmget(key_t(key), size, IPC_CREAT | mode)
        guard identifier >= 0 else { throw Failure(call: "shmget", error: SystemError(rawValue: errno)) }
        guard let address = shmat(identifier, nil, 0), address != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw Failure(call: "shmat", error: SystemError(rawValue: errno))
        }
        self.address = address
    }

    deinit { shmdt(address) }
}

extension SystemError {
    /// An argument the call refuses. The corresponding C constant is `EINVAL`.
    public static let invalidArgument = SystemError(rawValue: EINVAL)
}
