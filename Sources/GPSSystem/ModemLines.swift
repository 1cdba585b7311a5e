import CLinuxTiming
import Glibc

/// One of a serial port's modem-status lines, where receivers wire their pulse per second
/// (DCD most often; CTS or RI on some USB adapters).
public enum ModemLine: String, Sendable, CaseIterable {
    /// Data Carrier Detect, pin 1 of a DE-9: where most receivers' pulse goes.
    case dcd
    /// Clear To Send.
    case cts
    /// Ring Indicator (an 8250 UART reports only its falling edge).
    case ri

    var bit: Int32 {
        switch self {
        case .dcd: Int32(gpsfix_tiocm_cd)
        case .cts: Int32(gpsfix_tiocm_cts)
        case .ri: Int32(gpsfix_tiocm_ri)
        }
    }

    /// "DCD".
    public var name: String { rawValue.uppercased() }
}

/// A serial port's modem line, watched through its descriptor (which the port's reader owns:
/// this only asks about it).
public struct ModemLineWatch: Sendable {
    /// The port's descriptor, lent: never closed here.
    public let descriptor: FileDescriptor
    /// The line watched.
    public let line: ModemLine

    /// A watch of `line` through `descriptor`.
    public init(_ descriptor: FileDescriptor, line: ModemLine) {
        self.descriptor = descriptor
        self.line = line
    }

    /// Blocks until the line changes (`TIOCMIWAIT`): true then, false when a
    /// `ThreadInterrupter` cut it short (EINTR given back, so the caller can look at its stop
    /// flag). A driver that cannot tell (a pty; some USB adapters) throws `.invalidArgument`
    /// or `.notATerminal`; a port gone away, `.ioError`.
    public func waitForChange() throws(SystemError) -> Bool {
        if gpsfix_tiocmiwait(descriptor.rawValue, UInt(line.bit)) == 0 { return true }
        let code = errno
        if code == EINTR { return false }
        throw SystemError(rawValue: code)
    }

    /// Whether the line is asserted now (`TIOCMGET`).
    public func isAsserted() throws(SystemError) -> Bool {
        var lines: Int32 = 0
        _ = try retryingInterrupts { gpsfix_tiocmget(descriptor.rawValue, &lines) }
        return lines & line.bit != 0
    }

    /// How many times the line has changed since the port was opened (`TIOCGICOUNT`), so that
    /// two edges inside one wake (a short pulse) are both seen; nil when the driver does not
    /// count.
    public func changes() -> Int? {
        var counts = serial_icounter_struct()
        guard (try? retryingInterrupts({ gpsfix_tiocgicount(descriptor.rawValue, &counts) })) != nil else { return nil }
        switch line {
        case .dcd: return Int(counts.dcd)
        case .cts: return Int(counts.cts)
        case .ri: return Int(counts.rng)
        }
    }
}
