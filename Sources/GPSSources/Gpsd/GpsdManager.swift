import GPSSystem
import CGPS
import Glibc
public import GPSLocation
import Synchronization

/// Reads fixes from a running gpsd through libgps, so that a machine's shared receiver is a
/// source like any other.
///
/// A dedicated thread opens the connection (`gps_open`, then `gps_stream` with
/// `WATCH_ENABLE | WATCH_JSON`), waits with `gps_waiting` and reads with `gps_read`; TPV
/// reports become fixes, SKY reports sky views. gpsd going away (`gps_read` fails) or going
/// silent for `watchdog` seconds (a stopped gpsd gives no error at all) is a status,
/// `.disconnected`, followed by `.reconnecting` with bounded back-off and `.streaming` once
/// reports flow again. A gpsd that cannot be reached at start is a failure
/// (`.gpsdUnavailable`), reported at once, unless `waitsForGpsd`.
public final class GpsdManager: LocationManagerInterface {
    public let host: String
    public let port: Int
    /// Seconds without any report from gpsd before the connection counts as lost.
    public let watchdog: Double
    /// Whether to reconnect after gpsd went away, once it had been reached.
    public let reconnect: Bool
    /// Whether to ask gpsd for the receiver's sentences too ("nmea" in the watch) and pass
    /// them on through `didReceiveSentence`, for `--nmea` and for `serve`'s NMEA watchers.
    public let forwardsSentences: Bool
    /// Whether a gpsd not reachable at start is waited for (`.waiting`, then tried again with
    /// back-off: a service started before gpsd), rather than a failure.
    public let waitsForGpsd: Bool

    let relay = DelegateRelay()
    let runs = SourceRuns(name: "gpsfix-gpsd")

    public init(host: String = "127.0.0.1", port: Int = 2947, watchdog: Double = 5, reconnect: Bool = true,
                forwardsSentences: Bool = false, waitsForGpsd: Bool = false) {
        self.host = host
        self.port = port
        self.watchdog = watchdog
        self.reconnect = reconnect
        self.forwardsSentences = forwardsSentences
        self.waitsForGpsd = waitsForGpsd
    }

    public var delegate: (any LocationManagerDelegate)? {
        get { relay.delegate }
        set { relay.delegate = newValue }
    }

    public var sourceDescription: String { "gpsd at \(host):\(port)" }

    public func startUpdatingLocation() {
        runs.start { [self] run in
            GpsdSession(manager: self, reporter: RunReporter(manager: self, relay: relay, runs: runs, run: run)).main()
        }
    }

    public func stopUpdatingLocation() {
        runs.stop()
    }
}

/// One run of a `GpsdManager`, on its own thread: connect, read, reconnect, until stopped or
/// failed. Owns the one `gps_data_t` of the run, which never moves.
private final class GpsdSession {
    /// Back-off between attempts to reach gpsd again.
    static let reconnection = Reconnection(first: 0.25, longest: 4.0)
    /// How long one gps_waiting may block before the stop flag is looked at again.
    static let waitSlice: Int32 = 100_000 // microseconds

    let manager: GpsdManager
    let reporter: RunReporter
    var run: SourceRuns.Run { reporter.run }
    let data: UnsafeMutablePointer<gps_data_t>
    /// Where gps_read copies the line it read, to pass sentences on; nil when not wanted.
    let message: UnsafeMutablePointer<CChar>?
    static let messageCapacity: Int32 = 1024

