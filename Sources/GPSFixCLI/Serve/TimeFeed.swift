import GPSLocation
import GPSTime
import NMEA
import Synchronization

/// `serve --chrony-sock PATH`, `--ntp-shm UNIT` and `--time-offset SECONDS`: the first
/// source's fixes as time samples for chronyd (or ntpd). One source only: a clock is set
/// from one reference, and two receivers' samples in one refclock would be one noisy source.
final class TimeFeed: Sendable {
    private let chrony: ChronySocket?
    private let sharedMemory: NTPSharedMemory?
    private let delay: Double
    private let source: String
    private let log: @Sendable (String) -> Void
    /// What was last said about the feed, so that each change is told once and a chronyd
    /// that stays away is not told every second.
    private let told = Mutex<Told>(Told())

    private struct Told {
        var notLive = false
        var chronyTrouble: String?
        var chronySending = false
    }

    static let options: [OptionSpec] = [
        .value("--chrony-sock", "PATH", "Send the first source's time to chronyd: a sample per fix to its 'refclock SOCK PATH' socket (chronyd makes it)."),
        .value("--ntp-shm", "UNIT", "Write the first source's time to the NTP shared memory segment UNIT (0-255, key 0x4e545030+UNIT) that chronyd's 'refclock SHM UNIT' or ntpd reads. Units 0 and 1 are the owner's only; 2 and up anyone's."),
        .value("--time-offset", "SECONDS", "Seconds the receiver sends its sentences after the time they carry (its fixed output delay), added to its time for --chrony-sock and --ntp-shm; measure it against a good clock (chronyc sourcestats)."),
    ]

    /// The feed the options ask for, or nil when they ask for none.
    static func make(_ args: ParsedArguments, source: String, log: @escaping @Sendable (String) -> Void) throws -> TimeFeed? {
        let path = args["--chrony-sock"]
        let unit = try args["--ntp-shm"].map { text throws(UsageError) -> Int in
            guard let unit = Int(text), (0...255).contains(unit) else {
                throw UsageError(message: "--ntp-shm takes a unit from 0 to 255 (chrony's 'refclock SHM UNIT'), not '\(text)'")
            }
            return unit
        }
        var delay = 0.0
        if let text = args["--time-offset"] {
            guard let seconds = Double(text), seconds.isFinite, abs(seconds) <= 10 else {
                throw UsageError(message: "--time-offset takes seconds from -10 to 10 (e.g. 0.3 for a receiver that sends 300 ms after its epoch), not '\(text)'")
            }
            delay = seconds
        }
        guard path != nil || unit != nil else {
            if args["--time-offset"] != nil { throw UsageError(message: "--time-offset corrects the time sent with --chrony-sock or --ntp-shm: add one") }
            return nil
        }
        do throws(TimeFeedError) {
            return TimeFeed(chrony: try path.map { p throws(TimeFeedError) in try ChronySocket(path: p) },
                            sharedMemory: try unit.map { u throws(TimeFeedError) in try NTPSharedMemory(unit: u) },
                            delay: delay, source: source, log: log)
        } catch {
            throw TimeFeedFailure(error: error)
        }
    }

    private init(chrony: ChronySocket?, sharedMemory: NTPSharedMemory?, delay: Double, source: String,
                 log: @escaping @Sendable (String) -> Void) {
        self.chrony = chrony
        self.sharedMemory = sharedMemory
        self.delay = delay
        self.source = source
        self.log = log
    }

    /// Where the samples go, for the line that says the server is up.
    var destinations: String {
        let names = [chrony.map { "chronyd at \($0.path)" }, sharedMemory.map { "NTP shared memory unit \($0.unit)" }]
        return names.compactMap { $0 }.joined(separator: " and ")
    }

    /// Called on the first source's thread with each of its events.
    func take(_ event: LocationEvent) {
        guard case .fix(let fix) = event else { return }
        guard let sample = TimeSample(fix, delay: delay) else {
            if fix.hasFix, fix.arrival == nil, told.withLock({ told in defer { told.notLive = true }; return !told.notLive }) {
                log("gpsfix: \(source) is not a live receiver (a replay, or gpsd's fixes): its fixes carry no time of arrival, so no time is sent to \(destinations)")
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
            trouble = "\(TimeFeedError.system(call: call, code)). \(Self.chronySocketAdvice)"
        } catch {
            trouble = "\(error)"
        }
        let line: String? = told.withLock { told in
            if let trouble {
                defer { told.chronyTrouble = trouble; told.chronySending = false }
                return told.chronyTrouble == trouble ? nil : "gpsfix: chrony: \(trouble)"
            }
            defer { told.chronyTrouble = nil; told.chronySending = true }
            return told.chronySending ? nil : "gpsfix: chrony: sending \(source)'s time to \(chrony.path)"
        }
        if let line { log(line) }
    }
}

extension TimeFeed {
    /// What to do when chronyd's socket refuses us. chronyd makes the socket with its umask
    /// (0755: only its own user may send) in a directory Debian keeps at 0750 or 0700, so only
    /// root (or chronyd's user) can send to it; shared memory can be made for anyone.
    static var chronySocketAdvice: String {
        "chronyd's socket takes samples from root only: run serve as root, or feed chrony through shared memory instead (--ntp-shm 2, with 'refclock SHM 2:perm=0666 refid NMEA' in chrony.conf)"
    }
}

/// A time feed that cannot start: exit 1, with what to change. Its text has no "gpsfix: ":
/// the one who prints it adds that.
struct TimeFeedFailure: Error, CustomStringConvertible {
    let error: TimeFeedError

    var description: String {
        switch error {
        case .sharedMemoryRefused(let unit, _):
            "serve: \(error). Run gpsfix as that user, give chrony's line ':perm=0666' (refclock SHM \(unit):perm=0666) so anyone may write it, or remove the segment (ipcrm -M 0x\(String(NTPSharedMemory.key(unit: unit), radix: 16))) before chronyd starts."
        case .sharedMemoryMismatch(let unit):
            "serve: \(error). Choose another --ntp-shm unit, or see 'ipcs -m' for what holds key 0x\(String(NTPSharedMemory.key(unit: unit), radix: 16))."
        default:
            "serve: \(error)."
        }
    }
}
