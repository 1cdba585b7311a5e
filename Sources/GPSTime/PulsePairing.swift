import GPSSystem

/// Which second a pulse began, from the receiver's NMEA: pure, so every rule is tested with
/// times a test chooses, and the same for every pulse source.
///
/// The rule (`Rule.after`, gpsd's and most receivers'): a pulse begins the second that the
/// next whole-second epoch names, when that epoch starts to arrive within `window` after the
/// pulse. Some receivers announce a second before its pulse (`Rule.before`): then the
/// whole-second epoch that arrived within `window` before the pulse names it. Either way a
/// pair is judged when an epoch arrives, on the source's thread.
///
/// A pulse is discarded, and counted, when:
/// - the epoch has no fix (2D or better) or no date: a receiver without a fix sends no pulse
///   time, its clock may be a guess (`noFix`);
/// - no pulse came within the window, or the pulse was already paired (`missingPulse`);
/// - two pulses came less than `minimumInterval` apart before their epoch (a doubled edge,
///   noise on the line: which was the pulse? `doubled`); an edge that comes after a pulse
///   was paired is dropped alone;
/// - its second disagrees with the pulse before it: the seconds named must step as the pulses
///   do, one a second (`disagreed`). A pair is sent only when it agrees with the last one
///   sent, or, after a disagreement or at the start, with the pair before it: one wrong second
///   costs one sample, and a stepped system clock is followed after two pairs.
public struct PulsePairing: Sendable {
    /// Which epoch names a pulse's second.
    public enum Rule: String, Sendable, CaseIterable {
        /// The whole-second epoch that follows the pulse (the usual).
        case after
        /// The whole-second epoch that came before the pulse.
        case before
    }

    /// What was decided, pulse by pulse.
    public struct Counts: Equatable, Sendable {
        /// Pulses paired and sent.
        public var paired = 0
        /// Pulses whose epoch had no fix or no date.
        public var noFix = 0
        /// Whole-second epochs with no pulse in the window before (or after) them.
        public var missingPulse = 0
        /// Pulses dropped for coming too soon after another.
        public var doubled = 0
        /// Pairs whose second did not step with the pulses.
        public var disagreed = 0
        /// Pairs held back at the start, waiting for a second to agree with.
        public var waiting = 0
        /// Every pair or epoch not sent.
        public var rejected: Int { noFix + missingPulse + doubled + disagreed }
        /// None of anything yet.
        public init() {}
    }

    /// Which epoch names a pulse's second.
    public let rule: Rule
    /// How far apart a pulse and its epoch's first byte may be, seconds (under a second, so
    /// that no epoch can reach two pulses).
    public let window: Double
    /// Pulses closer than this, seconds, are one doubled.
    public let minimumInterval: Double
    /// How far the interval between two pulses may stray from whole seconds, seconds: a
    /// system clock being slewed drifts by at most 0.5 ms a second.
    public let tolerance: Double
    /// What was decided so far.
    public private(set) var counts = Counts()

    private var recent: [WallTime] = []
    private var used: WallTime?
    /// A pulse followed too soon by another: counted as doubled, never paired.
    private var spoiled: WallTime?
    private var anchor: PulseSample?
    private var candidate: PulseSample?
    private var lastEpoch: (second: Int64?, arrival: Double)?
    /// Pulses kept: the last few are all a pairing looks at.
    public static let pulsesKept = 4

    /// A pairing by `rule`, with the bounds above (seconds).
    public init(rule: Rule = .after, window: Double = 0.99, minimumInterval: Double = 0.9, tolerance: Double = 0.01) {
        self.rule = rule
        self.window = window
        self.minimumInterval = minimumInterval
        self.tolerance = tolerance
    }

    /// An edge. One that follows the last by less than `minimumInterval` makes both doubtful:
    /// the later is dropped and the earlier no longer pairs.
    public mutating func record(_ pulse: Pulse) {
        if let last = recent.last, pulse.time.seconds(since: last) < minimumInterval {
            if pulse.time > last {
                counts.doubled += 1
                spoiled = last
            }
            return
        }
        recent.append(pulse.time)
        if recent.count > Self.pulsesKept { recent.removeFirst(recent.count - Self.pulsesKept) }
    }

    /// A whole-second epoch of the receiver's began to arrive at `arrival` (system time, Unix
    /// seconds), naming `second` (Unix seconds); `usable` is false when it had no fix or no
    /// date (its pulse, if any, is then used up and counted, never sent). The sample to send,
    /// if a pulse pairs with it.
    public mutating func epoch(second: Int64?, usable: Bool, arrival: Double) -> PulseSample? {
        defer { if second != nil { lastEpoch = (usable ? second : nil, arrival) } }
        switch rule {
        case .after:
            guard let second else { return nil }
            guard let pulse = recent.last(where: { $0.unixSeconds < arrival }),
                  arrival - pulse.unixSeconds < window, pulse != used else {
                counts.missingPulse += 1
                return nil
            }
            used = pulse
            // Counted already, as doubled.
            guard pulse != spoiled else { return nil }
            guard usable else { counts.noFix += 1; return nil }
            return judge(PulseSample(second: second, pulse: pulse, arrival: arrival))
        case .before:
            // The pulse between the last whole-second epoch and this one began the second
            // that epoch named.
            guard let previous = lastEpoch else { return nil }
            guard let pulse = recent.last(where: { $0.unixSeconds > previous.arrival && $0.unixSeconds < arrival }),
                  pulse.unixSeconds - previous.arrival < window, pulse != used else {
                if second != nil { counts.missingPulse += 1 }
                return nil
            }
            used = pulse
            guard pulse != spoiled else { return nil }
            guard let named = previous.second else { counts.noFix += 1; return nil }
            return judge(PulseSample(second: named, pulse: pulse, arrival: previous.arrival))
        }
    }

    private mutating func judge(_ pair: PulseSample) -> PulseSample? {
        if let anchor, pair.pulse.seconds(since: anchor.pulse) > 64 { self.anchor = nil }
        if let anchor {
            if agrees(pair, anchor) { return accept(pair) }
            if let candidate, agrees(pair, candidate) { return accept(pair) }
            counts.disagreed += 1
            candidate = pair
            return nil
        }
        if let candidate, agrees(pair, candidate) { return accept(pair) }
        counts.waiting += 1
        candidate = pair
        return nil
    }

    private mutating func accept(_ pair: PulseSample) -> PulseSample {
        anchor = pair
        candidate = nil
        counts.paired += 1
        return pair
    }

    /// The seconds named step as the pulses do.
    private func agrees(_ pair: PulseSample, _ earlier: PulseSample) -> Bool {
        let interval = pair.pulse.seconds(since: earlier.pulse)
        guard interval > 0, interval < 64 else { return false }
        let steps = interval.rounded()
        return abs(interval - steps) <= tolerance && pair.second &- earlier.second == Int64(steps)
    }
}
