public import NMEA

/// Everything a `LocationService` passes on to its subscribers, in the order it happened.
public enum LocationEvent: Equatable, Sendable {
    case fix(Fix)
    case sky(SkyView)
    case status(SourceStatus)
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
