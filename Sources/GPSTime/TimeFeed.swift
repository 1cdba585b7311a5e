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
    private let delay: Duration
    private let refusedAdvice: String
    private let log: @Sendable (String) -> Void
    private let told = Mutex<Told>(Told())

    private struct Told {
        var notLive = false
        var chronyTrouble: String?
        var chronySending = false
    }

    /// A feed to `chrony`, `sharedMemory` or both. `delay` is how long after the time they
    /// carry the receiver sends its sentences (its fixed output delay), added to its time;
    /// `refusedAdvice` follows a chrony socket that refuses us (the default says what to do
    /// in chrony's configuration).
    public init(chrony: ChronySocket?, sharedMemory: NTPSharedMemory?, delay: Duration = .zero,
                refusedAdvice: String = TimeFeed.chronySocketAdvice, log: @escaping @Sendable (String) -> Void) {
        precondition(chrony != nil || sharedMemory != nil, "a time feed goes somewhere")
        self.chrony = chrony
        self.sharedMemory = sharedMemory
        self.delay = delay
        self.refusedAdvice = refusedAdvice
        self.log = log
    }

    /// Where the samples go, for a line that says so: "chronyd at PATH and NTP shared memory
    /// unit 2".
    public var destinations: String {
        let names = [chrony.map { "chronyd at \($0.path)" }, sharedMemory.map { "NTP shared memory unit \($0.unit)" }]
        return names.compactMap { $0 }.joined(separator: " and ")
    }

    /// Nothing to start: the socket and the segment were opened when it was made.
    public func start(_ sources: [RelaySource], control: FeedControl) {}

    /// A sample from each fix of the first source.
    public func take(_ event: LocationEvent, from source: RelaySource) {
        guard source.index == 0, case .fix(let fix) = event else { return }
        take(fix, source: source.name)
    }

    /// Nothing to let go of: the socket and the segment go with the feed.
    public func stop() {}

    /// A sample from `fix`, of the receiver named `source`.
    public func take(_ fix: Fix, source: String) {
        guard let sample = TimeSample(fix, delay: delay) else {
            if fix.hasFix, fix.arrival == nil, told.withLock({ told in defer { told.notLive = true }; return !told.notLive }) {
                log("\(source) is not a live receiver (a replay, or gpsd's fixes): its fixes carry no time of arrival, so no time is sent to \(destinations)")
            }
            return
        }
        sharedMemory?.store(sample)
        guard let chrony else { return }
        let trouble: String?
        do throws(TimeFeedError) {
            try chrony.send(sample)
            trouble = nil
        } catch .chronyNotListening {
            trouble = "\(TimeFeedError.chronyNotListening(path: chrony.path)); time samples are dropped until it listens"
        } catch .system(let call, let code) where code == .permissionDenied || code == .notPermitted {
            trouble = "\(TimeFeedError.system(call: call, code)). \(refusedAdvice)"
        } catch {
            trouble = "\(error)"
        }
        let line: String? = told.withLock { told in
            if let trouble {
                defer { told.chronyTrouble = trouble; told.chronySending = false }
                return told.chronyTrouble == trouble ? nil : "chrony: \(trouble)"
            }
            defer { told.chronyTrouble = nil; told.chronySending = true }
            return told.chronySending ? nil : "chrony: sending \(source)'s time to \(chrony.path)"
        }
        if let line { log(line) }
    }

    /// What to do when chronyd's socket refuses us. chronyd makes the socket with its umask
    /// (0755: only its own user may send) in a directory Debian keeps at 0750 or 0700, so only
    /// root (or chronyd's user) can send to it; shared memory can be made for anyone.
    public static let chronySocketAdvice =
        "chronyd's socket takes samples from root only: run as root, or feed chrony through shared memory instead ('refclock SHM 2:perm=0666 refid NMEA' in chrony.conf)"
}
