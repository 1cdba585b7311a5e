public import GPSSources
public import GPSSystem
import Synchronization

/// Pulses from a serial port's modem line (DCD, CTS or RI), as gpsd's "plain PPS" reads them:
/// a thread (`gpsfix-pps`) waits for the line to change (`TIOCMIWAIT`) and stamps the wall
/// clock the moment the wait returns, as close to the edge as user space can (the thread's
/// wake-up is the error: tens of microseconds on an idle machine, more on a busy one, and a
/// USB adapter adds its polling interval). An assert (the line going active) is a pulse.
///
/// The serial source lends the port: `ModemLinePulses` is its `SerialPortWatcher`, watching
/// from each open to each close, so a replugged receiver's pulses are read again. The line's
/// change count (`TIOCGICOUNT`) tells a short pulse whose assert and clear both came before
/// the thread woke, so none is lost; a driver that cannot wait on its lines is said once.
public final class ModemLinePulses: PulseSource, SerialPortWatcher {
    /// The line that carries the pulse.
    public let line: ModemLine
    /// The receiver's port, as named: "/dev/ttyUSB0".
    public let port: String
    /// "DCD of /dev/ttyUSB0".
    public var name: String { "\(line.name) of \(port)" }
    private let interrupter = ThreadInterrupter()
    private let state = Mutex<State>(State())

    private struct State {
        var sink: (@Sendable (PulseEvent) -> Void)?
        var stopping = false
        var running = false
        var told: String?
    }

    /// Pulses on `line` of the receiver at `port`, once its serial source lends the port
    /// (make this the source's `portWatcher` before it starts).
    public init(line: ModemLine, port: String) {
        self.line = line
        self.port = port
    }

    /// Pulses go to `sink` from the next open of the port on (or now, if it is open).
    public func start(_ sink: @escaping @Sendable (PulseEvent) -> Void) throws(PulseSourceError) {
        state.withLock { $0.sink = sink }
    }

    /// No more pulses; the thread, if one runs, ends.
    public func stop() {
        state.withLock { $0.sink = nil }
        portClosing()
    }

    /// Starts the thread that waits on the line of the port just opened.
    public func portOpened(_ descriptor: FileDescriptor, path: String) {
        state.withLock { $0.stopping = false; $0.running = true }
        let watch = ModemLineWatch(descriptor, line: line)
        spawnThread(name: "gpsfix-pps") { [self] in
            interrupter.enter()
            run(watch, path: path)
            interrupter.leave()
            state.withLock { $0.running = false }
        }
    }

    /// Ends the thread (signalling it out of its wait) and returns once it has let go.
    public func portClosing() {
        state.withLock { $0.stopping = true }
        while state.withLock({ $0.running }) {
            interrupter.interrupt()
            Clocks.sleep(for: .milliseconds(2))
        }
    }

    private func tell(_ event: PulseEvent) {
        state.withLock { $0.sink }?(event)
    }

    /// Once per kind of trouble, until a pulse comes.
    private func note(_ line: String) {
        let fresh = state.withLock { state in
            defer { state.told = line }
            return state.told != line
        }
        if fresh { tell(.note(line)) }
    }

    private func run(_ watch: ModemLineWatch, path: String) {
        var asserted = (try? watch.isAsserted()) ?? false
        var changes = watch.changes()
        while !state.withLock({ $0.stopping }) {
            let changed: Bool
            do throws(SystemError) {
                changed = try watch.waitForChange()
            } catch .invalidArgument, .notATerminal {
                note("\(path) cannot wait for its modem lines to change (its driver does not report them): no pulses from \(line.name). A kernel PPS device ('ldattach pps \(path)', then --pps /dev/pps0) may work where this does not")
                return
            } catch {
                // The port is going away: its reader closes it and opens it again.
                note("\(path): \(error) while waiting for \(line.name)")
                return
            }
            let stamp = WallTime.now
            guard changed else { continue }
            let now = (try? watch.isAsserted()) ?? asserted
            let count = watch.changes()
            // Edges since the last wake: 1 normally, 2 when a short pulse rose and fell before
            // the thread woke (then the stamp is late by the pulse's width, still the best there is).
            let edges = count.flatMap { count in changes.map { count &- $0 } } ?? (now == asserted ? 2 : 1)
            let rose = edges >= 2 || (!asserted && edges == 1)
            asserted = now
            changes = count
            if rose {
                state.withLock { $0.told = nil }
                tell(.pulse(Pulse(time: stamp)))
            }
        }
    }
}
