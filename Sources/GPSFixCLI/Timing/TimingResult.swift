import GPSOutput
import GPSTime

/// What `gpsfix timing` found, as a person reads it and as JSON, with the lines to use.
struct TimingResult {
    let source: String
    let reference: TimingMeasurement.Reference
    let synchronised: Bool?
    let measurement: TimingMeasurement
    /// The pulse source's name and what was decided of its pulses, with --pps.
    let pulses: (name: String, counts: PulsePairing.Counts)?
    /// Measured through gpsd, which feeds chronyd itself: the lines are for its segments.
    var viaGpsd = false

    /// The receiver's NMEA delay, seconds, to three decimals (a millisecond).
    var timeOffset: String? {
        measurement.delay.map { Self.fixed($0.median, 3) }
    }

    /// chrony.conf's lines for this receiver, with `offset` on the NMEA's or not.
    func chronyLines(offsetOnChrony: Bool) -> [String] {
        if viaGpsd {
            // gpsd's numbering: the first device's NMEA on unit 0, its pulses on unit 1.
            return ["refclock SHM 0 refid NMEA offset \(timeOffset ?? "0")" + (pulses != nil ? " noselect" : "") + " delay 0.2"]
                + (pulses != nil ? ["refclock SHM 1 refid PPS precision 1e-7"] : [])
        }
        var lines = ["refclock SOCK /run/chrony/gpsfix.sock refid NMEA" + (offsetOnChrony ? " offset \(timeOffset ?? "0")" : "")
                     + (pulses != nil ? " noselect" : "") + " delay 0.2"]
        if let pulses {
            lines.append("refclock SOCK /run/chrony/gpsfix-pps.sock refid PPS lock NMEA")
            if pulses.name.hasPrefix("/dev/pps") {
                lines.append("# or chronyd reads the pulses itself (no --pps for serve): refclock PPS \(pulses.name) lock NMEA refid PPS")
            }
        }
        return lines
    }

    var text: String {
        var lines: [String] = []
        let against = reference == .pulse ? "its pulses" : "the system clock"
        guard let delay = measurement.delay else {
            lines.append("No epoch of \(source) could be measured against \(against): " + (reference == .pulse
                ? "no pulse paired with an epoch (see the PPS lines above: no fix, no pulse, or pulses that disagree with the NMEA)"
                : "no fix with a date arrived (a receiver without a fix gives no time)"))
            lines.append(contentsOf: pulseLines)
            return lines.joined(separator: "\n")
        }
        lines.append("NMEA offset: \(Self.fixed(delay.median * 1000, 1)) ms after the second, against \(against)"
                     + " (median of \(measurement.count) epochs; jitter \(Self.fixed(delay.standardDeviation * 1000, 1)) ms,"
                     + " \(Self.fixed(delay.minimum * 1000, 1)) to \(Self.fixed(delay.maximum * 1000, 1)) ms)")
        if reference == .system && synchronised != true {
            lines.append("The system clock is not known to be synchronised: this figure is only as good as the clock.")
        }
        lines.append(contentsOf: pulseLines)
        if abs(delay.median) >= 0.2 && pulses != nil {
            lines.append("More than 200 ms: without the correction chronyd would call the NMEA a falseticker beside the pulses.")
        }
        let offset = timeOffset ?? "0"
        lines.append("")
        if viaGpsd {
            lines.append("gpsd feeds chronyd itself (its first device's NMEA on SHM 0, its pulses on 1): in chrony.conf,")
            lines.append(contentsOf: chronyLines(offsetOnChrony: true).map { "  " + $0 })
            return lines.joined(separator: "\n")
        }
        lines.append("To take it out in gpsfix:  gpsfix serve ... --chrony-sock /run/chrony/gpsfix.sock --time-offset \(offset)"
                     + (pulses.map { " --pps \($0.name) --chrony-pps-sock /run/chrony/gpsfix-pps.sock" } ?? ""))
        lines.append("with, in chrony.conf:")
        lines.append(contentsOf: chronyLines(offsetOnChrony: false).map { "  " + $0 })
        lines.append("Or leave --time-offset out and let chronyd take it out:")
        lines.append(contentsOf: chronyLines(offsetOnChrony: true).map { "  " + $0 })
        return lines.joined(separator: "\n")
    }

    private var pulseLines: [String] {
        guard let pulses else { return [] }
        let c = pulses.counts
        var lines = ["Pulses (\(pulses.name)): \(c.paired) paired; not sent: \(c.noFix) without a fix, \(c.missingPulse) epochs without a pulse, \(c.doubled) doubled, \(c.disagreed) whose second disagreed"]
        if let phase = measurement.phase {
            lines.append("The system clock is \(Self.fixed(phase.median * 1000, 1)) ms ahead of the pulses; their jitter as stamped here: p50 \(Self.fixed(phase.deviation50 * 1e6, 1)) µs, p99 \(Self.fixed(phase.deviation99 * 1e6, 1)) µs")
        }
        return lines
    }

    /// `value` to `decimals` places, as the JSON writes numbers: "137.4".
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var w = ByteWriter()
        w.append(value, decimals: decimals)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    var json: String {
        var w = ByteWriter()
        w.append("{\"class\":\"TIMING\",\"source\":")
        w.appendJSONString(source)
        w.append(",\"reference\":")
        w.appendJSONString(reference.rawValue)
        w.append(",\"synchronised\":")
        w.append(synchronised.map { $0 ? "true" : "false" } ?? "null")
        w.append(",\"samples\":")
        w.append(measurement.count)
        let delay = measurement.delay
        for (key, value) in [("offset_ms", delay?.median), ("jitter_ms", delay?.standardDeviation), ("min_ms", delay?.minimum), ("max_ms", delay?.maximum)] {
            w.append(",\"\(key)\":")
            if let value { w.append(value * 1000, decimals: 3) } else { w.append("null") }
        }
        w.append(",\"time_offset\":")
        if let offset = timeOffset { w.append(offset) } else { w.append("null") }
        if let pulses {
            let c = pulses.counts
            w.append(",\"pps\":{\"source\":")
            w.appendJSONString(pulses.name)
            w.append(",\"paired\":\(c.paired),\"no_fix\":\(c.noFix),\"missing_pulse\":\(c.missingPulse),\"doubled\":\(c.doubled),\"disagreed\":\(c.disagreed),\"waiting\":\(c.waiting)")
            if let phase = measurement.phase {
                w.append(",\"phase_ms\":")
                w.append(phase.median * 1000, decimals: 6)
                w.append(",\"jitter_p50_us\":")
                w.append(phase.deviation50 * 1e6, decimals: 3)
                w.append(",\"jitter_p99_us\":")
                w.append(phase.deviation99 * 1e6, decimals: 3)
            }
            w.append("}")
        }
        w.append(",\"chrony\":[")
        for (index, line) in chronyLines(offsetOnChrony: false).enumerated() {
            if index > 0 { w.append(",") }
            w.appendJSONString(line)
        }
        w.append("]}\n")
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
