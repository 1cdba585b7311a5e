import GPSLocation
import NMEA

/// `serve`'s words for `systemctl status` (GPSLocation's `ServiceStatus`): as it logs the
/// sources' news (`StatusWords`, `Advice`), with fixes as their mode and satellites used.
extension ServiceStatus {
    /// The status `event` brings; nil when it changes nothing worth saying (a sentence, a sky
    /// view, a receiver's note, a reconnection attempt between those that are logged).
    static func after(_ event: LocationEvent, source: String, reception: Reception?) -> ServiceStatus? {
        switch event {
        case .fix(let fix):
            let mode = switch fix.mode {
            case .noFix: "no fix"
            case .twoD: "2D fix"
            case .threeD: "3D fix"
            }
            let used = fix.satellitesUsed.map { ", \($0) satellite\($0 == 1 ? "" : "s") used" } ?? ""
            return ServiceStatus(text: "\(source): \(mode)\(used)", kind: .fix(fix.mode))
        case .status(.finished):
            return ServiceStatus(text: "\(source): capture ended; serving its last fix", kind: .ended)
        case .status(let status):
            guard let text = StatusWords.line(status, source: source, reception: reception) else { return nil }
            let kind: Kind = switch status {
            case .waiting: .absent
            case .started: .waiting
            case .streaming: .receiving
            case .disconnected: .gone
            case .reconnecting: .reconnecting
            case .stale: .silent
            case .finished, .stopped: .ended
            }
            return ServiceStatus(text: text, kind: kind)
        case .error(let error):
            return ServiceStatus(text: "failed: " + Advice.message(for: error), kind: .failed)
        case .sky, .sentence, .note:
            // A receiver's note goes to the log (`ServeNotes`), not to `systemctl status`.
            return nil
        }
    }
}
