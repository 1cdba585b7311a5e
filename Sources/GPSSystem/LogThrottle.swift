import Synchronization

/// Holds log lines that a peer decides to cause (a refused connection, a reset, a vehicle
/// gone offline) to a fixed rate, so that nobody on the network decides how much gpsfix
/// logs: per kind, the first `burst` lines of each `window` are written, the rest counted,
/// and once the window has passed the count is told in one line ("312 connections refused
/// in the last minute"). Lines gpsfix decides to write itself are not its business.
///
/// The summary comes with the next line of its kind or from `due()`, which a loop that
/// already wakes now and then (the server's, an MQTT client's) calls, so a count is told
/// within a window or so of the last event even if no more come. Bounded: at most
/// `maxKinds` kinds are tracked (kinds are the caller's fixed words, never a peer's text).
public final class LogThrottle: Sendable {
    /// How long each kind's window lasts, one minute unless a test says otherwise (at least a
    /// millisecond): its held-back count is told once it has passed.
    public let window: Duration
    /// How many lines of one kind are written in full per window (0 holds back every one).
    public let burst: Int
    /// The most kinds tracked at once: an event of a kind beyond them is neither written nor
    /// counted. Kinds are the caller's fixed words, so the limit is never reached by design.
    public static let maxKinds = 64
    private let now: @Sendable () -> Double
    /// `window` in seconds, as `now` reads the clock.
    private let windowSeconds: Double

    private struct Kind {
        var windowStart: Double
        var written = 0
        var suppressed = 0
        /// How the count is told: "connections refused", with the number before it.
        var summary: String
    }
    private let kinds = Mutex<[String: Kind]>([:])

    /// `window` one minute unless a test says otherwise (a millisecond at least); `burst`
    /// lines of a kind are written in full per window; `now` reads the monotonic clock in
    /// seconds, or a test's.
    public init(window: Duration = .seconds(60), burst: Int = 5,
                now: @escaping @Sendable () -> Double = { Clocks.monotonicSeconds }) {
        self.window = max(window, .milliseconds(1))
        windowSeconds = self.window.inSeconds
        self.burst = max(burst, 0)
        self.now = now
    }

    /// The lines to write now for one event of `kind`: `line` itself while under the burst,
    /// nothing past it, and before either the count held back in a window that has ended.
    /// `summary` names what is counted, in the plural ("connections refused").
    public func admit(_ kind: String, summary: String, line: () -> String) -> [String] {
        let t = now()
        var out: [String] = []
        let write = kinds.withLock { kinds -> Bool in
            if var k = kinds[kind] {
                if t - k.windowStart >= windowSeconds {
                    if let told = tell(k) { out.append(told) }
                    k = Kind(windowStart: t, summary: summary)
                }
                let under = k.written < burst
                if under { k.written += 1 } else { k.suppressed += 1 }
                kinds[kind] = k
                return under
            }
            guard kinds.count < Self.maxKinds else { return false }
            kinds[kind] = Kind(windowStart: t, written: burst > 0 ? 1 : 0,
                               suppressed: burst > 0 ? 0 : 1, summary: summary)
            return burst > 0
        }
        if write { out.append(line()) }
        return out
    }

    /// Counts held back in windows that have ended, told now (and forgotten).
    public func due() -> [String] {
        let t = now()
        return kinds.withLock { kinds in
            var out: [String] = []
            for (name, k) in kinds where t - k.windowStart >= windowSeconds {
                if let told = tell(k) { out.append(told) }
                kinds[name] = nil
            }
            return out.sorted()
        }
    }

    /// Every count still held, told whatever the window (at a stop).
    public func flush() -> [String] {
        kinds.withLock { kinds in
            let out = kinds.values.compactMap { tell($0) }.sorted()
            kinds.removeAll()
            return out
        }
    }

    private func tell(_ k: Kind) -> String? {
        guard k.suppressed > 0 else { return nil }
        let span = window == .seconds(60) ? "minute" : "\(Int(windowSeconds.rounded(.up))) s"
        return "\(k.suppressed + k.written) \(k.summary) in the last \(span) (\(k.suppressed) not logged one by one)"
    }
}
