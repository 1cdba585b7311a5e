public import GPSSystem

/// One pulse-per-second edge: when it came by the system clock, as close to the edge as the
/// source could stamp it (the kernel in its interrupt for `/dev/ppsN`; a thread woken by the
/// modem line's change for DCD, CTS or RI).
public struct Pulse: Equatable, Sendable {
    /// The system time of the edge.
    public let time: WallTime
    /// A pulse at `time`.
    public init(time: WallTime) { self.time = time }
}

/// A pulse paired with the second it began: the true time `second` (whole Unix seconds) was
/// `pulse` by the system clock. What chrony's PPS refclock and the NTP segment's PPS unit take.
public struct PulseSample: Equatable, Sendable {
    /// The second the pulse began, as the receiver's NMEA named it: Unix seconds.
    public let second: Int64
    /// The system time of the edge.
    public let pulse: WallTime
    /// When the epoch naming that second began to arrive (system time, Unix seconds): how
    /// late the receiver's NMEA is against its pulse is `arrival - pulse`.
    public let arrival: Double

    /// A pair as the pairing made it (or a test).
    public init(second: Int64, pulse: WallTime, arrival: Double) {
        self.second = second
        self.pulse = pulse
        self.arrival = arrival
    }

    /// True time minus system time at the edge, seconds: exact to the nanosecond.
    public var offset: Double {
        Double(second &- pulse.seconds) - Double(pulse.nanoseconds) / 1e9
    }

    /// How long after the pulse the NMEA naming its second began to arrive, seconds.
    public var nmeaDelay: Double { arrival - pulse.unixSeconds }
}
