public import NMEA

/// What a service manager says of a service (`systemctl status`): its source's state in a
/// few words ("/dev/ttyACM0: 3D fix, 9 satellites used"), and what kind of state that is,
/// so that a change of kind can be told at once and a change of detail (a satellite more)
/// less often (`StatusPacer`). The words are the app's: `ServiceManagerLink` is given them.
public struct ServiceStatus: Equatable, Sendable {
    /// What kind of state the words tell.
    public enum Kind: Equatable, Sendable {
        /// The source is not there (yet).
        case absent
        /// Open, nothing received yet.
        case waiting
        /// Receiving.
        case receiving
        /// Gone (unplugged, dropped).
        case gone
        /// Trying to get it back.
        case reconnecting
        /// Open, but silent.
        case silent
        /// Ended (a capture's end, a stop).
        case ended
        /// Failed: said at once, and kept.
        case failed
        /// Fixes of this mode.
        case fix(FixMode)
    }

    /// The words.
    public let text: String
    /// Their kind.
    public let kind: Kind

    /// A status of `text`, of `kind`.
    public init(text: String, kind: Kind) {
        self.text = text
        self.kind = kind
    }

    /// Before anything has said more: the source is open and talking.
    public static func receiving(_ source: String) -> ServiceStatus {
        ServiceStatus(text: "\(source): receiving", kind: .receiving)
    }
}
