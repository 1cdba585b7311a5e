/// A process that has a serial port open: who a refused port would be shared with.
public struct PortHolder: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The process's ID, as `/proc` lists it.
    public let pid: Int32
    /// Its name as the kernel keeps it (`/proc/PID/comm`, at most 15 bytes): "gpsd", "socat".
    /// Any process can set its own, so it is shown escaped (`PeerText`).
    public let name: String

    /// A holder as found in `/proc`: its ID and name, taken as they are.
    public init(pid: Int32, name: String) {
        self.pid = pid
        self.name = name
    }

    /// "gpsd (PID 1234)".
    public var description: String { "\(PeerText.display(name, limit: 32)) (PID \(pid))" }
}
