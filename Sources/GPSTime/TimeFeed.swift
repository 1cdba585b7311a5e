public import GPSLocation
public import NMEA
import Synchronization

/// The first source's fixes as time samples for an NTP server: chronyd's `refclock SOCK`
/// socket, the NTP shared memory segment (`refclock SHM`, or ntpd's), or both. The first
/// source only: a clock is set from one reference, and two receivers' samples in one refclock
/// would be one noisy source. A live receiver's fixes only: a fix without an `arrival` (a
/// replay, gpsd's fixes) has no time of arrival to hold against its own, and is said once.
///
/// Its troubles are told through `log` (no "gpsfix: " before them: the one who writes adds
/// that), each change once: a chronyd that stays away is not told every second.
public final class TimeFeed: LocationFeed {
    /// Where samples go over chrony's socket, if anywhere.
    public let chrony: ChronySocket?
    /// Where samples are stored in shared memory, if anywhere.
    public let sharedMemory: NTPSharedMemory?
    /// The receiver's pulses and where their samples go, if it has them.
    public let pulses: PulseOutlets?
    private let delay: Duration
    private let refusedAdvice: String
    private let log: @Sendable (String) -> Void
    private let observe: (@Sendable (TimingEvent) -> Void)?
    private let told = Mutex<Told>(Told())
    /// The pairing, fed pulses by the pulse source's thread and epochs by the source's.
    private let pairing: Mutex<PulsePairing>

    private struct Told {
        var notLive = false
        var samples = SocketNews()
        var pulses = SocketNews()
        var rejections = PulsePairing.Counts()
    }

    /// One chrony socket's news, told once per change: a trouble, then sending again.
    private struct SocketNews {
        var trouble: String?
        var sending = false

        /// The line to say after an attempt that met `trouble` (nil: it went), if any.
        mutating func after(_ trouble: String?, sending line: String) -> String? {
            if let trouble {
                defer { self.trouble = trouble; sending = false }
                return self.trouble == trouble ? nil : "chrony: \(trouble)"
            }
            defer { self.trouble = nil; sending = true }
            return sending ? nil : line
        }
    }

    /// A feed to `chrony`, `sharedMemory`, `pulses`' outlets, or none of them with only an
    /// `observe` (`gpsfix timing`). `delay` is how long after the time they carry the receiver
    /// sends its sentences (its fixed output delay), added to its time; `refusedAdvice`
    /// follows a chrony socket that refuses us (the default says what to do in chrony's
    /// configuration). `observe` hears every sample made, on the source's thread.
    public init(chrony: ChronySocket?, sharedMemory: NTPSharedMemory?, pulses: PulseOutlets? = nil, delay: Duration = .zero,
                refusedAdvice: String = TimeFeed.chronySocketAdvice, log: @escaping @Sendable (String) -> Void,
                observe: (@Sendable (TimingEvent) -> Void)? = nil) {
        precondition(chrony != nil || sharedMemory != nil || pulses != nil || observe != nil, "a time feed goes somewhere")
        self.chrony = chrony
        self.sharedMemory = sharedMemory
        self.pulses = pulses
        self.delay = delay
        self.refusedAdvice = refusedAdvice
        self.log = log
        self.observe = observe
        pairing = Mutex(PulsePairing(rule: pulses?.rule ?? .after))
    }

    /// Where the samples go, for a line that says so: "chronyd at PATH and NTP shared memory
    /// unit 2".
    public var destinations: String {
        let names = [chrony.map { "chronyd at \($0.path)" }, sharedMemory.map { "NTP shared memory unit \($0.unit)" }]
        return names.compactMap { $0 }.joined(separator: " and ")
    }

    /// What was decided of the pulses so far.
    public var pulseCounts: PulsePairing.Counts { pairing.withLock { $0.counts } }

    /// Starts the pulse source, if any: a device that cannot be read fails the start.
    public func start(_ sources: [RelaySource], control: FeedControl) throws(FeedFailure) {
        guard let pulses else { return }
        do throws(PulseSourceError) {
            try pulses.source.start { [weak self] event in self?.pulseEvent(event) }
        } catch {
            throw FeedFailure(feed: "PPS", error: error)
        }
    }

    /// A sample from each fix of the first source.
    public func take(_ event: LocationEvent, from source: RelaySource) {
        guard source.index == 0, case .fix(let fix) = event else { return }
        take(fix, source: source.name)
    }

    /// Stops the pulse source; the socket and the segment go with the feed.
    public func stop() {
        pulses?.source.stop()
    }

    private func pulseEvent(_ event: PulseEvent) {
        switch event {
        case .pulse(let pulse): pairing.withLock { $0.record(pulse) }
        case .note(let line): log("PPS: " + line)
        }
    }

