/// Where pulses come from: a kernel PPS device (`KernelPulses`) or a serial port's modem line
/// (`ModemLinePulses`). Each owns a thread that waits for edges and hands each to `sink` as it
/// is stamped; `TimeFeed` and `gpsfix timing` pair them with the receiver's epochs.
public protocol PulseSource: AnyObject, Sendable {
    /// What it reads, for a line that says so: "/dev/pps0", "DCD of /dev/ttyUSB0".
    var name: String { get }
    /// Starts waiting for edges. Each pulse, and each change in what can be read (a device
    /// gone, back, refusing us), goes to `sink` on the source's thread. Throws what stops it
    /// from starting at all, with what to do.
    func start(_ sink: @escaping @Sendable (PulseEvent) -> Void) throws(PulseSourceError)
    /// Stops waiting; returns once its thread has let go of the device.
    func stop()
    /// Whether it can be read, before anything is said to be running: throws what `start`
    /// would (a device missing, refusing us). Opens nothing that it keeps.
    func check() throws(PulseSourceError)
}

extension PulseSource {
    /// Nothing to look at before the start.
    public func check() throws(PulseSourceError) {}
}

/// What a pulse source tells.
public enum PulseEvent: Equatable, Sendable {
    /// An edge, stamped.
    case pulse(Pulse)
    /// Something changed that a person should hear of, once: "/dev/pps0 is gone (No such
    /// device); trying again each second".
    case note(String)
}

/// Why a pulse source cannot start.
public struct PulseSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What happened and what to do.
    public let description: String
    /// An error that says `description`.
    public init(_ description: String) { self.description = description }
}
