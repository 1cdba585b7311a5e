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
    /// a TCP stream), the kinds whose bytes `record` keeps. The others' naming options are
    /// taken, hidden, only to say why they cannot be timed.
    static var sourceOptions: [OptionSpec] {
        let live = SourceOptions.kinds.filter { $0.recordsBytes }
        let others = SourceOptions.kinds.filter { !$0.recordsBytes }
        return live.flatMap { $0.options } + SourceOptions.options.filter { $0.name == "--simulated" }
            + others.map { OptionSpec(name: $0.name, value: "X", help: "", valueIsOptional: true, isHidden: true) }
    }

    func run() throws -> Int32 {
        if args["--replay"] != nil {
            throw UsageError(message: "timing measures a live receiver: a replay's epochs carry no time of arrival. Name the receiver (--device PORT) or its stream (--nmea-tcp HOST:PORT)")
        }
        if args["--gpsd"] != nil {
            throw UsageError(message: "timing cannot measure NMEA's offset through gpsd: gpsd does not pass on when each sentence arrived. gpsd measures it itself: 'ntpshmmon' shows its NMEA and PPS units side by side. Or stop gpsd and run 'gpsfix timing --device PORT'")
        }
        let seconds = try SourceOptions.seconds(args, "--seconds", default: Self.defaultSeconds)
        let pulses = try PulseOptions(args)
        let reference: TimingMeasurement.Reference
        switch args["--reference"] {
        case nil: reference = pulses == nil ? .system : .pulse
        case "pps":
            guard pulses != nil else { throw UsageError(message: "--reference pps needs the receiver's pulse: add --pps /dev/ppsN (or dcd, cts, ri)") }
            reference = .pulse
        case "system": reference = .system
        case let other?: throw UsageError(message: "--reference takes pps or system, not '\(other)'")
        }
        let json = args.has("--json")
        let manager = try SourceOptions.manager(args, defaultSpeed: .factor(1))
        let source = manager.sourceDescription
        let synchronised = Clocks.isSynchronised

        let measurement = Mutex(TimingMeasurement(reference: reference))
        let notes = terminal
        let feed: TimeFeed
        do throws(TimeFeedError) {
            feed = TimeFeed(chrony: nil, sharedMemory: nil,
                            pulses: try pulses.map { p throws(TimeFeedError) in
                                let source = try p.source(for: manager)
                                do throws(PulseSourceError) { try source.check() } catch { throw .pulseSource(error.description) }
                                return PulseOutlets(source: source, rule: p.rule)
                            },
                            log: { notes.note("gpsfix: " + $0) },
                            observe: { event in measurement.withLock { $0.take(event) } })
        } catch {
            throw TimingFailure(message: "\(error)")
        }
        let against = reference == .pulse ? "its pulses (\(feed.pulses!.source.name))" : "the system clock"
        terminal.note("gpsfix: timing \(source)'s NMEA against \(against) for \(Self.duration(seconds)); Ctrl-C to stop sooner")
        if reference == .system && synchronised != true {
            terminal.note("gpsfix: warning: the system clock is not known to be synchronised (no NTP daemon has marked it so): the offset is only as good as the clock")
        }

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

    static func duration(_ seconds: Double) -> String {
        seconds >= 120 && seconds.truncatingRemainder(dividingBy: 60) == 0 ? "\(Int(seconds / 60)) minutes" : "\(seconds.formatted()) s"
    }
}

/// A measurement that cannot start (a pulse device that cannot be read): exit 1.
struct TimingFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { "timing: " + message }
}

extension Double {
    /// "30", "2.5": no trailing ".0".
    func formatted() -> String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