    /// A sample from `fix`, of the receiver named `source`, and a pulse's if one pairs with it.
    public func take(_ fix: Fix, source: String) {
        // After the NMEA's sample: chronyd's PPS refclock, locked to the NMEA's, takes its
        // second from the NMEA's last sample.
        defer { if let pulses, let arrival = fix.arrival { pair(fix, arrival: arrival, pulses) } }
        guard let sample = TimeSample(fix, delay: delay) else {
            if fix.hasFix, fix.arrival == nil, told.withLock({ told in defer { told.notLive = true }; return !told.notLive }) {
                log("\(source) is not a live receiver (a replay, or gpsd's fixes): its fixes carry no time of arrival, so no time is sent to \(destinations.isEmpty ? "anyone" : destinations)")
            }
            return
        }
        observe?(.nmea(sample))
        sharedMemory?.store(sample)
        guard let chrony else { return }
        let trouble = attempt(chrony, dropping: "time samples") { () throws(TimeFeedError) in try chrony.send(sample) }
        let line = told.withLock { $0.samples.after(trouble, sending: "chrony: sending \(source)'s time to \(chrony.path)") }
        if let line { log(line) }
    }

    /// What went wrong sending to `socket`, in words; nil when it went.
    private func attempt(_ socket: ChronySocket, dropping what: String, _ send: () throws(TimeFeedError) -> Void) -> String? {
        do throws(TimeFeedError) {
            try send()
            return nil
        } catch .chronyNotListening {
            return "\(TimeFeedError.chronyNotListening(path: socket.path)); \(what) are dropped until it listens"
        } catch .system(let call, let code) where code == .permissionDenied || code == .notPermitted {
            return "\(TimeFeedError.system(call: call, code)). \(refusedAdvice)"
        } catch {
            return "\(error)"
        }
    }

    private func pair(_ fix: Fix, arrival: Double, _ pulses: PulseOutlets) {
        guard let time = fix.timestamp?.time, !fix.isPartialEpoch, time.millisecond == 0 else { return }
        let named = fix.timestamp?.millisecondsSinceEpoch.map { Int64($0 / 1000) }
        let (sample, counts) = pairing.withLock { pairing in
            (pairing.epoch(second: named ?? Int64(time.milliseconds / 1000), usable: fix.hasFix && named != nil, arrival: arrival),
             pairing.counts)
        }
        tellRejections(counts)
        guard let sample else { return }
        observe?(.pulse(sample))
        pulses.sharedMemory?.store(sample)
        guard let chrony = pulses.chrony else { return }
        let trouble = attempt(chrony, dropping: "pulses") { () throws(TimeFeedError) in try chrony.send(sample) }
        let line = told.withLock { $0.pulses.after(trouble, sending: "chrony: sending \(pulses.source.name)'s pulses to \(chrony.path)") }
        if let line { log(line) }
    }

    /// Each kind of rejected pulse is said the first time it happens; the counts are kept.
    private func tellRejections(_ counts: PulsePairing.Counts) {
        let lines: [String] = told.withLock { told in
            var lines: [String] = []
            let before = told.rejections
            if before.noFix == 0 && counts.noFix > 0 { lines.append("a pulse was not sent: its epoch had no fix or no date (a receiver without a fix gives no time)") }
            if before.missingPulse == 0 && counts.missingPulse > 0 { lines.append("an epoch had no pulse within \(Int(PulsePairing().window * 1000)) ms of it: check the PPS wiring, or --pps-epoch") }
            if before.doubled == 0 && counts.doubled > 0 { lines.append("two pulses came less than 0.9 s apart: both are dropped (noise on the line?)") }
            if before.disagreed == 0 && counts.disagreed > 0 { lines.append("a pulse was not sent: the second its NMEA named did not step with the pulses") }
            told.rejections = counts
            return lines
        }
        for line in lines { log("PPS: " + line) }
    }

    /// What to do when chronyd's socket refuses us. chronyd makes the socket with its umask
    /// (0755: only its own user may send) in a directory Debian keeps at 0750 or 0700, so only
    /// root (or chronyd's user) can send to it; shared memory can be made for anyone.
    public static let chronySocketAdvice =
        "chronyd's socket takes samples from root only: run as root, or feed chrony through shared memory instead ('refclock SHM 2:perm=0666 refid NMEA' in chrony.conf)"
}

/// A receiver's pulses and where their samples go: chronyd's SOCK refclock for pulses (a
/// socket of its own, `pulse` set in each sample) and the NTP segment's PPS unit.
public struct PulseOutlets: Sendable {
    /// Where the pulses come from.
    public let source: any PulseSource
    /// Which epoch names a pulse's second.
    public let rule: PulsePairing.Rule
    /// chronyd's socket for pulses (`refclock SOCK PATH refid PPS lock NMEA`), if any.
    public let chrony: ChronySocket?
    /// The NTP segment for pulses (the unit after the NMEA's), if any.
    public let sharedMemory: NTPSharedMemory?

    /// Pulses from `source`, paired by `rule`, sent to `chrony` and `sharedMemory`.
    public init(source: any PulseSource, rule: PulsePairing.Rule = .after, chrony: ChronySocket? = nil, sharedMemory: NTPSharedMemory? = nil) {
        self.source = source
        self.rule = rule
        self.chrony = chrony
        self.sharedMemory = sharedMemory
    }
}

/// A sample a time feed made, for those who watch it (gpsd's TOFF and PPS reports, `gpsfix
/// timing`).
public enum TimingEvent: Sendable {
    /// An epoch's time against its arrival (gpsd's TOFF).
    case nmea(TimeSample)
    /// A pulse paired with its second (gpsd's PPS).
    case pulse(PulseSample)
}
