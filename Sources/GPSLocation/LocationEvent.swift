public import NMEA

/// Everything a `LocationService` passes on to its subscribers, in the order it happened.
///
/// A fix, a sky view and a status are kept boxed: an event is handed through several layers
/// (the service, each subscriber, an output and its format), and each hand-over of an event
/// held inline copied all of it, a fix's 528 bytes even for a status. Boxed, the fix is made
/// once per epoch and every layer shares it.
///
/// `LocationService.updates()` yields every kind but `.error`: a stream throws the failure.
public enum LocationEvent: Hashable, Codable, Sendable {
    /// An epoch's fix, with or without a position (`hasFix`, `coordinate`).
    indirect case fix(Fix)
    /// An epoch's satellites.
    indirect case sky(SkyView)
    /// The source's state; `.finished` and `.stopped` end a run.
    indirect case status(SourceStatus)
    /// The source failed; the run is over.
    case error(LocationError)
    /// A checked NMEA sentence as received, when the source forwards them.
    case sentence(String)
    /// A message the receiver sent as text (TXT: "ANTENNA OK", its firmware at start-up):
    /// the receiver's words, to be escaped before they are shown (`PeerText`).
    indirect case note(ReceiverNote)

    /// Whether this is the last event of the source's run.
    ///
    /// Asked of every event: a `switch` over a borrowed event looks at it in place, where one
    /// over `self` copies the event first, a fix's room included.
    public var isTerminal: Bool { Self.isTerminal(self) }

    /// Whether this is a `.status`, asked without taking anything out of the event.
    public var isStatus: Bool { Self.isStatus(self) }

    /// Whether this is a `.note`, asked without taking anything out of the event.
    public var isNote: Bool { Self.isNote(self) }

    private static func isNote(_ event: borrowing LocationEvent) -> Bool {
        switch event {
        case .note: true
        default: false
        }
    }

    private static func isTerminal(_ event: borrowing LocationEvent) -> Bool {
        switch event {
        case .error: true
        case .status(let s): s.isTerminal
        default: false
        }
    }

    private static func isStatus(_ event: borrowing LocationEvent) -> Bool {
        switch event {
        case .status: true
        default: false
        }
    }
}
