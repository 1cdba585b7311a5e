public import NMEA

/// Everything a `LocationService` passes on to its subscribers, in the order it happened.
///
/// A fix, a sky view and a status are kept boxed: an event is handed through several layers
/// (the service, each subscriber, an output and its format), and each hand-over of an event
/// held inline copied all of it, a fix's 296 bytes even for a status. Boxed, the fix is made
/// once per epoch and every layer shares it.
public enum LocationEvent: Hashable, Codable, Sendable {
    indirect case fix(Fix)
    indirect case sky(SkyView)
    indirect case status(SourceStatus)
    case error(LocationError)
    case sentence(String)

    /// Whether this is the last event of the source's run.
    ///
    /// Asked of every event: a `switch` over a borrowed event looks at it in place, where one
    /// over `self` copies the event first, a fix's room included.
    public var isTerminal: Bool { Self.isTerminal(self) }

    /// Whether this is a `.status`, asked without taking anything out of the event.
    public var isStatus: Bool { Self.isStatus(self) }

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