    init(manager: GpsdManager, reporter: RunReporter) {
        self.manager = manager
        self.reporter = reporter
        message = manager.forwardsSentences ? .allocate(capacity: Int(Self.messageCapacity)) : nil
        data = .allocate(capacity: 1)
        // Zeroed in place, never assigned a value (that would be a copy of 24 KB).
        UnsafeMutableRawPointer(data).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<gps_data_t>.size)
    }

    deinit {
        data.deallocate()
        message?.deallocate()
    }

    enum End {
        case stopped
        case lost(reason: String)
    }

    func main() {
        if let reason = open() {
            let error = LocationError.gpsdUnavailable(host: manager.host, port: manager.port, reason: reason)
            guard manager.waitsForGpsd else { return fail(error) }
            reporter.status(.waiting(reason: error.description))
            guard connectAgain(reporting: nil) else { return }
        }
        notify { $0.locationManager(manager, didChangeStatus: .started) }
        var afterGap = false
        while true {
            let end = read(afterGap: afterGap)
            gps_close(data) // once for each successful gps_open
            switch end {
            case .stopped:
                return
            case .lost(let reason):
                notify { $0.locationManager(manager, didChangeStatus: .disconnected(reason: reason)) }
                guard manager.reconnect else {
                    return fail(.gpsdUnavailable(host: manager.host, port: manager.port, reason: reason))
                }
                guard connectAgain(reporting: reporter) else { return }
                afterGap = true
            }
        }
    }

    /// Connects and asks for reports; nil on success, else why not.
    private func open() -> String? {
        let opened = gps_open(manager.host, String(manager.port), data)
        if opened != 0 {
            let code = errno
            return String(cString: gps_errstr(code))
        }
        let watch = manager.forwardsSentences ? cgps_watch_enable_json_nmea : cgps_watch_enable_json
        if gps_stream(data, watch, nil) != 0 {
            let code = errno
            gps_close(data)
            return "could not ask it for reports: \(String(cString: gps_errstr(code)))"
        }
        return nil
    }

    /// Tries again with back-off until connected (true) or stopped (false); each attempt is
    /// told through `reporter`, if given.
    private func connectAgain(reporting reporter: RunReporter?) -> Bool {
        var connected = false
        let back = Self.reconnection.wait(in: run, reporting: reporter) { () -> Bool? in
            connected = open() == nil
            return connected ? true : nil
        }
        // Connected just as the run was stopped: that connection is closed too.
        if back == nil && connected { gps_close(data) }
        return back != nil
    }

    /// Reads reports until gpsd goes away or silent, or the run is stopped.
    private func read(afterGap: Bool) -> End {
        var waitingForData = afterGap
        var lastReport = Clocks.monotonicSeconds
        while true {
            if run.isStopped { return .stopped }
            if gps_waiting(data, Self.waitSlice) {
                GpsdFields.clearMask(data)
                if gps_read(data, message, message == nil ? 0 : Self.messageCapacity) == -1 {
                    return .lost(reason: "gpsd closed the connection")
                }
                lastReport = Clocks.monotonicSeconds
                if let sentence = sentence() {
                    notify { $0.locationManager(manager, didReceiveSentence: sentence) }
                    continue
                }
                guard let report = GpsdFields.report(data) else { continue }
                // Streaming again once positions or satellites flow, not at gpsd's greeting.
                if waitingForData {
                    waitingForData = false
                    notify { $0.locationManager(manager, didChangeStatus: .streaming) }
                }
                switch report {
                case .fix(let fix): notify { $0.locationManager(manager, didUpdateFix: fix) }
                case .sky(let sky): notify { $0.locationManager(manager, didUpdateSkyView: sky) }
                }
            } else if Clocks.monotonicSeconds - lastReport > manager.watchdog {
                return .lost(reason: "gpsd went silent (nothing for \(format(manager.watchdog)) s)")
            }
        }
    }

    /// The line just read, when it is a sentence (gpsd passes them on as received, each a
    /// line of its own between the JSON reports), without its line ending.
    private func sentence() -> String? {
        guard let message, message[0] == 0x24 || message[0] == 0x21 else { return nil }
        var line = String(cString: message)
        while let last = line.utf8.last, last == 0x0A || last == 0x0D { line.removeLast() }
        return line
    }

    private func notify(_ call: (any LocationManagerDelegate) -> Void) { reporter.notify(call) }

    private func fail(_ error: LocationError) { reporter.fail(error) }

    private func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
