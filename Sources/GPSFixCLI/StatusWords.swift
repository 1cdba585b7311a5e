import NMEA
import GPSLocation

/// How a source's state reads to a person; the one place its words live. A `line` is for the
/// log (stderr, systemd's status): it names the source and, where it can, what to do. A
/// `label` is for the live view's header, short enough to share a row with the position.
enum StatusWords {
    /// The log line for a change of state; nil for one not worth a line (the end, a stop, the
    /// attempts between every tenth).
    static func line(_ status: SourceStatus, source: String, reception: Reception? = nil) -> String? {
        switch status {
        // The reason names the source already, as an error does ("/dev/gps0: no such device…").
        // Its full stop gives way to the dash: "no such device — waiting", not "device. — waiting".
        case .waiting(let reason): (reason.hasPrefix(source) ? reason : "\(source): \(reason)").trimmingSuffix(".") + " — waiting for it to appear"
        case .started: "\(source): open, \(waitingForFix)"
        case .streaming: "\(source): receiving"
        case .disconnected(let reason): "\(source): \(reason) — waiting for it to come back"
        case .reconnecting(let attempt): attempt == 1 || attempt % 10 == 0 ? "\(source): \(reconnecting(attempt))" : nil
        case .stale(let quiet): "\(source): " + Advice.silence(quiet, reception)
        case .finished, .stopped: nil
        }
    }

    /// The live view's header: what the source is doing, or (while it delivers) the fix it has.
    static func label(_ status: SourceStatus?, kind: SourceKind, fix: Fix?) -> String {
        let gone = switch kind {
        case .gpsd: "gpsd went away — waiting"
        case .network: "stream dropped — waiting"
        case .receiver, .capture: "device unplugged — waiting"
        }
        switch status {
        case .waiting?:
            return kind == .gpsd ? "waiting for gpsd" : kind == .network ? "waiting for the stream" : "waiting for the receiver"
        case .disconnected?:
            return gone
        case .reconnecting(let attempt)?:
            return kind == .gpsd ? "gpsd \(reconnecting(attempt))" : "\(gone) (attempt \(attempt))"
        case .stale(let quiet)?:
            return Advice.gap(quiet)
        case .finished?:
            return "end of capture"
        case .stopped?:
            return "stopped"
        case .started?, .streaming?, nil:
            guard let fix, fix.hasFix, fix.coordinate != nil else { return "waiting for fix" }
            return "\(LiveViewText.mode(fix.mode)) fix"
        }
    }

    private static let waitingForFix = "waiting for a fix"

    private static func reconnecting(_ attempt: Int) -> String { "reconnecting (attempt \(attempt))" }
}

extension String {
    /// Without one `suffix` at the end, if it ends so.
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
