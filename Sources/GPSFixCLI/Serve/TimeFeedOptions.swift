import GPSLocation
import GPSServer
import GPSSystem
import GPSTime

/// `serve --chrony-sock PATH`, `--ntp-shm UNIT` and `--time-offset SECONDS`: the first
/// source's fixes as time samples for chronyd (or ntpd), through GPSTime's `TimeFeed`; with
/// `--pps`, its pulses too, paired with its epochs (`--chrony-pps-sock`, and the PPS unit after
/// `--ntp-shm`'s).
struct TimeFeedOptions: ServeFeedKind {
    static let options: [OptionSpec] = [
        .value("--chrony-sock", "PATH", "Send the first source's time to chronyd: a sample per fix to its 'refclock SOCK PATH' socket (chronyd makes it)."),
        .value("--ntp-shm", "UNIT", "Write the first source's time to the NTP shared memory segment UNIT (0-255, key 0x4e545030+UNIT) that chronyd's 'refclock SHM UNIT' or ntpd reads. Units 0 and 1 are the owner's only; 2 and up anyone's."),
        .value("--time-offset", "SECONDS", "Seconds the receiver sends its sentences after the time they carry (its fixed output delay), added to its time for --chrony-sock and --ntp-shm; measure it with 'gpsfix timing'."),

    ] + PulseOptions.options + [
        .value("--chrony-pps-sock", "PATH", "Send the pulses of --pps to chronyd, each paired with the second the receiver's NMEA names: 'refclock SOCK PATH refid PPS lock NMEA' (a socket of its own: chronyd takes these as pulses)."),
    ]

    static let outlets = ["--chrony-sock", "--ntp-shm", "--chrony-pps-sock"]

    /// What `serve` says when chronyd's socket refuses it: the option that avoids the socket.
    static let chronySocketAdvice =
        "chronyd's socket takes samples from root only: run serve as root, or feed chrony through shared memory instead (--ntp-shm 2, with 'refclock SHM 2:perm=0666 refid NMEA' in chrony.conf)"

    /// chronyd's socket, when given.
    let path: String?
    /// The shared memory segment's unit, when given.
    let unit: Int?
    /// `--time-offset`: the receiver's fixed output delay.
    let delay: Duration
    /// `--pps` and how its pulses pair.
    let pulses: PulseOptions?
    /// chronyd's socket for pulses, when given.
    let pulsePath: String?

    /// Judged before any source is made, as every usage error is.
    init(_ args: ParsedArguments, _ setting: ServeSetting) throws {
        path = args["--chrony-sock"]
        unit = try args["--ntp-shm"].map { text throws(UsageError) -> Int in
            guard let unit = Int(text), (0...255).contains(unit) else {
                throw UsageError(message: "--ntp-shm takes a unit from 0 to 255 (chrony's 'refclock SHM UNIT'), not '\(text)'")
            }
            return unit
        }
        var delay = Duration.zero
        if let text = args["--time-offset"] {
            guard let seconds = Double(text), seconds.isFinite, abs(seconds) <= 10 else {
                throw UsageError(message: "--time-offset takes seconds from -10 to 10 (e.g. 0.3 for a receiver that sends 300 ms after its epoch), not '\(text)'")
            }
            delay = .nanoseconds(Int64((seconds * 1e9).rounded()))
        }
        self.delay = delay
        if path == nil && unit == nil && args["--time-offset"] != nil {
            throw UsageError(message: "--time-offset corrects the time sent with --chrony-sock or --ntp-shm: add one")
        }
        pulses = try PulseOptions(args)
        pulsePath = args["--chrony-pps-sock"]
        if pulsePath != nil && pulses == nil {
            throw UsageError(message: "--chrony-pps-sock sends the pulses of --pps: add --pps /dev/ppsN (or dcd, cts, ri for a serial port's modem line)")
        }
        if let unit, pulses != nil, unit % 2 != 0 || unit == 254 || unit == 255 {
            throw UsageError(message: "with --pps, --ntp-shm takes an even unit from 0 to 252: the NMEA's, with the pulses on the next (gpsd's numbering), not \(unit)")
        }
        if pulses != nil && pulsePath == nil && unit == nil && !setting.listens {
            throw UsageError(message: "--pps needs somewhere to send its pulses: --chrony-pps-sock PATH, --ntp-shm UNIT, or gpsd's listener (PPS reports)")
        }
    }

    func make(_ context: inout ServeContext) throws -> ServeFeed? {
        guard path != nil || unit != nil || pulses != nil else { return nil }
        let note = context.note
        let feed: TimeFeed
        do throws(TimeFeedError) {
            let outlets = try pulses.map { pulses throws(TimeFeedError) in
                try pulses.outlets(for: context.sources[0],
                                   chrony: try pulsePath.map { p throws(TimeFeedError) in try ChronySocket(path: p) },
                                   sharedMemory: try unit.map { u throws(TimeFeedError) in try NTPSharedMemory(unit: u + 1) })
            }
            feed = TimeFeed(chrony: try path.map { p throws(TimeFeedError) in try ChronySocket(path: p) },
                            sharedMemory: try unit.map { u throws(TimeFeedError) in try NTPSharedMemory(unit: u) },
                            pulses: outlets, delay: delay, refusedAdvice: Self.chronySocketAdvice,
                            log: { note("gpsfix: " + $0) }, observe: context.gpsdServer.map(timingReports))
        } catch {
            throw TimeFeedFailure(error: error)
        }
        // The first source only: a clock takes its time from one reference.
        let first = context.sources[0].sourceDescription
        var preamble: [String] = []
        if !feed.destinations.isEmpty {
            preamble.append("sending \(first)'s time to \(feed.destinations)" + (pulses == nil ? " (NMEA alone: good to tens or hundreds of ms)" : ""))
        }
        if let outlets = feed.pulses {
            let places = [outlets.chrony.map { "chronyd at \($0.path)" }, outlets.sharedMemory.map { "NTP shared memory unit \($0.unit)" },
                          context.gpsdServer == nil ? nil : "gpsd's clients (PPS)"].compactMap { $0 }
            preamble.append("pairing \(outlets.source.name)'s pulses with \(first)'s NMEA (each pulse begins the second the epoch \(outlets.rule == .after ? "after" : "before") it names); sending them to " + places.joined(separator: " and "))
        }
        return ServeFeed(feed, preamble: preamble, outlet: feed.destinations.isEmpty ? nil : feed.destinations)
    }
}

extension TimeFeedOptions {
    /// gpsd's PPS and TOFF for `server`'s watchers that ask for them (`"pps":true`), naming
    /// the NTP segments the same samples went to, as gpsd does.
    func timingReports(_ server: GpsdServer) -> @Sendable (TimingEvent) -> Void {
        let unit = unit
        return { event in
            switch event {
            case .nmea(let sample):
                server.publishTiming(.toff, real: WallTime(unixSeconds: sample.trueTime), clock: WallTime(unixSeconds: sample.arrival),
                                     precision: Int(NTPSharedMemory.precision), shm: unit.map { "NTP\($0)" })
            case .pulse(let sample):
                server.publishTiming(.pps, real: WallTime(seconds: sample.second, nanoseconds: 0), clock: sample.pulse,
                                     precision: Int(NTPSharedMemory.pulsePrecision), shm: unit.map { "NTP\($0 + 1)" })
            }
        }
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
