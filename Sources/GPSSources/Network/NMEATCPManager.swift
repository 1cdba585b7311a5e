import GPSSystem
public import NMEA
public import GPSLocation
import Synchronization

/// Reads NMEA that a receiver or an app serves over TCP: an Emlid Reach, a SparkFun RTK
/// board, a phone's "NMEA server", another gpsfix's `--nmea-listen`, or gpsd's raw port. The
/// connection is the whole source; the engine and everything after it are the same as for a
/// serial receiver. A dropped connection is `.disconnected`, then `.reconnecting` with back-off
/// until the peer serves again. A peer that cannot be reached at start is a failure, unless
/// `waitsForPeer` (a service that must come up before its receiver).
public final class NMEATCPManager: LocationManagerInterface {
    /// How the manager treats its peer: when a quiet stream is stale, whether to connect again,
    /// what reaches the delegate. Fixed when the manager is made.
    public struct Options: Sendable {
        /// How long without a byte before the stream is reported `.stale`.
        public var staleAfter: Duration
        /// Whether to connect again after the peer closed or lost the connection.
        public var reconnect: Bool
        /// Whether a peer that cannot be reached at start is waited for rather than a failure.
        public var waitsForPeer: Bool
        /// Whether to pass every checked sentence to the delegate (`didReceiveSentence`).
        public var forwardsSentences: Bool
        /// Whether a receiver's simulator output (GGA quality 8, mode S) counts as fixes.
        public var acceptsSimulatedFixes: Bool
        /// How long one connection attempt may take.
        public var connectTimeout: Duration

        /// Options as stated; the defaults are a service's: stale after 5 s without a byte,
        /// connect again after a drop, fail at once when the peer cannot be reached at start,
        /// no sentences forwarded, simulated fixes refused, 5 s to connect.
        public init(staleAfter: Duration = .seconds(5), reconnect: Bool = true, waitsForPeer: Bool = false,
                    forwardsSentences: Bool = false, acceptsSimulatedFixes: Bool = false,
                    connectTimeout: Duration = .seconds(5)) {
            self.staleAfter = staleAfter
            self.reconnect = reconnect
            self.waitsForPeer = waitsForPeer
            self.forwardsSentences = forwardsSentences
            self.acceptsSimulatedFixes = acceptsSimulatedFixes
            self.connectTimeout = connectTimeout
        }
    }

    /// The peer's host name or address (IPv4, or IPv6 without brackets), as given.
    public let host: String
    /// The peer's TCP port, as given.
    public let port: Int
    /// The options the manager was made with.
    public let options: Options
    private let source = StreamSource(threadName: "gpsfix-nmea-tcp")
    private let bytesHandler = Mutex<(@Sendable (UnsafeRawBufferPointer) -> Void)?>(nil)

    /// Back-off between connection attempts.
    static let reconnection = Reconnection(first: 0.25, longest: 4.0)
    /// This manager's back-off: `reconnection`, or a test's on a `VirtualClock`.
    let reconnection: Reconnection

    /// A manager for the NMEA served at `host`:`port`; nothing is connected until
    /// `startUpdatingLocation()`, which connects on the manager's own reader thread.
    public convenience init(host: String, port: Int, options: Options = .init()) {
        self.init(host: host, port: port, options: options, reconnection: Self.reconnection)
    }

    init(host: String, port: Int, options: Options, reconnection: Reconnection) {
        self.host = host
        self.port = port
        self.options = options
        self.reconnection = reconnection
    }

    public var delegate: (any LocationManagerDelegate)? {
        get { source.relay.delegate }
        set { source.relay.delegate = newValue }
    }

    /// "HOST:PORT" (brackets around an IPv6 address).
    public var sourceDescription: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    public var statistics: Statistics? { source.counted.value }

    public var reception: Reception? { source.received.value }

    /// Every byte exactly as received, in order, on the reader thread (for `gpsfix record`).
    /// Set before start.
    public var onBytes: (@Sendable (UnsafeRawBufferPointer) -> Void)? {
        get { bytesHandler.withLock { $0 } }
        set { bytesHandler.withLock { $0 = newValue } }
    }

    public func startUpdatingLocation() {
        var settings = StreamReader.Settings()
        settings.staleAfter = options.staleAfter.inSeconds
        settings.forwardsSentences = options.forwardsSentences
        settings.acceptsSimulatedFixes = options.acceptsSimulatedFixes
        settings.onBytes = onBytes
        settings.stampsArrival = true
        source.start(self, settings: settings) { [self] run in NetworkOpener(manager: self, run: run) }
    }

    public func stopUpdatingLocation() {
        source.stop()
    }
}

/// Connects, and says that a lost connection is connected again.
private final class NetworkOpener: StreamOpener {
    let manager: NMEATCPManager
    let run: SourceRuns.Run

    init(manager: NMEATCPManager, run: SourceRuns.Run) {
        self.manager = manager
        self.run = run
    }

    func open() throws(LocationError) -> any ByteStream {
        do {
            return try connect()
        } catch {
            throw .streamUnavailable(peer: manager.sourceDescription, reason: error.description)
        }
    }

    var waitsToOpen: Reconnection? { manager.options.waitsForPeer ? manager.reconnection : nil }

    func afterEnd(of stream: any ByteStream, reason: String?, passes: Int, statistics: Statistics) -> StreamEndAction {
        manager.options.reconnect
            ? .reconnect(manager.reconnection)
            : .fail(.streamUnavailable(peer: manager.sourceDescription, reason: reason ?? "the connection ended"))
    }

    func reopen() -> (any ByteStream)? { try? connect() }

    private func connect() throws(SocketError) -> TCPStream {
        guard let wakeup = run.wakeup else { throw .stopped }
        let connection = try TCPConnection.connect(host: manager.host, port: manager.port,
                                                   timeout: manager.options.connectTimeout, wakeup: wakeup)
        return TCPStream(connection, name: manager.sourceDescription)
    }
}

/// An open connection, read.
private final class TCPStream: ByteStream {
    let connection: TCPConnection
    let name: String

    init(_ connection: TCPConnection, name: String) {
        self.connection = connection
        self.name = name
    }

    var descriptor: FileDescriptor? { connection.descriptor }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamRead {
        do {
            guard case .processed(let count) = try connection.receive(into: buffer) else { return .nothing }
            guard count > 0 else { return .end(reason: "the connection was closed by the other end") }
            return .bytes(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        } catch {
            return .end(reason: "\(error)")
        }
    }
}
