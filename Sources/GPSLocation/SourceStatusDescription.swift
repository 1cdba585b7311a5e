import NMEA
import GPSSystem

extension SourceStatus: CustomStringConvertible {
    /// "started", "disconnected: hung up", "finished: Statistics(…)": as a log line says it.
    public var description: String {
        switch self {
        case .waiting(let reason): "waiting: \(reason)"
        case .started: "started"
        case .streaming: "streaming"
        case .disconnected(let reason): "disconnected: \(reason)"
        case .reconnecting(let attempt): "reconnecting (attempt \(attempt))"
        case .stale(let quiet): "stale: nothing for \(fixed(quiet.inSeconds)) s"
        case .finished(let statistics): "finished: \(statistics)"
        case .stopped: "stopped"
        }
    }
}

/// Seconds with one decimal, without Foundation.
private func fixed(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds.magnitude < 1e15 else { return "\(seconds)" }
    let tenths = Int((seconds * 10).rounded())
    return "\(tenths < 0 ? "-" : "")\(abs(tenths) / 10).\(abs(tenths) % 10)"
}
