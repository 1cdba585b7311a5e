import Dispatch
import GPSLocation
import GPSOutput
import GPSSystem
import GPSTime
import Synchronization

/// `gpsfix timing`: watches a live receiver for `--seconds` and reports how late its NMEA is
/// after the second it names (against its pulse, or the system clock), with the
/// `--time-offset` and chrony.conf lines that follow. The measuring is GPSTime's
/// (`TimeFeed`, `TimingMeasurement`); this turns the figures into advice.
struct TimingCommand {
    let args: ParsedArguments
    let terminal: Terminal

    static let defaultSeconds = 180.0

    /// The sources whose epochs have a time of arrival: the live byte streams (a serial port,
    /// a TCP stream), the kinds whose bytes `record` keeps; and gpsd, whose own time reports
    /// say when it read each epoch. A replay's naming option is taken, hidden, only to say why
    /// it cannot be timed.
    static var sourceOptions: [OptionSpec] {
        let live = SourceOptions.kinds.filter { $0.recordsBytes || $0.name == "--gpsd" }
        let others = SourceOptions.kinds.filter { !$0.recordsBytes && $0.name != "--gpsd" }
        return live.flatMap { $0.options } + SourceOptions.options.filter { $0.name == "--simulated" }
            + others.map { OptionSpec(name: $0.name, value: "X", help: "", valueIsOptional: true, isHidden: true) }
    }

    func run() throws -> Int32 {
        if args["--replay"] != nil {
            throw UsageError(message: "timing measures a live receiver: a replay's epochs carry no time of arrival. Name the receiver (--device PORT) or its stream (--nmea-tcp HOST:PORT)")
        }
        let seconds = try SourceOptions.seconds(args, "--seconds", default: Self.defaultSeconds)
        let json = args.has("--json")
        if let gpsd = args["--gpsd"] {
            if args["--pps"] != nil {
                throw UsageError(message: "--pps reads a pulse here; through gpsd, gpsd reads the receiver's pulse itself and its PPS reports are used: leave --pps out (--reference pps)")
            }
            return try GpsdTiming(args: args, terminal: terminal).run(gpsd, seconds: seconds, reference: try reference(pulses: true), json: json)
        }
        let pulses = try PulseOptions(args)
        let reference = try reference(pulses: pulses != nil)
        let manager = try SourceOptions.manager(args, defaultSpeed: .factor(1))
        let source = manager.sourceDescription
        let synchronised = Clocks.isSynchronised

        let measurement = Mutex(TimingMeasurement(reference: reference))
        let notes = terminal
        let feed: TimeFeed
        do throws(TimeFeedError) {
            feed = TimeFeed(chrony: nil, sharedMemory: nil,
                            pulses: try pulses.map { p throws(TimeFeedError) in try p.outlets(for: manager) },
                            log: { notes.note("gpsfix: " + $0) },
                            observe: { event in measurement.withLock { $0.take(event) } })
        } catch {
            throw TimingFailure(message: "\(error)")
        }
        let against = reference == .pulse ? "its pulses (\(feed.pulses!.source.name))" : "the system clock"
        Self.announce("\(source)'s NMEA against \(against)", seconds: seconds, reference: reference, synchronised: synchronised, terminal)

        let relay = LocationRelay(LocationService(manager: manager), feeds: [feed])
        relay.armInterrupts()
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { relay.stop() }
        do throws(RelayError) {
            try relay.run()
        } catch .sourcesFailed(let failure) {
            throw failure
        } catch .feedFailed(let failure) {
            throw TimingFailure(message: "\(failure.error)")
        }
        let result = TimingResult(source: source, reference: reference, synchronised: synchronised, measurement: measurement.withLock { $0 },
                                  pulses: feed.pulses.map { ($0.source.name, feed.pulseCounts) })
        if json {
            terminal.print(result.json)
        } else {
            terminal.print(result.text + "\n")
        }
        return result.measurement.count == 0 ? 1 : 0
    }

    /// `--reference`, judged: pps needs pulses.
    func reference(pulses: Bool) throws(UsageError) -> TimingMeasurement.Reference {
        switch args["--reference"] {
        case nil: return pulses && args["--gpsd"] == nil ? .pulse : .system
        case "pps":
            guard pulses else { throw UsageError(message: "--reference pps needs the receiver's pulse: add --pps /dev/ppsN (or dcd, cts, ri)") }
            return .pulse
        case "system": return .system
        case let other?: throw UsageError(message: "--reference takes pps or system, not '\(other)'")
        }
    }

    /// "timing WHAT for 3 minutes", and the warning when the system clock is the reference
    /// and no NTP daemon has marked it synchronised.
    static func announce(_ what: String, seconds: Double, reference: TimingMeasurement.Reference, synchronised: Bool?, _ terminal: Terminal) {
        terminal.note("gpsfix: timing \(what) for \(duration(seconds)); Ctrl-C to stop sooner")
        if reference == .system && synchronised != true {
            terminal.note("gpsfix: warning: the system clock is not known to be synchronised (no NTP daemon has marked it so): the offset is only as good as the clock")
        }
    }

    /// "3 minutes", "30 s", "2.5 s".
    static func duration(_ seconds: Double) -> String {
        if seconds >= 120 && seconds.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(seconds / 60)) minutes" }
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

/// A measurement that cannot start (a pulse device that cannot be read): exit 1.
struct TimingFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { "timing: " + message }
}
