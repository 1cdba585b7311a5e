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
        case .status(let s): s.isTerminal
        case .error: true
        default: false
        }
    }
}
