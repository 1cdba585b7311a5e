/// One metric of Prometheus' text format (version 0.0.4): its name, help, type and samples.
/// Feeds beside the server (the MQTT publisher's queue) add theirs with
/// ``GpsdServer/addMetrics(_:)``.
public struct MetricFamily: Sendable {
    /// Prometheus' metric type, as its `# TYPE` line says it.
    public enum Kind: String, Sendable {
        /// A value that goes up and down (satellites used, the fix's mode).
        case gauge
        /// A count that only grows while the process runs (epochs, sentences); its name ends in `_total`.
        case counter
    }

    /// One value, with its labels in order.
    public struct Sample: Sendable {
        /// Its labels (`device`, `constellation`), in the order written; values are escaped when written.
        public var labels: [(name: String, value: String)]
        /// The value; NaN and the infinities are written as Prometheus spells them.
        public var value: Double

        /// A value with its labels.
        public init(_ value: Double, labels: [(name: String, value: String)] = []) {
            self.labels = labels
            self.value = value
        }
    }

    /// `gpsfix_…`, with the unit's suffix (`_seconds`, `_meters`) and `_total` for a counter.
    public var name: String
    /// Its `# HELP` text: what it measures, in what unit.
    public var help: String
    /// Gauge or counter.
    public var kind: Kind
    /// Its values, one per set of labels; a family without any is not written.
    public var samples: [Sample]

    /// A family of `samples`.
    public init(_ name: String, _ kind: Kind, help: String, samples: [Sample]) {
        self.name = name
        self.kind = kind
        self.help = help
        self.samples = samples
    }

    /// A family of one unlabelled value.
    public init(_ name: String, _ kind: Kind, help: String, value: Double) {
        self.init(name, kind, help: help, samples: [Sample(value)])
    }
}

/// Writes metrics in Prometheus' text format.
enum MetricsText {
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    static func write(_ families: [MetricFamily]) -> [UInt8] {
        var out = ""
        out.reserveCapacity(families.count * 160)
        for family in families where !family.samples.isEmpty {
            out += "# HELP \(family.name) \(escapeHelp(family.help))\n# TYPE \(family.name) \(family.kind.rawValue)\n"
            for sample in family.samples {
                out += family.name
                if !sample.labels.isEmpty {
                    out += "{"
                    out += sample.labels.map { "\($0.name)=\"\(escapeLabel($0.value))\"" }.joined(separator: ",")
                    out += "}"
                }
                out += " "
                out += number(sample.value)
                out += "\n"
            }
        }
        return Array(out.utf8)
    }

    /// Whole numbers without a fraction; the rest as Swift's shortest round-tripping form,
    /// which Prometheus' parser (Go's ParseFloat) reads.
    static func number(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v > 0 ? "+Inf" : "-Inf" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }

    /// A label's value: backslash, double quote and line feed escaped, as the format asks.
    /// Device names can come from the network (a fleet's vehicles), so this is all that
    /// stands between a name and the scrape.
    static func escapeLabel(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    static func escapeHelp(_ s: String) -> String {
        s.replacingOccurrences("\\", "\\\\").replacingOccurrences("\n", "\\n")
    }
}

private extension String {
    /// Without Foundation.
    func replacingOccurrences(_ target: Character, _ replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
