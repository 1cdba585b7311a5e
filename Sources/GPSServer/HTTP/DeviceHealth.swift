import GPSLocation
import NMEA

/// What the page and the metrics say of one device, kept from the events the server
/// publishes: its last fix and sky view as values, counts, and its source's state. Only
/// kept when the server has a page to show it on.
struct DeviceHealth {
    /// The source's state as one word (`waiting`, `started`, `streaming`, `stale`,
    /// `disconnected`, `reconnecting`, `finished`, `failed`, `stopped`).
    var state = "waiting"
    /// Reports of position published (TPVs, one per epoch) and those with a fix among them.
    var epochs = 0
    var fixes = 0
    var lastFix: Fix?
    var lastSky: SkyView?
    /// When the last fix with a position came (monotonic seconds).
    var lastFixAt: Double?
    /// The last live fix's arrival less its time (seconds): how late the NMEA is, as
    /// `gpsfix timing` measures it; nil for a replay, which has no arrival.
    var timeOffset: Double?
    /// The source's counts (sentences, bad checksums), read when asked.
    var statistics: (@Sendable () -> Statistics?)?

    mutating func take(_ event: LocationEvent, now: Double) {
        switch event {
        case .fix(let fix):
            streaming()
            epochs &+= 1
            lastFix = fix
            guard fix.hasFix else { return }
            fixes &+= 1
            lastFixAt = now
            if !fix.isPartialEpoch, let arrival = fix.arrival, let ms = fix.timestamp?.millisecondsSinceEpoch {
                let offset = arrival - Double(ms) / 1000
                // A receiver whose clock is a day off says nothing useful about delay.
                timeOffset = abs(offset) < 86_400 ? offset : nil
            }
        case .sky(let sky):
            streaming()
            lastSky = sky
        case .status(let status):
            state = Self.word(status)
        case .error:
            state = "failed"
        case .sentence, .note:
            break
        }
    }

    /// Data is coming: a replay, which tells no link's state, is streaming too.
    private mutating func streaming() {
        if state != "finished" && state != "failed" && state != "stopped" { state = "streaming" }
    }

    static func word(_ status: SourceStatus) -> String {
        switch status {
        case .waiting: "waiting"
        case .started: "started"
        case .streaming: "streaming"
        case .disconnected: "disconnected"
        case .reconnecting: "reconnecting"
        case .stale: "stale"
        case .finished: "finished"
        case .stopped: "stopped"
        }
    }
}
