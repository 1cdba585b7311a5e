import GPSSystem
import Synchronization

/// Pulses from a kernel PPS device (`/dev/ppsN`), stamped by the kernel at the edge.
///
/// Its thread (`gpsfix-pps`) waits in `PPS_FETCH` a quarter of a second at a time, so a stop
/// is heard within that, and hands each new assert edge over once (a device that also stamps
/// clear edges wakes it twice a second with the same assert). A device that goes away is
/// opened again each second, and said once.
public final class KernelPulses: PulseSource {
    /// The device: "/dev/pps0".
    public let path: String
    /// The device's path.
    public var name: String { path }
    private let state = Mutex<(stopping: Bool, running: Bool)>((false, false))
    static let wait = Duration.milliseconds(250)

    /// Pulses from the device at `path`, opened at `start`.
    public init(path: String) { self.path = path }

    public func start(_ sink: @escaping @Sendable (PulseEvent) -> Void) throws(PulseSourceError) {
        let device = try Self.open(path)
        state.withLock { $0 = (false, true) }
        spawnThread(name: "gpsfix-pps") { [self] in
            run(device, sink)
            state.withLock { $0.running = false }
        }
    }

    /// Opens the device, readies it and lets it go: a missing device, one that refuses us or
    /// cannot stamp assert edges is said before serving begins.
    public func check() throws(PulseSourceError) {
        try Self.open(path).close()
    }

    public func stop() {
        state.withLock { $0.stopping = true }
        while state.withLock({ $0.running }) { Clocks.sleep(for: .milliseconds(5)) }
    }

    private var stopping: Bool { state.withLock { $0.stopping } }

    private func run(_ first: PPSDevice, _ sink: @Sendable (PulseEvent) -> Void) {
        var device: PPSDevice? = first
        var lastSequence: UInt32?
        var waited = 0
        while !stopping {
            guard let open = device else {
                // Each second, in quarters, so that a stop is heard as quickly as in a fetch.
                Clocks.sleep(for: Self.wait)
                waited += 1
                guard waited % 4 == 0 else { continue }
                if let again = try? Self.open(path) {
                    device = again
                    lastSequence = nil
                    sink(.note("\(path) is back: reading its pulses again"))
                }
                continue
            }
            do throws(SystemError) {
                guard let edge = try open.nextAssert(timeout: Self.wait), edge.sequence != lastSequence else { continue }
                lastSequence = edge.sequence
                sink(.pulse(Pulse(time: edge.time)))
            } catch {
                open.close()
                device = nil
                sink(.note("\(path) failed (\(error)); opening it again each second"))
            }
        }
        device?.close()
    }

    /// Opens `path` and readies it to stamp assert edges, or says why not and what to do.
    static func open(_ path: String) throws(PulseSourceError) -> PPSDevice {
        let device: PPSDevice
        do {
            device = try PPSDevice.open(path)
        } catch .noSuchFile {
            throw PulseSourceError("\(path) does not exist: load the PPS client (a pps-gpio overlay, 'ldattach pps /dev/ttyS0' for a serial port's DCD) or name the device that does (ls /sys/class/pps)")
        } catch .permissionDenied {
            throw PulseSourceError("\(path): permission denied: run gpsfix in a group that may read it (the udev rule in udev/ gives PPS devices to 'dialout') or as root")
        } catch {
            throw PulseSourceError("\(path) cannot be opened: \(error)")
        }
        var capabilities = PPSDevice.Capabilities()
        do throws(SystemError) {
            capabilities = try device.capabilities()
            if capabilities.contains(.captureAssert) { try device.captureAssertEdges() }
        } catch .notATerminal {
            device.close()
            throw PulseSourceError("\(path) is not a PPS device (no PPS_GETCAP): name /dev/ppsN")
        } catch .notPermitted {
            device.close()
            throw PulseSourceError("\(path) must be told to stamp assert edges, which needs CAP_SYS_TIME: run gpsfix as root or with AmbientCapabilities=CAP_SYS_TIME, or let chronyd read \(path) itself ('refclock PPS \(path) lock NMEA')")
        } catch {
            device.close()
            throw PulseSourceError("\(path): \(error)")
        }
        guard capabilities.contains(.captureAssert) else {
            device.close()
            throw PulseSourceError("\(path) cannot stamp assert edges: it is not a PPS source gpsfix can use")
        }
        return device
    }
}
