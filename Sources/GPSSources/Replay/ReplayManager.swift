import GPSSystem
public import NMEA
public import GPSLocation
import Synchronization

/// Replays a capture through the same engine a live receiver goes through.
///
/// Paced by the sentences' own timestamps (times `speed`), or as fast as the engine goes.
/// The capture is read a chunk at a time, so memory stays the same whatever its size, and it
/// may be a file, a FIFO or standard input (`-`): a pipe is replayed as its bytes arrive.
/// Fixes arrive on the replay's own thread; the end of the input is `.finished`.
public final class ReplayManager: LocationManagerInterface {
    /// How fast a capture is replayed.
    public enum Speed: Equatable, Sendable {
        /// No pacing: as fast as the engine and the consumers go.
        case maximum
        /// The capture's own rate times this factor (1 = real time).
        case factor(Double)
    }

    /// A capture file, a FIFO, or `-` for standard input.
    public let path: String
    /// How fast the capture is replayed: at its own pace times a factor, or as fast as it goes.
    public let speed: Speed
    /// Whether to start again at the end; only a regular file can be read again.
    public let loop: Bool
    /// Whether to pass every checked sentence to the delegate (costs a String per sentence).
    public let forwardsSentences: Bool
    /// Whether a receiver's simulator output (GGA quality 8, mode S) counts as fixes.
    public let acceptsSimulatedFixes: Bool
    /// How much is read at a time. Tests make it small to cut the input everywhere.
    let chunkSize: Int
    /// What pacing waits by; a test's `VirtualClock` paces without sleeping.
    let clock: any WaitClock

    private let source = StreamSource(threadName: "gpsfix-replay")

    /// A replay of the capture at `path` (or `-`, standard input), in real time by default;
    /// nothing is opened until `startUpdatingLocation()`, and a missing or unreadable file is
    /// reported then, through the delegate.
    public convenience init(path: String, speed: Speed = .factor(1), loop: Bool = false, forwardsSentences: Bool = false,
                            acceptsSimulatedFixes: Bool = false) {
        self.init(path: path, speed: speed, loop: loop, forwardsSentences: forwardsSentences,
                  acceptsSimulatedFixes: acceptsSimulatedFixes, chunkSize: 1 << 16)
    }

    init(path: String, speed: Speed, loop: Bool, forwardsSentences: Bool, acceptsSimulatedFixes: Bool, chunkSize: Int,
         clock: any WaitClock = MonotonicClock()) {
        precondition(chunkSize > 0, "a replay reads at least a byte at a time")
        self.clock = clock
        self.path = path
        self.speed = speed
        self.loop = loop
        self.forwardsSentences = forwardsSentences
        self.acceptsSimulatedFixes = acceptsSimulatedFixes
        self.chunkSize = chunkSize
    }

    public var delegate: (any LocationManagerDelegate)? {
        get { source.relay.delegate }
        set { source.relay.delegate = newValue }
    }

    /// The path, or "standard input".
    public var sourceDescription: String { ReplayInput.name(of: path) }

    /// Whether the input is read once, as it arrives (a pipe, a FIFO, a terminal), rather
    /// than a file: it cannot loop, and a consumer should show each report as it comes.
    /// Looked up now; false for a path that cannot be looked at (starting then fails).
    public var readsLiveInput: Bool { ReplayInput.isLive(path) }

    /// The counts of the pass in progress (each pass of a loop starts from zero).
    public var statistics: Statistics? { source.counted.value }

    public func startUpdatingLocation() {
        var settings = StreamReader.Settings()
        settings.bufferSize = chunkSize
        settings.announcesLink = false
        settings.speed = speed
        settings.clock = clock
        settings.forwardsSentences = forwardsSentences
        settings.acceptsSimulatedFixes = acceptsSimulatedFixes
        source.start(self, settings: settings) { [path, loop] _ in ReplayOpener(path: path, loop: loop) }
    }

    public func stopUpdatingLocation() {
        source.stop()
    }
}
