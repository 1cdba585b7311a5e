import GPSGpsd
import GPSLocation
import GPSSystem
import GPSTime
import Synchronization

/// `gpsfix timing --gpsd`: gpsd's fixes carry no time of arrival, but gpsd measures it
/// itself and says so to a watch that asks for `"pps":true`: each TOFF is an epoch's time
/// against when gpsd read it, each PPS a pulse gpsd paired with its second. The first device
/// to report is measured.
struct GpsdTiming {
    let args: ParsedArguments
    let terminal: Terminal

    func run(_ address: String, seconds: Double, reference: TimingMeasurement.Reference, json: Bool) throws -> Int32 {
        let (host, port) = try SourceOptions.gpsdAddress(address)
        let reports = try GpsdTimeReports(host: host, port: port)
        let synchronised = Clocks.isSynchronised
        TimingCommand.announce("gpsd at \(host):\(port)'s NMEA (its TOFF reports) against \(reference == .pulse ? "its PPS reports" : "the system clock")",
                               seconds: seconds, reference: reference, synchronised: synchronised, terminal)
        let interrupts = Interrupts { _ in reports.stop() }
        defer { interrupts.cancel() }
        var measurement = TimingMeasurement(reference: reference)
        var device: String?
        var lastPulse: GpsdTimeReports.Report?
        var counts = PulsePairing.Counts()
        _ = try reports.run(for: .nanoseconds(Int64(seconds * 1e9))) { report in
            // One receiver: the first that reports.
            if device == nil { device = report.device }
            guard report.device == device else { return }
            switch report.kind {
            case .pps:
                lastPulse = report
            case .toff:
                measurement.take(.nmea(TimeSample(trueTime: report.real.unixSeconds, arrival: report.clock.unixSeconds)))
                // gpsd paired the pulse already: the PPS of the second this epoch names.
                if let pulse = lastPulse, pulse.real.seconds == report.real.seconds {
                    counts.paired += 1
                    measurement.take(.pulse(PulseSample(second: pulse.real.seconds, pulse: pulse.clock, arrival: report.clock.unixSeconds)))
                }
            }
        }
        if let device { terminal.note("gpsfix: gpsd's device: \(device)") }
        var result = TimingResult(source: "gpsd at \(host):\(port)" + (device.map { " (\($0))" } ?? ""), reference: reference,
                                  synchronised: synchronised, measurement: measurement,
                                  pulses: counts.paired > 0 || reference == .pulse ? ("gpsd's PPS", counts) : nil)
        result.viaGpsd = true
        terminal.print(json ? result.json : result.text + "\n")
        if measurement.count == 0 && device == nil {
            terminal.note("gpsfix: gpsd sent no TOFF report: it sends them for a receiver with a fix whose time it takes (gpsd 3.20 and later); check 'gpspipe -w -P'")
        }
        return measurement.count == 0 ? 1 : 0
    }
}
