import Glibc

/// The line speeds termios knows by name, and the bits (`speed_t`) that name each.
///
/// Linux's classic interface takes only these values: a rate between two of them cannot be
/// set through `cfsetispeed`.
enum BaudRate {
    /// The termios speed for `rate` bits per second; nil for a rate termios has no name for.
    /// The corresponding C constants are `B4800`, `B9600` … `B4000000`.
    static func speed(for rate: Int) -> speed_t? {
        table.first { $0.rate == rate }.map { speed_t($0.speed) }
    }

    /// The rate in bits per second that `speed` names; nil for `B0` or an unknown value.
    static func rate(for speed: speed_t) -> Int? {
        table.first { speed_t($0.speed) == speed }?.rate
    }

    private static let table: [(rate: Int, speed: Int32)] = [
        (50, B50), (75, B75), (110, B110), (134, B134), (150, B150), (200, B200), (300, B300),
        (600, B600), (1200, B1200), (1800, B1800), (2400, B2400), (4800, B4800), (9600, B9600),
        (19200, B19200), (38400, B38400), (57600, B57600), (115_200, B115200),
        (230_400, B230400), (460_800, B460800), (500_000, B500000), (576_000, B576000),
        (921_600, B921600), (1_000_000, B1000000), (1_152_000, B1152000), (1_500_000, B1500000),
        (2_000_000, B2000000), (2_500_000, B2500000), (3_000_000, B3000000),
        (3_500_000, B3500000), (4_000_000, B4000000),
    ]
}
