/// A message the receiver sent as text (TXT): its antenna's state (u-blox's `ANTENNA OK`,
/// `ANTENNA OPEN`, `ANTENNA SHORT`), its firmware and hardware at start-up, an error it hit.
///
/// The text is the receiver's, as sent: peer data. Whoever shows it escapes it first
/// (`PeerText.display`, as `gpsfix watch` does): it may hold anything a sentence can. It is
/// bounded (``maximumLength``), so a receiver does not decide how much memory a note takes.
public struct ReceiverNote: Hashable, Codable, Sendable, CustomStringConvertible {
    /// How the receiver ranks a note: TXT's third field (u-blox's "msgType"; NMEA 0183 calls
    /// it the text identifier).
    public struct Severity: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
        /// The field's number, 0…99.
        public let rawValue: Int

        /// A number as sent, 0…99; nil for any other.
        public init?(rawValue: Int) {
            guard (0...99).contains(rawValue) else { return nil }
            self.rawValue = rawValue
        }

        private init(_ value: Int) { rawValue = value }

        /// 00: an error.
        public static let error = Severity(0)
        /// 01: a warning.
        public static let warning = Severity(1)
        /// 02: a notice (u-blox's start-up banner and antenna state).
        public static let notice = Severity(2)
        /// 07: a message the user had the receiver send.
        public static let user = Severity(7)

        /// "error", "warning", "notice", "user", or "type N" for another number.
        public var description: String {
            switch self {
            case .error: "error"
            case .warning: "warning"
            case .notice: "notice"
            case .user: "user"
            default: "type \(rawValue)"
            }
        }
    }

    /// The most bytes of text a note keeps: four parts of NMEA's 61 characters, with room to
    /// spare. A longer message is cut there (``isComplete`` false).
    public static let maximumLength = 256
    /// The most parts a note is assembled from: a message in more is cut after these.
    public static let maximumParts = 8

    /// How the receiver ranks it; nil when it did not say (a Telit's `$GPTXT,TELIT SW Version…`
    /// has only text), or said a number outside 0…99.
    public var severity: Severity?
    /// What it says, as sent (the parts of a multi-part message joined in order), at most
    /// ``maximumLength`` bytes; not escaped.
    public var text: String
    /// Whether every part arrived, in order, and the text was not cut: false when a part was
    /// missed or a message ran past ``maximumLength`` or ``maximumParts``.
    public var isComplete: Bool

    /// A note as stated: for tests, and for sources that are not NMEA.
    public init(severity: Severity?, text: String, isComplete: Bool = true) {
        self.severity = severity
        self.text = text
        self.isComplete = isComplete
    }

    /// "notice: ANTENNA OK", unescaped (for a log, escape it: it is the receiver's text).
    public var description: String {
        (severity.map { "\($0): " } ?? "") + text + (isComplete ? "" : " […]")
    }
}
