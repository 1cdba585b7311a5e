import GPSLocation
import GPSSources
import GPSSystem
import GPSTime

/// `--pps SOURCE` and `--pps-epoch after|before`, for `serve` and `timing`: where the
/// receiver's pulses come from, and which of its epochs names each pulse's second.
struct PulseOptions {
    static let options: [OptionSpec] = [
        .value("--pps", "SOURCE", "Read the receiver's pulse per second: a kernel PPS device (/dev/pps0), auto (the one sysfs links to the first source's port), or a serial source's modem line (dcd, cts, ri)."),
        .value("--pps-epoch", "after|before", "Which whole-second epoch names a pulse's second: the one after it (the default, as most receivers send) or the one before it."),
    ]

    enum Origin: Equatable {
        case device(String)
        case auto
        case modemLine(String)
    }

    let origin: Origin
    let rule: PulsePairing.Rule

    /// nil without `--pps`.
    init?(_ args: ParsedArguments) throws(UsageError) {
        guard let text = args["--pps"] else {
            if args["--pps-epoch"] != nil { throw UsageError(message: "--pps-epoch says how --pps's pulses pair: add --pps") }
            return nil
        }
        switch text {
        case "auto": origin = .auto
        case "dcd", "cts", "ri": origin = .modemLine(text)
        case _ where text.hasPrefix("/"): origin = .device(text)
        default:
            throw UsageError(message: "--pps takes a PPS device (/dev/pps0), auto, or a modem line (dcd, cts, ri), not '\(text)'")
        }
        if case .modemLine(let line) = origin, let other = ["--nmea-tcp", "--gpsd", "--replay", "--mqtt", "--mqtt-in"].first(where: { args[$0] != nil }) {
            throw UsageError(message: "--pps \(line) reads a serial port's modem line: the first source must be a receiver on a serial port (--device), not \(other)")
        }
        let epoch = args["--pps-epoch"] ?? "after"
        guard let rule = PulsePairing.Rule(rawValue: epoch) else {
            throw UsageError(message: "--pps-epoch takes after or before, not '\(epoch)'")
        }
        self.rule = rule
    }

    /// The pulse source for `manager`'s receiver, checked (a device that cannot be read is
    /// said now, before serving or timing begins), with the pairing rule.
    func outlets(for manager: any LocationManagerInterface, chrony: ChronySocket? = nil,
                 sharedMemory: NTPSharedMemory? = nil) throws(TimeFeedError) -> PulseOutlets {
        let source = try source(for: manager)
        do throws(PulseSourceError) { try source.check() } catch { throw .pulseSource(error.description) }
        return PulseOutlets(source: source, rule: rule, chrony: chrony, sharedMemory: sharedMemory)
    }

    /// The pulse source for the receiver `manager` reads.
    func source(for manager: any LocationManagerInterface) throws(TimeFeedError) -> any PulseSource {
        let port = manager.sourceDescription
        switch origin {
        case .device(let path):
            return KernelPulses(path: path)
        case .auto:
            guard port.hasPrefix("/dev/") else {
                throw .pulseSource("--pps auto looks for the PPS device of the receiver's serial port, and \(port) is not one: name the device (--pps /dev/pps0)")
            }
            guard let path = PPSDiscovery.device(for: port) else {
                throw .pulseSource("--pps auto found no PPS device linked to \(port) in /sys/class/pps: attach one ('ldattach pps \(port)', a pps-gpio overlay) or name it (--pps /dev/pps0)")
            }
            return KernelPulses(path: path)
        case .modemLine(let name):
            // The reader holds the port exclusively: the pulses are read through its descriptor.
            guard let serial = manager as? SerialNMEAManager, let line = ModemLine(rawValue: name) else {
                throw .pulseSource("--pps \(name) reads a serial port's modem line: \(port) is not a receiver on a serial port")
            }
            let pulses = ModemLinePulses(line: line, port: port)
            serial.portWatcher = pulses
            return pulses
        }
    }
}
