public import NMEA
import GPSSystem
import Dispatch
public import GPSLocation
import Synchronization

/// Reads a GPS receiver on a serial port: a USB puck (`/dev/ttyACM0`, `/dev/ttyUSB0`), a
/// module on a UART (`/dev/ttyS0`, `/dev/serial0`), or anything else that speaks NMEA 0183 on
/// a tty.
///
/// The port is held exclusively and only ever read. Fixes, sky views and status changes arrive
/// on the manager's own reader thread. An unplugged receiver is a status (`.disconnected`, then
/// `.reconnecting` until it is back), not a failure; a port that cannot be opened at start is
/// a failure.
public final class SerialNMEAManager: LocationManagerInterface {
    /// How the manager treats its port: the baud rate, when a quiet port is stale, whether to
    /// wait for a receiver that is unplugged or not there yet, what reaches the delegate.
    /// Fixed when the manager is made.
    public struct Options: Sendable {
        /// The line speed; nil to find it by listening (see `Autobaud`). Ignored for USB
        /// CDC-ACM devices (ttyACM*), which have no line speed.
        public var baud: Int?
        /// How long without a byte before the port is reported `.stale`.
        public var staleAfter: Duration
        /// Whether to wait for an unplugged receiver to come back: at the same path, or under
        /// the same `/dev/serial/by-id` name if it returns as another node.
        public var reconnect: Bool
        /// Whether a port that cannot be opened at start is waited for (`.waiting`, then tried
        /// again every second: a service started before its receiver is plugged in), rather
        /// than the run's failure.
        public var waitsForDevice: Bool
        /// Whether to pass every checked sentence to the delegate (`didReceiveSentence`).
        public var forwardsSentences: Bool
        /// Whether the receiver's simulator output (GGA quality 8, mode S) counts as fixes.
        public var acceptsSimulatedFixes: Bool

        /// Options as stated; the defaults are a service's: the baud rate found by listening,
        /// stale after 5 s without a byte, wait for an unplugged receiver, fail at once when the
        /// port cannot be opened at start, no sentences forwarded, simulated fixes refused.
        public init(baud: Int? = nil, staleAfter: Duration = .seconds(5), reconnect: Bool = true, waitsForDevice: Bool = false,
                    forwardsSentences: Bool = false, acceptsSimulatedFixes: Bool = false) {
            self.baud = baud
            self.staleAfter = staleAfter
            self.reconnect = reconnect
            self.waitsForDevice = waitsForDevice
            self.forwardsSentences = forwardsSentences
            self.acceptsSimulatedFixes = acceptsSimulatedFixes
        }
    }

    /// The port it reads: the one named, or for a manager made to discover, the receiver
    /// found ("" until one is).
    public var path: String { named ?? found.withLock { $0 } ?? "" }
    private let named: String?
    private let found = Mutex<String?>(nil)
    /// The options the manager was made with.
    public let options: Options

    private let source = StreamSource(threadName: "gpsfix-serial")
    private let bytesHandler = Mutex<(@Sendable (UnsafeRawBufferPointer) -> Void)?>(nil)
    private let watcher = Mutex<(any SerialPortWatcher)?>(nil)

    /// Where to look for stable names of the device to find it again after an unplug.
    let stableLinkDirectory: String
    /// What the stale timer goes by; a test's `VirtualClock` makes a port stale without waiting.
    let clock: any WaitClock

    /// A manager for the receiver on the tty at `path` (`/dev/ttyACM0`, a `/dev/serial/by-id/…`
    /// name); the port is not opened until `startUpdatingLocation()`, and a port that cannot be
    /// opened is reported then, through the delegate.
    public convenience init(path: String, options: Options = .init()) {
        self.init(path: path, options: options, stableLinkDirectory: DeviceKind.stableLinkDirectory)
    }

    /// Reads the first GPS receiver that discovery finds (`DeviceDiscovery`) when it starts;
    /// with `waitsForDevice`, waits for one to be plugged in, as gpsd's hotplug does.
    public convenience init(discovering options: Options) {
        self.init(path: nil, options: options, stableLinkDirectory: DeviceKind.stableLinkDirectory)
    }

    /// For tests: `stableLinkDirectory` a stand-in for `/dev/serial/by-id`.
    init(path: String?, options: Options, stableLinkDirectory: String, clock: any WaitClock = MonotonicClock()) {
        named = path
        self.clock = clock
        self.options = options
        self.stableLinkDirectory = stableLinkDirectory
    }

    public var delegate: (any LocationManagerDelegate)? {
        get { source.relay.delegate }
        set { source.relay.delegate = newValue }
    }

    /// The port; "a GPS receiver" while discovery has found none.
    public var sourceDescription: String { path.isEmpty ? "a GPS receiver" : path }

    /// The port discovery found, for a manager made to discover; nil otherwise, or when none
    /// is plugged in (what to open at the start).
    func portToOpen() throws(LocationError) -> String {
        if let named { return named }
        guard let device = DeviceDiscovery.candidates().first else {
            throw .deviceNotFound(searched: DeviceDiscovery.searchedLocations())
        }
        found.withLock { $0 = device.path }
        return device.path
    }

    /// The counts since the port was last opened (a replugged receiver starts from zero).
    public var statistics: Statistics? { source.counted.value }

    /// What has arrived since the port was last opened, and at which rate.
    public var reception: Reception? { source.received.value }

    /// Every byte exactly as read, in order, on the reader thread (for `gpsfix record`). Set
    /// before start. While the rate is being hunted for, the bytes of a rate on trial are held
    /// back and passed on only if it proves right: what was read at a wrong rate is noise.
    public var onBytes: (@Sendable (UnsafeRawBufferPointer) -> Void)? {
        get { bytesHandler.withLock { $0 } }
        set { bytesHandler.withLock { $0 = newValue } }
    }

    /// Lent the port's descriptor each time it is opened, until it is closed (a pulse on a
    /// modem line, watched beside the reader). Set before start.
    public var portWatcher: (any SerialPortWatcher)? {
        get { watcher.withLock { $0 } }
        set { watcher.withLock { $0 = newValue } }
    }

    /// The rate the port is read at once known (set, or found by listening), nil before and
    /// while it is hunted for again after a replug. Nil for a USB CDC-ACM device, which has
    /// no line rate.
    public var baudRate: Int? { source.received.value?.baud }

    /// Opens the port as a start would (exclusively, raw, at the rate named) and lets it go
    /// again: for a caller that must know the port can be read before it commits to something,
    /// as `gpsfix record` before it creates its file. Throws what the start would report.
    public func checkPort() throws(LocationError) {
        let port = try SerialPort.open(path)
        if let baud = options.baud { try port.setSpeed(baud) }
    }

    public func startUpdatingLocation() {
        // Every byte of this run goes to the handler set when it started.
        let onBytes = self.onBytes
        var settings = StreamReader.Settings()
        settings.staleAfter = options.staleAfter.inSeconds
        settings.forwardsSentences = options.forwardsSentences
        settings.acceptsSimulatedFixes = options.acceptsSimulatedFixes
        settings.onBytes = onBytes
        settings.stampsArrival = true
        settings.clock = clock
        source.start(self, settings: settings) { [self] _ in SerialOpener(manager: self) }
    }

    public func stopUpdatingLocation() {
        source.stop()
    }
}
