public import NMEA

/// Everything a `LocationService` passes on to its subscribers, in the order it happened.
public enum LocationEvent: Equatable, Sendable {
    case fix(Fix)
    case sky(SkyView)
    case status(SourceStatus)
    case error(LocationError)
    case sentence(String)

    /// Whether this is the last event of the source's run.
    public var isTerminal: Bool {
        switch self {
        case .error: return true
        // Only a status is taken out of the event, and only when it is one: doing so copies
        // the event whole, and this is asked of every fix.
        case .status: if case .status(let s) = self { return s.isTerminal } else { return false }
        default: return false
        }
    }

    /// Whether this is a `.status`, asked without taking anything out of the event.
    public var isStatus: Bool {
        if case .status = self { true } else { false }
    }
}
