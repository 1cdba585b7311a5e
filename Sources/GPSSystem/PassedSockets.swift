import Glibc

/// The sockets a service manager opened for this process and passed to it: systemd's socket
/// activation (`LISTEN_PID`, `LISTEN_FDS`, `LISTEN_FDNAMES`; descriptors from 3 on), which
/// `systemd-socket-activate` and other inetd-like launchers speak too.
///
/// It states what was passed, nothing more: whether each one is a socket one can listen on is
/// for whoever uses it to find out.
public struct PassedSockets: Equatable, Sendable {
    /// One descriptor the manager passed, with its name.
    public struct Socket: Equatable, Sendable {
        /// The descriptor, open in this process: ``PassedSockets/firstDescriptor`` and up.
        public let descriptor: FileDescriptor
        /// The socket unit's `FileDescriptorName=` (the unit's name unless set), when given.
        public let name: String?
    }

    /// Every socket passed, in the manager's order (that of the unit's `Listen…=` lines); at
    /// least one.
    public let sockets: [Socket]

    /// `SD_LISTEN_FDS_START`: the first descriptor passed; the others follow it in order.
    public static let firstDescriptor = FileDescriptor(rawValue: 3)

    /// The passed descriptors alone, in order: 3, 4, ….
    public var descriptors: [FileDescriptor] { sockets.map(\.descriptor) }

    /// The most descriptors taken from `LISTEN_FDS` (a socket unit passes a handful); a larger
    /// count is refused as malformed.
    public static let maximumCount: Int32 = 1024

    /// What `take` reads from the environment, in this order.
    public static let variables = ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"]

    /// Reads the variables as given. Nil when they pass nothing to the process `processID`
    /// (absent, for another process, or zero descriptors): a process started by a shell may
    /// inherit them from a parent that was itself activated.
    public init?(listenPID: String?, listenFDs: String?, listenFDNames: String?, processID: Int32) throws(PassedSocketsError) {
        guard let listenPID, let listenFDs else { return nil }
        guard let pid = pid_t(listenPID), pid > 0 else { throw .malformed(variable: "LISTEN_PID", value: listenPID) }
        guard pid == processID else { return nil }
        // A count is a list of that many entries: held to `maximumCount`, so that a wrong
        // LISTEN_FDS cannot make this allocate gigabytes before a descriptor is checked.
        guard let count = Int32(listenFDs), count >= 0, count <= Self.maximumCount else {
            throw .malformed(variable: "LISTEN_FDS", value: listenFDs)
        }
        guard count > 0 else { return nil }
        // Names are descriptive only: a list that does not match the count is left out rather
        // than refusing sockets that work.
        let names = listenFDNames.map { $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init) }
        let matched = names?.count == Int(count) ? names : nil
        sockets = (0..<count).map { index in
            Socket(descriptor: FileDescriptor(rawValue: Self.firstDescriptor.rawValue + index), name: matched.map { $0[Int(index)] }.flatMap { $0.isEmpty ? nil : $0 })
        }
    }

    /// What the environment passes to this process, as `sd_listen_fds(1)` takes it: the
    /// variables are removed (a child must not think them its own) and each descriptor is
    /// marked close-on-exec. The variables are removed whatever they said.
    ///
    /// Call it before any other thread may read the environment: `unsetenv` is not safe
    /// beside a concurrent `getenv`.
    public static func take() throws(PassedSocketsError) -> PassedSockets? {
        let values = variables.map { getenv($0).map { String(cString: $0) } }
        defer { for name in variables { unsetenv(name) } }
        guard let passed = try PassedSockets(listenPID: values[0], listenFDs: values[1], listenFDNames: values[2],
                                             processID: getpid()) else { return nil }
        for socket in passed.sockets {
            // Close-on-exec, and a descriptor that is not open here was promised but not passed.
            do throws(SystemError) {
                try socket.descriptor.setCloseOnExec()
            } catch {
                throw .notOpen(descriptor: socket.descriptor)
            }
        }
        return passed
    }
}

/// Why the passed sockets could not be taken.
public enum PassedSocketsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A variable that must hold a number does not.
    case malformed(variable: String, value: String)
    /// `LISTEN_FDS` counts a descriptor that this process does not have open.
    case notOpen(descriptor: FileDescriptor)

    public var description: String {
        switch self {
        case .malformed(let variable, let value):
            variable == "LISTEN_FDS"
                ? "the service manager's LISTEN_FDS='\(value)' is not a count of descriptors from 0 to \(PassedSockets.maximumCount)"
                : "the service manager's \(variable)='\(value)' is not a number"
        case .notOpen(let descriptor):
            "LISTEN_FDS promises descriptor \(descriptor.rawValue), but it is not open in this process"
        }
    }
}
