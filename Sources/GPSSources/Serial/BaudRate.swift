import Glibc

/// The line speeds termios knows by name, and the bits (`speed_t`) that name each.
///
/// Linux's classic interface takes only these values: a rate between two of them cannot be
/// set through `cfsetispeed`.
enum BaudRate {
    /// The termios speed for `rate` bits per second; nil for a rate termios has no name for.
    /// The corresponding C constants are `B4800`, `B9600` … `B4000000`.
    static func speed(for rate: Int) -> speed_t? {
        table.first { $0.rate == rate }?.speed
    }

    /// The rate in bits per second that `speed` names; nil for `B0` or an unknown value.
    static func rate(for speed: speed_t) -> Int? {
        table.first { $0.speed == speed }?.rate
    }

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
