import GPSSystem

/// The line speeds termios knows by name, as rates: the table is GPSSystem's
/// (`SerialTerminal.Speed`), the one layer that speaks termios.
enum BaudRate {
    /// The termios speed for `rate` bits per second; nil for a rate termios has no name for.
    /// The corresponding C constants are `B4800`, `B9600` … `B4000000`.
    static func speed(for rate: Int) -> SerialTerminal.Speed? {
        SerialTerminal.Speed(rate: rate)
    }

    /// The rate in bits per second that `speed` names; nil for `B0` or an unknown value.
    static func rate(for speed: SerialTerminal.Speed) -> Int? {
        speed.rate
    }
}
