import GPSLocation
import GPSMQTT
import GPSSystem

/// What a fleet's publishers cause gpsfix to log, held to a rate: anyone who may publish under
/// the prefix could otherwise write the journal (50,000 new vehicles, one line each). A kind
/// of refusal is said once with the first vehicle it hit, then counted ("49999 reports …
/// refused in the last minute"); vehicles gone offline or silent, and back, are said for the
/// first five a minute, then counted. Counts come with the next line of their kind, on the
/// reader's tick (once a second) once their minute is over, and at the end.
final class FleetLog: Sendable {
    private let write: @Sendable (String) -> Void
    private let refusals: LogThrottle
    private let departures: LogThrottle

    init(window: Duration = .seconds(60), write: @escaping @Sendable (String) -> Void) {
        self.write = write
        refusals = LogThrottle(window: window, burst: 1)
        departures = LogThrottle(window: window, burst: 5)
    }

    /// What the reader told: a refusal is logged (held to the rate); a tick tells counts due.
    func take(_ news: FleetNews) {
        switch news {
        case .refused(let vehicle, let why):
            // The line is made only when it is written: most refusals are only counted.
            let (kind, summary) = Self.kind(why)
            say(refusals.admit(kind, summary: summary, line: { Self.line(PeerText.display(vehicle), why) }))
        case .tick:
            say(refusals.due() + departures.due())
        case .stopped:
            flush()
        case .forgotten:
            break
        }
    }

    /// A line about one vehicle's state (offline, silent, back): peers decide how many.
    func vehicle(_ line: String) {
        say(departures.admit("vehicle", summary: "vehicles gone offline, silent or back", line: { line }))
    }

    /// Every count still held, at the end.
    func flush() { say(refusals.flush() + departures.flush()) }

    private func say(_ lines: [String]) {
        for line in lines { write(line.hasPrefix("gpsfix: ") ? line : "gpsfix: " + line) }
    }

    private static func kind(_ why: FleetRefusal) -> (String, String) {
        switch why {
        case .full(let limit): ("full", "reports from new vehicles refused (fleet full at \(limit))")
        case .badName(let limit): ("name", "reports refused for a vehicle name empty, over \(limit) bytes or not plain text")
        case .flooding(let rate): ("flood", "reports dropped from vehicles over \(Int(rate)) a second")
        }
    }

    private static func line(_ vehicle: String, _ why: FleetRefusal) -> String {
        switch why {
        case .full(let limit):
            "fleet full: \(limit) vehicles known (--mqtt-max-vehicles); reports from new ones (first: '\(vehicle)') are refused until a known one is forgotten (offline or silent for 10 min)"
        case .badName(let limit):
            "refused reports under a vehicle name empty, longer than \(limit) bytes or holding characters that do not show as themselves (controls, bidi, zero-width): '\(vehicle)'"
        case .flooding(let rate):
            "vehicle '\(vehicle)' sends more than \(Int(rate)) reports a second: the rest are dropped unread, so the others are still read"
        }
    }
}
