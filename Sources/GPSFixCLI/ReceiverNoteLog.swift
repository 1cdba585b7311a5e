import GPSLocation
import GPSSystem
import NMEA
import Synchronization

/// What the log says of a receiver's notes (TXT): each change, not each repeat. A u-blox
/// receiver may say `ANTENNA OK` every second and its five-line banner at every restart; the
/// log says each once, and again only when it changes (`ANTENNA OPEN`, then `ANTENNA OK`).
///
/// A note's topic is its first word (`ANTENNA`, `ANTSTATUS` of `ANTSTATUS=OK`, `PROTVER`; a
/// word ends at a space, `=`, `:` or `,`), whatever its kind (u-blox says `ANTENNA OPEN` as a
/// warning and `ANTENNA OK` as a notice): a note is logged when its topic's last note had
/// another text or kind (the last 32 topics are remembered).
/// What is logged is held to ten lines a minute per log, then counted (`LogThrottle`): a
/// receiver, or whoever feeds the stream, decides neither how much is logged nor how long a
/// line is, and its text is shown escaped (`PeerText`) and cut at 120 characters.
final class ReceiverNoteLog: Sendable {
    /// Characters of a note's text shown (TXT carries 61 a sentence).
    static let shownLength = 120
    /// Topics whose last text is remembered; the one heard of least recently goes first.
    static let topics = 32

    private let throttle: LogThrottle
    private let last = Mutex<[(topic: Substring, note: ReceiverNote)]>([])

    /// `burst` notes logged a `window` (then counted), on `now`'s clock (a test's, or the
    /// monotonic clock).
    init(window: Duration = .seconds(60), burst: Int = 10, now: @escaping @Sendable () -> Double = { Clocks.monotonicSeconds }) {
        throttle = LogThrottle(window: window, burst: burst, now: now)
    }

    /// The lines to log for `note` of `source` (without the `gpsfix: ` every log line
    /// starts with): none for a repeat, the note (and a count held back before it) for news.
    func lines(_ note: ReceiverNote, source: String) -> [String] {
        let topic = Self.topic(note)
        let news = last.withLock { last -> Bool in
            if let i = last.firstIndex(where: { $0.topic == topic }) {
                let same = last[i].note.text == note.text && last[i].note.severity == note.severity
                last.remove(at: i)
                last.append((topic, note))
                return !same
            }
            if last.count >= Self.topics { last.removeFirst() }
            last.append((topic, note))
            return true
        }
        guard news else { return [] }
        return throttle.admit("note", summary: "receiver notes from \(source)") { Self.line(note, source: source) }
    }

    /// Counts held back, told at the end of a run.
    func flush() -> [String] { throttle.flush() }

    /// "/dev/ttyACM0: receiver notice: ANTENNA OK".
    static func line(_ note: ReceiverNote, source: String) -> String {
        "\(source): receiver " + words(note)
    }

    /// "notice: ANTENNA OK": its kind and its text, escaped and cut.
    static func words(_ note: ReceiverNote) -> String {
        let kind = switch note.severity {
        case .error?: "error"
        case .warning?: "warning"
        case .notice?: "notice"
        case .user?, nil: "message"
        case let other?: "message (type \(other.rawValue))"
        }
        return "\(kind): " + PeerText.display(note.text, limit: shownLength) + (note.isComplete ? "" : " (incomplete)")
    }

    /// Its first word (up to a space, `=`, `:` or `,`), at most 24 characters of it.
    private static func topic(_ note: ReceiverNote) -> Substring {
        note.text.prefix { $0 != " " && $0 != "=" && $0 != ":" && $0 != "," }.prefix(24)
    }
}
