import GPSSystem
public import NMEA
public import GPSLocation
import Synchronization

/// NMEA that an app receives itself, over a transport gpsfix does not open (Bluetooth LE, a
/// websocket, a phone's USB accessory, a test): the app hands the bytes to `feed(_:)` as they
/// come, and the manager frames, checks and decodes them as it does a serial port's, through
/// the same reader, and reports through its delegate by the same rule: on the manager's own
/// thread, in order, nothing after the terminal event.
///
///     let manager = PushedNMEAManager(name: "BLE GNSS")
///     let service = LocationService(manager: manager)
///     service.start()
///     ble.onData = { manager.feed($0) }      // any thread
///     ble.onDisconnect = { manager.finish() }
///
/// Bytes fed before a start, or after a stop, `finish()` or `fail(_:)`, are refused (`feed`
/// returns false). A start while a run is under way does nothing, as every source's does: a
/// run told `finish()` is under way until it has read what was fed and told `.finished`. `finish()` ends the run as a replay's end does (`.finished`, once what was
/// fed before it has been read); `fail(_:)` ends it with that error.
///
/// Bounded: what is fed and not yet read waits in a local socket's buffer of
/// `PushedNMEAManager.bufferLimit` bytes (the kernel rounds the figure: about 200 KiB in all
/// on Linux 6). While it is full, `feed` waits: a delegate slower than the bytes arrive holds
/// the feeding thread back, never memory. A stop, `finish()` or `fail(_:)` from another thread
/// releases a waiting `feed`.
public final class PushedNMEAManager: LocationManagerInterface {
    /// How the fed bytes are read: what a receiver's link would be set to.
    public struct Options: Sendable {
        /// How long without a byte before the stream is reported `.stale`; nil never.
        public var staleAfter: Duration?
        /// Whether to pass every checked sentence to the delegate (`didReceiveSentence`).
        public var forwardsSentences: Bool
        /// Whether a receiver's simulator output (GGA quality 8, mode S) counts as fixes.
        public var acceptsSimulatedFixes: Bool
        /// Whether each fix is stamped with the system time its first byte was read
        /// (`Fix.arrival`): true for a live receiver, false for bytes replayed from a store.
        public var stampsArrival: Bool

        /// The settings of a live receiver: stale after 5 s without a byte, fixes stamped.
        public init(staleAfter: Duration? = .seconds(5), forwardsSentences: Bool = false,
                    acceptsSimulatedFixes: Bool = false, stampsArrival: Bool = true) {
            self.staleAfter = staleAfter
            self.forwardsSentences = forwardsSentences
            self.acceptsSimulatedFixes = acceptsSimulatedFixes
            self.stampsArrival = stampsArrival
        }
    }

    /// Bytes fed and not yet read that the manager asks the kernel to hold before `feed` waits.
    public static let bufferLimit = 65_536

    /// What the source is, for people: the name given.
    public let sourceDescription: String
    /// How the fed bytes are read, as given.
    public let options: Options
    private let source = StreamSource(threadName: "gpsfix-pushed")
    /// The feeding end of the run under way; nil when none is, or it was told its end.
    private let inlet = Mutex<Inlet?>(nil)

    /// `name` is what messages call the source ("BLE GNSS", a device's address).
    public init(name: String, options: Options = Options()) {
        sourceDescription = name
        self.options = options
    }

    /// Who hears the runs' news, held weakly.
    public var delegate: (any LocationManagerDelegate)? {
        get { source.relay.delegate }
        set { source.relay.delegate = newValue }
    }

    /// What the engine has counted on the bytes fed in this run so far.
    public var statistics: Statistics? { source.counted.value }

    /// The bytes and sentences fed in this run so far.
    public var reception: Reception? { source.received.value }

    /// Begins a run that reads what is fed, unless one is under way.
    public func startUpdatingLocation() {
        var settings = StreamReader.Settings()
        settings.staleAfter = options.staleAfter?.inSeconds
        settings.forwardsSentences = options.forwardsSentences
        settings.acceptsSimulatedFixes = options.acceptsSimulatedFixes
        settings.stampsArrival = options.stampsArrival
        inlet.withLock { current in
            guard let (feeding, reading) = Inlet.pair(named: sourceDescription) else {
                // Out of descriptors: the run fails saying so, as any source's would.
                source.start(self, settings: settings) { [self] _ in FedOpener(stream: nil, inlet: nil, name: sourceDescription) }
                return
            }
            // A start while a run is under way does nothing; the pair made for it goes.
            if source.start(self, settings: settings, opener: { _ in FedOpener(stream: reading, inlet: feeding, name: reading.name) }) {
                current = feeding
            }
        }
    }

