public import GPSSystem

/// Why a time sample could not be handed to the NTP server.
public enum TimeFeedError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No one is reading at the chrony socket: chronyd is not running, or its
    /// `refclock SOCK` line names another path. Samples are dropped until it is.
    case chronyNotListening(path: String)
    /// The path does not fit a Unix socket address (108 bytes).
    case socketPathTooLong(path: String)
    /// The segment is there but not ours to write: another user made it with mode 0600.
    case sharedMemoryRefused(unit: Int, SystemError)
    /// A segment under that key exists with another size: not an NTP SHM segment.
    case sharedMemoryMismatch(unit: Int)
    /// Any other failure of a call, with the call's name.
    case system(call: String, SystemError)
    /// The pulses cannot be read: what happened and what to do.
    case pulseSource(String)

    public var description: String {
        switch self {
        case .chronyNotListening(let path):
            "nothing listens at \(path): chronyd is not running, or its refclock SOCK line names another path"
        case .socketPathTooLong(let path):
            "\(path) is too long for a Unix socket address (at most 107 bytes)"
        case .sharedMemoryRefused(let unit, let errno):
            "NTP shared memory unit \(unit) (key 0x\(String(NTPSharedMemory.key(unit: unit), radix: 16))) refuses us (\(errno)): another user (chronyd or ntpd, as root) made it with mode 0600"
        case .sharedMemoryMismatch(let unit):
            "a shared memory segment with NTP unit \(unit)'s key (0x\(String(NTPSharedMemory.key(unit: unit), radix: 16))) exists with another size: something other than an NTP refclock holds it"
        case .system(let call, let errno):
            "\(call) failed: \(errno)"
        case .pulseSource(let message):
            message
        }
    }
}
