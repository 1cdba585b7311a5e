import GPSLocation
import GPSSystem

/// How much of itself a fleet reader gives to the vehicles it hears of: anyone who may publish
/// under the prefix decides which vehicles exist, so none of these is theirs to decide.
public struct FleetLimits: Sendable, Equatable {
    /// Vehicles known at once; a report from one more is refused (counted, logged) until a
    /// known one is forgotten. Each costs a device on the server and a few hundred bytes here.
    public var maxVehicles = 1000
    /// The longest vehicle name, in bytes of UTF-8: the topic levels the prefix's wildcards
    /// match (`van7` under `fleet/+`). Longer (or empty) is refused: it would be the device's
    /// name in every report and every DEVICES. So is a name that would not show as itself
    /// (controls, bidi overrides, zero-width characters: `PeerText`), which cgps and any gpsd
    /// client would print as it came.
    public var maxNameBytes = 64
    /// A vehicle offline, or silent, this long is forgotten (its device freed); it comes back
    /// as new with its next report.
    public var forgetAfter: Duration = .seconds(600)
    /// Reports (and statuses) a vehicle may send per second, on average, with bursts of
    /// `burst`: a 10 Hz receiver's TPV and SKY are about 11. The rest are dropped unread and
    /// counted, so one vehicle's flood costs a look at its topic, not the others' reports.
    public var reportsPerSecond: Double = 50
    /// Reports a vehicle may send at once after a quiet spell, above its `reportsPerSecond`
    /// (the size of its token bucket): a newcomer starts with this many, less the report that
    /// made it known.
    public var burst: Double = 100

    /// The vehicles known at once when `--mqtt-max-vehicles` is not given (``maxVehicles``'s
    /// default), as `--help` states it.
    public static let defaultMaxVehicles = 1000
    /// The most `--mqtt-max-vehicles` may ask for: each vehicle is a device whose last TPV and
    /// SKY the server keeps (a few kB), and a line in every DEVICES.
    public static let largestMaxVehicles = 10_000

    /// The defaults above: 1000 vehicles, names of 64 bytes, forgotten after 10 minutes, 50
    /// reports a second with bursts of 100.
    public init() {}
}

/// What a fleet reader tells its owner beside the location events, on the client's thread.
public enum FleetNews: Sendable, Equatable {
    /// A report was refused: `vehicle` as its topic named it (a peer's text: shown only
    /// through `PeerText`, and only when a line is written, as a refusal must stay cheap).
    case refused(vehicle: String, FleetRefusal)
    /// Offline or silent for `FleetLimits.forgetAfter`: its device may go (raw name, as the
    /// label of its events was).
    case forgotten(vehicle: String)
    /// About a second has passed (for counts held back in a log).
    case tick
    /// The reader has stopped: counts held back are for telling now.
    case stopped
}

/// Why a fleet reader did not read a vehicle's message (``FleetNews/refused(vehicle:_:)``),
/// each with the limit it met, for the line that tells of it.
public enum FleetRefusal: Sendable, Equatable {
    /// `maxVehicles` are known: a new one is not taken.
    case full(limit: Int)
    /// Its name is empty, longer than `maxNameBytes`, or does not show as itself.
    case badName(limit: Int)
    /// Over its `reportsPerSecond`.
    case flooding(perSecond: Double)
}

/// The vehicles a fleet reader knows, their last word and their share of its time. Used on
/// the client's thread only.
struct FleetRoster {
    let limits: FleetLimits

    struct Vehicle {
        var lastHeard: Double
        var offlineSince: Double?
        var tokens: Double
        var refilled: Double
    }
    private(set) var vehicles: [String: Vehicle] = [:]
    private var lastSweep = 0.0

    init(limits: FleetLimits) { self.limits = limits }

    enum Verdict: Equatable {
        case known
        /// First heard of now (or again, after it was forgotten).
        case new
        case refused(FleetRefusal)
    }

    /// Whether a message of `vehicle` is read. Only a report (`creating`) makes a vehicle
    /// known; a status of one not known is nil (nothing to tell).
    mutating func admit(_ vehicle: String, creating: Bool, now: Double) -> Verdict? {
        let bytes = vehicle.utf8.count
        guard bytes > 0, bytes <= limits.maxNameBytes else { return .refused(.badName(limit: limits.maxNameBytes)) }
        if var known = vehicles[vehicle] {
            known.tokens = min(limits.burst, known.tokens + (now - known.refilled) * limits.reportsPerSecond)
            known.refilled = now
            guard known.tokens >= 1 else {
                vehicles[vehicle] = known
                return .refused(.flooding(perSecond: limits.reportsPerSecond))
            }
            known.tokens -= 1
            known.lastHeard = now
            vehicles[vehicle] = known
            return .known
        }
        guard creating else { return nil }
        guard vehicles.count < limits.maxVehicles else { return .refused(.full(limit: limits.maxVehicles)) }
        // Judged once, when it becomes known (a known name was judged then), and after the
        // cheaper count: a full fleet refuses 50,000 newcomers without reading their names.
        guard PeerText.isPlain(vehicle, limit: limits.maxNameBytes) else { return .refused(.badName(limit: limits.maxNameBytes)) }
        vehicles[vehicle] = Vehicle(lastHeard: now, tokens: limits.burst - 1, refilled: now)
        return .new
    }

    /// `vehicle` said `offline` (true) or `online`; true when that is news.
    mutating func mark(_ vehicle: String, offline: Bool, now: Double) -> Bool {
        guard var known = vehicles[vehicle], (known.offlineSince != nil) != offline else { return false }
        known.offlineSince = offline ? now : nil
        vehicles[vehicle] = known
        return true
    }

    /// The vehicles offline or silent for `forgetAfter`, forgotten now. Looks at most once a
    /// second (a walk over at most `maxVehicles`).
    mutating func forget(now: Double) -> [(vehicle: String, wasOffline: Bool)] {
        guard now - lastSweep >= 1 || now < lastSweep else { return [] }
        lastSweep = now
        let gone = vehicles.filter { now - max($0.value.lastHeard, $0.value.offlineSince ?? 0) >= limits.forgetAfter.inSeconds }
        for name in gone.keys { vehicles[name] = nil }
        return gone.map { ($0.key, $0.value.offlineSince != nil) }.sorted { $0.vehicle < $1.vehicle }
    }
}