    /// Ends the run: a waiting `feed` returns false, and the delegate hears nothing more.
    public func stopUpdatingLocation() {
        // The run's flag first: the end the cut makes must read as a stop, not as `.finished`.
        source.stop()
        inlet.withLock { $0.take() }?.cut()
    }

    /// Hands `bytes` to the reader, after those fed before (two feeds at once are taken one
    /// after the other, never mixed). Waits while `bufferLimit` bytes are unread. False when
    /// nothing takes them: no run is under way, or it ended while this waited.
    @discardableResult
    public func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let current = inlet.withLock({ $0 }) else { return false }
        return current.send(bytes)
    }

    /// Hands `bytes` to the reader (`feed(_:)` of a buffer).
    @discardableResult
    public func feed(_ bytes: some Sequence<UInt8>) -> Bool {
        if let fed = bytes.withContiguousStorageIfAvailable({ feed(UnsafeRawBufferPointer($0)) }) { return fed }
        return Array(bytes).withUnsafeBytes { feed($0) }
    }

    /// Hands `text`'s UTF-8 to the reader (`feed(_:)` of a buffer).
    @discardableResult
    public func feed(_ text: String) -> Bool { feed(text.utf8) }

    /// The input is over: once what was fed before is read, the run ends with `.finished`.
    public func finish() {
        inlet.withLock { $0.take() }?.end(failure: nil)
    }

    /// The input cannot go on (the transport failed): once what was fed before is read, the
    /// run ends with `error`.
    public func fail(_ error: LocationError) {
        inlet.withLock { $0.take() }?.end(failure: error)
    }
}

/// The feeding end of a local socket pair: what `feed` writes to, and how its end was told.
private final class Inlet: Sendable {
    private let descriptor: FileDescriptor
    /// One feed at a time, so that two feeds' bytes are never mixed.
    private let sending = Mutex<Void>(())
    private let failure = Mutex<LocationError?>(nil)

    private init(descriptor: FileDescriptor) { self.descriptor = descriptor }

    deinit { descriptor.close() }

    /// A connected pair, the reading end non-blocking; nil when none can be made.
    static func pair(named name: String) -> (Inlet, FedStream)? {
        guard let (feeding, reading) = try? FileDescriptor.socketPair() else { return nil }
        let limit = Int32(PushedNMEAManager.bufferLimit)
        feeding.setSendBuffer(limit)
        reading.setReceiveBuffer(limit)
        guard (try? reading.setNonBlocking()) != nil else {
            feeding.close()
            reading.close()
            return nil
        }
        return (Inlet(descriptor: feeding), FedStream(descriptor: reading, name: name))
    }

    /// Writes all of `bytes`, waiting for room; false once the reading end is gone or this end
    /// was cut.
    func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
        sending.withLock { _ in
            // A reader gone is an answer (false), never a SIGPIPE that ends the app.
            (try? descriptor.sendWaiting(bytes)) != nil
        }
    }

    /// No more bytes: the reader reads what was sent, then its end (and `failure`, if any).
    func end(failure error: LocationError?) {
        failure.withLock { $0 = error }
        // Not close: a feed may be sending on the descriptor at this moment, and a closed
        // number could be another file's by its next call. Shutting down wakes it instead.
        descriptor.shutdown(.writing)
    }

    /// Stopped: a waiting feed returns at once.
    func cut() { descriptor.shutdown(.both) }

    var endedWith: LocationError? { failure.withLock { $0 } }
}

/// The reading end, read as any stream is.
private final class FedStream: ByteStream, Sendable {
    let descriptor: FileDescriptor?
    let name: String

    init(descriptor: FileDescriptor, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    deinit { descriptor?.close() }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamRead {
        guard let descriptor else { return .end(reason: nil) }
        do {
            switch try descriptor.receive(into: buffer) {
            case .wouldBlock: return .nothing
            case .processed(0): return .end(reason: nil)
            case .processed(let count): return .bytes(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            }
        } catch {
            return .failed(.io("\(name): \(error)"))
        }
    }
}

/// Hands the run its stream, and says what its end means: what the app told.
private final class FedOpener: StreamOpener {
    private var stream: FedStream?
    private let inlet: Inlet?
    private let name: String

    init(stream: FedStream?, inlet: Inlet?, name: String) {
        self.stream = stream
        self.inlet = inlet
        self.name = name
    }

    func open() throws(LocationError) -> any ByteStream {
        guard let stream = stream.take() else {
            throw .io("\(name): cannot make a socket pair to feed the reader through (out of file descriptors?)")
        }
        return stream
    }

    func afterEnd(of stream: any ByteStream, reason: String?, passes: Int, statistics: Statistics) -> StreamEndAction {
        if let error = inlet?.endedWith { return .fail(error) }
        return .finish
    }
}
