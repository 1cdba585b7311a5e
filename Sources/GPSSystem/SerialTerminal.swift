import Glibc

/// The terminal settings of a serial port (termios) and its exclusive mode, through a
/// descriptor it borrows: the owner of the port opens and closes it.
public struct SerialTerminal {
    /// The tty's descriptor, borrowed.
    public let descriptor: FileDescriptor

    /// Fails with `SystemError.notATerminal` for a descriptor that is not a tty.
    public init(_ descriptor: FileDescriptor) throws(SystemError) {
        guard descriptor.isTerminal else { throw .notATerminal }
        self.descriptor = descriptor
    }

    /// A line speed termios knows by name (`B9600`…): Linux's classic interface takes only
    /// these, so a rate between two of them cannot be set.
    public struct Speed: RawRepresentable, Hashable, Sendable {
        /// The `speed_t` bits.
        public let rawValue: UInt32
        /// The speed of the `speed_t` bits `rawValue`.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// The speed for `rate` bits per second; nil for a rate termios has no name for.
        public init?(rate: Int) {
            guard let speed = Self.table.first(where: { $0.rate == rate })?.speed else { return nil }
            rawValue = speed
        }

        /// Its rate in bits per second; nil for `B0` or an unknown value.
        public var rate: Int? { Self.table.first { $0.speed == rawValue }?.rate }

        /// Every rate termios names, slowest first.
        public static var rates: [Int] { table.map(\.rate) }

        private static let table: [(rate: Int, speed: speed_t)] = [
            (50, speed_t(B50)), (75, speed_t(B75)), (110, speed_t(B110)), (134, speed_t(B134)), (150, speed_t(B150)), (200, speed_t(B200)), (300, speed_t(B300)),
            (600, speed_t(B600)), (1200, speed_t(B1200)), (1800, speed_t(B1800)), (2400, speed_t(B2400)), (4800, speed_t(B4800)), (9600, speed_t(B9600)),
            (19200, speed_t(B19200)), (38400, speed_t(B38400)), (57600, speed_t(B57600)), (115_200, speed_t(B115200)),
            (230_400, speed_t(B230400)), (460_800, speed_t(B460800)), (500_000, speed_t(B500000)), (576_000, speed_t(B576000)),
            (921_600, speed_t(B921600)), (1_000_000, speed_t(B1000000)), (1_152_000, speed_t(B1152000)), (1_500_000, speed_t(B1500000)),
            (2_000_000, speed_t(B2000000)), (2_500_000, speed_t(B2500000)), (3_000_000, speed_t(B3000000)),
            (3_500_000, speed_t(B3500000)), (4_000_000, speed_t(B4000000)),
        ]
    }

    /// Raw 8N1, no flow control, modem lines ignored, reads complete at one byte (VMIN 1,
    /// VTIME 0: with VMIN 0 a live, quiet port reads 0 bytes, which looks like a hang-up;
    /// VMIN 1 leaves 0 to mean exactly that). The speed is left as it was.
    public func makeRaw8N1() throws(SystemError) {
        var settings = try attributes()
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        settings.c_cflag &= ~tcflag_t(CSTOPB)
        settings.c_cflag &= ~tcflag_t(CRTSCTS)
        settings.c_iflag &= ~tcflag_t(IXON | IXOFF | IXANY)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        try setAttributes(settings)
    }

    /// Sets the input and output speed.
    public func setSpeed(_ speed: Speed) throws(SystemError) {
        var settings = try attributes()
        cfsetispeed(&settings, speed.rawValue)
        cfsetospeed(&settings, speed.rawValue)
        try setAttributes(settings)
    }

    /// The input speed it is set to; nil when the settings cannot be read.
    public var inputSpeed: Speed? {
        guard var settings = try? attributes() else { return nil }
        return Speed(rawValue: cfgetispeed(&settings))
    }

    /// Discards what arrived and was not read (at a speed just left).
    public func discardInput() throws(SystemError) {
        let fd = descriptor.rawValue
        _ = try retryingInterrupts { tcflush(fd, TCIFLUSH) }
    }

    /// Whether the tty is in exclusive mode now (TIOCGEXCL); nil when that cannot be read
    /// (kernels before 3.8 lack TIOCGEXCL).
    public var isExclusive: Bool? {
        var held: Int32 = 0
        let fd = descriptor.rawValue
        guard (try? retryingInterrupts { ioctl(fd, Self.getExclusive, &held) }) != nil else { return nil }
        return held != 0
    }

    /// Sets (TIOCEXCL: the kernel refuses further opens with EBUSY, except root's) or clears
    /// (TIOCNXCL) the exclusive mode. It belongs to the tty, not to this descriptor.
    public func setExclusive(_ on: Bool) throws(SystemError) {
        let fd = descriptor.rawValue
        _ = try retryingInterrupts { ioctl(fd, UInt(on ? TIOCEXCL : TIOCNXCL)) }
    }

    /// Reads whether the tty is in exclusive mode: `_IOR('T', 0x40, int)`, which C builds
    /// with a macro Swift cannot import. The corresponding C constant is `TIOCGEXCL`.
    static let getExclusive: UInt = 0x8004_5440

    private func attributes() throws(SystemError) -> termios {
        var settings = termios()
        let fd = descriptor.rawValue
        _ = try retryingInterrupts { tcgetattr(fd, &settings) }
        return settings
    }

    private func setAttributes(_ settings: termios) throws(SystemError) {
        var settings = settings
        let fd = descriptor.rawValue
        _ = try retryingInterrupts { tcsetattr(fd, TCSANOW, &settings) }
    }
}
