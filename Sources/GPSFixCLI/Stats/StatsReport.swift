import GPSOutput
import GPSStats
import NMEA

/// One source's `FixStatistics` as `gpsfix stats` prints them: lines for a person, or one JSON
/// object (a line) for a script. Every figure says its unit; one not known is left out of the
/// text and null in the JSON.
struct StatsReport {
    let source: String
    let statistics: FixStatistics

    private static func fixed(_ value: Double, _ decimals: Int) -> String { TimingResult.fixed(value, decimals) }

    private func percent(_ count: Int) -> String {
        statistics.epochs == 0 ? "0" : Self.fixed(Double(count) * 100 / Double(statistics.epochs), 1)
    }

    var text: String {
        let s = statistics
        var lines = ["\(source): \(s.epochs) epochs, \(s.fixes) with a position"
                     + " (3D \(percent(s.threeD)) %, 2D \(percent(s.twoD)) %, no fix \(percent(s.noFix)) %)"]
        if let ttff = s.timeToFirstFix { lines.append("First fix: \(Self.fixed(ttff, 1)) s after the first epoch") }
        if let interval = s.interval {
            lines.append("Update interval: \(Self.fixed(interval.median, 3)) s (jitter \(Self.fixed(interval.standardDeviation * 1000, 1)) ms, longest \(Self.fixed(interval.maximum, 3)) s)")
        }
        if let scatter = s.scatter {
            let altitude = scatter.altitude.map { ", \(Self.fixed($0, 2)) m" } ?? ""
            lines.append("Mean position: \(Self.fixed(scatter.latitude, 9)), \(Self.fixed(scatter.longitude, 9))\(altitude) (\(scatter.count) fixes)")
            let up = scatter.sigmaUp.map { ", up \(Self.fixed($0, 3)) m" } ?? ""
            lines.append("Standard deviation: north \(Self.fixed(scatter.sigmaNorth, 3)) m, east \(Self.fixed(scatter.sigmaEast, 3)) m\(up)")
            lines.append("Counted: CEP50 \(Self.fixed(scatter.cep50, 3)) m, CEP95 \(Self.fixed(scatter.cep95, 3)) m, farthest \(Self.fixed(scatter.maximum, 3)) m")
            lines.append("From the deviations: CEP \(Self.fixed(scatter.cepFromSigma, 3)) m (0.5887 (σN + σE), RCC 261-00), 2DRMS \(Self.fixed(scatter.drms2, 3)) m (2 √(σN² + σE²)), R95 \(Self.fixed(scatter.r95, 3)) m (1.2239 (σN + σE))")
            if s.positionsLeftOut > 0 {
                lines.append("Left out of the scatter: \(s.positionsLeftOut) fixes past the first \(FixStatistics.Collector.defaultLimit)")
            }
        }
        if let hdop = s.hdop {
            lines.append("HDOP: median \(Self.fixed(hdop.median, 2)), p95 \(Self.fixed(hdop.percentile95, 2)), \(Self.fixed(hdop.minimum, 2)) to \(Self.fixed(hdop.maximum, 2))")
        }
        for c in s.constellations {
            let snr = c.meanSNR.map { "; SNR mean \(Self.fixed($0, 1)), best \(Self.fixed(c.maximumSNR ?? $0, 0)) dB-Hz" } ?? "; no SNR"
            lines.append("\(c.constellation.name): \(Self.fixed(c.meanUsed, 1)) used of \(Self.fixed(c.meanSeen, 1)) seen (at most \(c.maximumUsed) of \(c.maximumSeen))\(snr)")
        }
        if s.fixes == 0 { lines.append("No fix with a position: nothing to scatter") }
        return lines.joined(separator: "\n")
    }

    var json: String {
        let s = statistics
        var w = ByteWriter()
        w.append("{\"class\":\"STATS\",\"source\":")
        w.appendJSONString(source)
        w.append(",\"epochs\":\(s.epochs),\"fixes\":\(s.fixes),\"modes\":{\"no_fix\":\(s.noFix),\"2d\":\(s.twoD),\"3d\":\(s.threeD)}")
        let scatter = s.scatter
        let figures: [(String, Double?, Int)] = [
            ("mean_lat", scatter?.latitude, 9), ("mean_lon", scatter?.longitude, 9), ("mean_alt_m", scatter?.altitude, 3),
            ("sigma_north_m", scatter?.sigmaNorth, 4), ("sigma_east_m", scatter?.sigmaEast, 4), ("sigma_up_m", scatter?.sigmaUp, 4),
            ("cep50_m", scatter?.cep50, 4), ("cep95_m", scatter?.cep95, 4), ("max_m", scatter?.maximum, 4),
            ("cep_rcc_m", scatter?.cepFromSigma, 4), ("drms2_m", scatter?.drms2, 4), ("r95_m", scatter?.r95, 4),
            ("ttff_s", s.timeToFirstFix, 3),
            ("interval_s", s.interval?.median, 3), ("interval_jitter_s", s.interval?.standardDeviation, 4), ("interval_max_s", s.interval?.maximum, 3),
        ]
        for (key, value, decimals) in figures {
            w.append(",\"\(key)\":")
            if let value, value.isFinite { w.append(value, decimals: decimals) } else { w.append("null") }
        }
        w.append(",\"positions_left_out\":\(s.positionsLeftOut)")
        w.append(",\"hdop\":")
        if let hdop = s.hdop {
            w.append("{\"min\":")
            w.append(hdop.minimum, decimals: 2)
            w.append(",\"median\":")
            w.append(hdop.median, decimals: 2)
            w.append(",\"p95\":")
            w.append(hdop.percentile95, decimals: 2)
            w.append(",\"max\":")
            w.append(hdop.maximum, decimals: 2)
            w.append("}")
        } else {
            w.append("null")
        }
        w.append(",\"sky_views\":\(s.skyViews),\"constellations\":[")
        for (index, c) in s.constellations.enumerated() {
            if index > 0 { w.append(",") }
            w.append("{\"name\":")
            w.appendJSONString(c.constellation.name)
            w.append(",\"seen_mean\":")
            w.append(c.meanSeen, decimals: 2)
            w.append(",\"used_mean\":")
            w.append(c.meanUsed, decimals: 2)
            w.append(",\"seen_max\":\(c.maximumSeen),\"used_max\":\(c.maximumUsed),\"snr_mean\":")
            if let snr = c.meanSNR { w.append(snr, decimals: 1) } else { w.append("null") }
            w.append(",\"snr_max\":")
            if let snr = c.maximumSNR { w.append(snr, decimals: 1) } else { w.append("null") }
            w.append("}")
        }
        w.append("]}\n")
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
