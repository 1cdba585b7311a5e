public import NMEA

/// The one protocol every source of fixes conforms to: a serial receiver, gpsd, a replayed
/// capture, or a mock in a test. Nothing above the managers knows which one it has.
///
/// **The delivery rule** every manager keeps: every event of a run (from one
/// `startUpdatingLocation()` to its end) is delivered through the delegate on one thread, the
/// run's own, in order, and nothing follows the run's terminal event (`.finished`, or a
/// failure). A manager tolerates `stopUpdatingLocation()` from any thread, and after it has
/// stopped it calls the delegate no more; it does not report `.stopped` itself (the
/// `LocationService` that stopped it does, keeping the same rule). Starting a running manager
/// does nothing.
public protocol LocationManagerInterface: AnyObject, Sendable {
    /// Who hears the runs' news: held weakly (the delegate, usually a `LocationService`, owns
    /// the manager). One delegate at a time; a `LocationService` is the only one a manager
    /// has once it is given to one.
    var delegate: (any LocationManagerDelegate)? { get set }
    /// What the source is, for people: "/dev/ttyACM0", "gpsd at 127.0.0.1:2947", a file path.
    var sourceDescription: String { get }
    /// Begins a run on the manager's own thread, unless one is under way.
    func startUpdatingLocation()
    /// Ends the current run, if any; the manager reports nothing more of it. From any thread.
    func stopUpdatingLocation()
    /// What the engine has counted on this source so far (sentences, bad checksums, epochs),
    /// for a view that shows them while the run lasts. Nil for a source that does not parse
    /// NMEA itself (gpsd) or has read nothing yet. From any thread.
    var statistics: Statistics? { get }
    /// What has arrived so far, in bytes and sentences, for telling why no fix came. Nil for a
    /// source that does not read bytes itself (gpsd) or cannot be silent (a capture). From any
    /// thread.
    var reception: Reception? { get }
}

public extension LocationManagerInterface {
    var statistics: Statistics? { nil }
    var reception: Reception? { nil }
}

/// How a manager reports; the shape of CoreLocation's delegate, with Linux sources' news added.
///
/// Called under the delivery rule (see `LocationManagerInterface`): every call of a run on
/// the run's thread, in order, none after its terminal one (`didChangeStatus` with a terminal
/// status, or `didFailWithError`). A delegate method that takes long holds the source up.
public protocol LocationManagerDelegate: AnyObject, Sendable {
    /// An epoch's fix, with or without a position (`hasFix`).
    func locationManager(_ manager: any LocationManagerInterface, didUpdateFix fix: Fix)
    /// An epoch's satellites.
    func locationManager(_ manager: any LocationManagerInterface, didUpdateSkyView sky: SkyView)
    /// The source's state changed; `.finished` is terminal.
    func locationManager(_ manager: any LocationManagerInterface, didChangeStatus status: SourceStatus)
    /// The source cannot go on. It has stopped; nothing more will follow.
    func locationManager(_ manager: any LocationManagerInterface, didFailWithError error: LocationError)
    /// A checked NMEA sentence exactly as received (without its line ending), for passthrough.
    func locationManager(_ manager: any LocationManagerInterface, didReceiveSentence sentence: String)
    /// A message the receiver sent as text (TXT), whole: its antenna's state, its firmware,
    /// an error. The text is the receiver's: escape it before showing it (`PeerText`).
    func locationManager(_ manager: any LocationManagerInterface, didReceiveNote note: ReceiverNote)
}

public extension LocationManagerDelegate {
    func locationManager(_ manager: any LocationManagerInterface, didUpdateSkyView sky: SkyView) {}
    func locationManager(_ manager: any LocationManagerInterface, didChangeStatus status: SourceStatus) {}
    func locationManager(_ manager: any LocationManagerInterface, didReceiveSentence sentence: String) {}
    func locationManager(_ manager: any LocationManagerInterface, didReceiveNote note: ReceiverNote) {}
}

/// The state of a source, as a person watching it would want to know.
public enum SourceStatus: Hashable, Codable, Sendable {
    /// Not there yet (no receiver plugged in, the peer not answering), and waited for: a
    /// service that must come up before its receiver. `.started` follows once it is.
    case waiting(reason: String)
    /// Opened and reading; no fix yet.
    case started
    /// The source delivered data after a gap or a reconnect.
    case streaming
    /// The device disappeared (unplugged, gpsd went away); waiting for it to come back.
    case disconnected(reason: String)
    /// Trying again, after `attempt` failures.
    case reconnecting(attempt: Int)
    /// Open, but nothing has arrived for a while: `after` is how long, measured on the
    /// monotonic clock.
    case stale(after: Duration)
    /// A finite source (a capture without `--loop`) has delivered everything.
    case finished(Statistics)
    /// Stopped on request.
    case stopped

    /// Whether no more fixes can follow.
    public var isTerminal: Bool {
        switch self {
        case .finished, .stopped: true
        default: false
        }
    }
}
