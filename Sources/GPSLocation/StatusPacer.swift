import GPSSystem

/// How often the service manager hears a new status: a change of kind (a fix gained or lost,
/// the receiver gone) after at least `kindGap` seconds since the last, a change of detail
/// only (a satellite more) after `detailGap`, and nothing that says what was said already.
/// A 10 Hz receiver whose satellite count flickers must not send the manager ten lines a second.
///
/// Times are passed in (seconds of a monotonic clock), so the rules are one value's and can
/// be checked without waiting.
public struct StatusPacer: Sendable {
    /// The least time between two statuses of different kinds (1 s).
    public var kindGap: Duration = .seconds(1)
    /// The least time between two statuses of the same kind (10 s).
    public var detailGap: Duration = .seconds(10)
    /// The status sent last.
    public private(set) var sent: ServiceStatus?
    private var sentAt = -Double.infinity
    private var pending: ServiceStatus?

    /// A pacer that has sent nothing yet.
    public init() {}

    /// Takes the newest status; returns it when it is to be sent now.
    public mutating func offer(_ status: ServiceStatus, now: Double) -> ServiceStatus? {
        guard status != sent else {
            pending = nil
            return nil
        }
        pending = status
        return due(now: now)
    }

    /// The status held back, once its time has come.
    public mutating func due(now: Double) -> ServiceStatus? {
        guard let status = pending else { return nil }
        let gap = status.kind == sent?.kind ? detailGap : kindGap
        guard now - sentAt >= gap.inSeconds else { return nil }
        take(status, now: now)
        return status
    }

    /// Records `status` as sent now, whatever the gap (the first one, a failure).
    public mutating func take(_ status: ServiceStatus, now: Double) {
        sent = status
        sentAt = now
        pending = nil
    }
}
