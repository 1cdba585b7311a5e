import Synchronization

/// Finding the rate a receiver sends at, by listening.
///
/// Each rate is tried in turn until one yields a sentence whose checksum is right. A rate
/// gets a short window, counted from the first byte that arrives at it (a receiver is quiet
/// between its bursts, and silence says nothing about the rate): the time two of the longest
/// standard sentences take at that rate, plus a fixed margin for USB latency and scheduling.
/// Listening never writes: gpsfix does not probe receivers.
public enum Autobaud {
    /// The rates receivers use, in the order they are tried (after the last one that worked).
    public static let rates: [Int] = [4800, 9600, 38400, 57600, 115_200, 230_400, 460_800, 921_600]

    /// The rate that last yielded NMEA in this process; the next hunt tries it first.
    public static var lastWorkingRate: Int? {
        let rate = lastWorking.load(ordering: .relaxed)
        return rate == 0 ? nil : rate
    }

    private static let lastWorking = Atomic<Int>(0)

    static func remember(_ rate: Int) { lastWorking.store(rate, ordering: .relaxed) }

    /// Forgets the last working rate (for tests that need a hunt from the start).
    static func forget() { lastWorking.store(0, ordering: .relaxed) }

    /// The rates in the order to try them: `preferred` first, then the rest as listed.
    static func order(preferring preferred: Int?) -> [Int] {
        guard let preferred, rates.contains(preferred) else { return rates }
        return [preferred] + rates.filter { $0 != preferred }
    }

    /// NMEA 0183's longest sentence, `$` to LF.
    static let longestSentence = 82
    /// Added to every window: USB serial adapters hold bytes back for up to 16 ms (FTDI's
    /// latency timer), and the reader may wait its turn for a core.
    static let margin = 0.03

    /// Seconds to listen at `rate` after its first byte: two longest sentences at 10 bits a
    /// byte (8N1), plus `margin`. Within that, a receiver at this rate has sent at least one
    /// whole sentence, whichever byte the listening began at.
    static func window(for rate: Int) -> Double {
        Double(2 * longestSentence * 10) / Double(rate) + margin
    }

    /// Full passes over the rates, with bytes at every one and a sentence at none, before the
    /// hunt gives up (a receiver switched to a binary protocol, or not a GPS at all). More
    /// than one: a window that began on the tail of a burst can miss the right rate once.
    static let rounds = 3
}

/// One hunt in progress, driven by the reader as bytes and time pass.
struct BaudHunt {
    let order: [Int]
    private(set) var index = 0
    private(set) var round = 0
    /// When the first byte at the current rate arrived; nil while the port is quiet.
    private(set) var listeningSince: Double?

    init(preferring preferred: Int?) {
        order = Autobaud.order(preferring: preferred)
    }

    var rate: Int { order[index] }

    /// When the current rate's window closes; nil until a byte has arrived at it.
    var deadline: Double? { listeningSince.map { $0 + Autobaud.window(for: rate) } }

    mutating func heard(at time: Double) {
        if listeningSince == nil { listeningSince = time }
    }

    /// Moves to the next rate; false when every rate has had its rounds.
    mutating func advance() -> Bool {
        listeningSince = nil
        index += 1
        if index == order.count {
            index = 0
            round += 1
        }
        return round < Autobaud.rounds
    }
}
