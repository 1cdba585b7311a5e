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
    public enum Speed: Equatable, Sendable {
        /// No pacing: as fast as the engine and the consumers go.
        case maximum
        /// The capture's own rate times this factor (1 = real time).
        case factor(Double)
    }

    /// A capture file, a FIFO, or `-` for standard input.
    public let path: String
    public let speed: Speed
    /// Whether to start again at the end; only a regular file can be read again.
    public let loop: Bool
    /// Whether to pass every checked sentence to the delegate (costs a String per sentence).
    public let forwardsSentences: Bool
    /// Whether a receiver's simulator output (GGA quality 8, mode S) counts as fixes.
    public let acceptsSimulatedFixes: Bool
    /// How much is read at a time. Tests make it small to cut the input everywhere.
    let chunkSize: Int

    private let relay = DelegateRelay()
    let counted = StatisticsSnapshot()
    private let runs = SourceRuns(name: "gpsfix-replay")
    typealias Run = SourceRuns.Run

    public convenience init(path: String, speed: Speed = .factor(1), loop: Bool = false, forwardsSentences: Bool = false,
                            acceptsSimulatedFixes: Bool = false) {
        self.init(path: path, speed: speed, loop: loop, forwardsSentences: forwardsSentences,
                  acceptsSimulatedFixes: acceptsSimulatedFixes, chunkSize: 1 << 16)
    }

    init(path: String, speed: Speed, loop: Bool, forwardsSentences: Bool, acceptsSimulatedFixes: Bool, chunkSize: Int) {
        precondition(chunkSize > 0, "a replay reads at least a byte at a time")
        self.path = path
        self.speed = speed
        self.loop = loop
        self.forwardsSentences = forwardsSentences
        self.acceptsSimulatedFixes = acceptsSimulatedFixes
        self.chunkSize = chunkSize
    }

    public var delegate: (any LocationManagerDelegate)? {
        get { relay.delegate }
        set { relay.delegate = newValue }
    }

    /// The path, or "standard input".
    public var sourceDescription: String { ReplayInput.name(of: path) }

    /// Whether the input is read once, as it arrives (a pipe, a FIFO, a terminal), rather
    /// than a file: it cannot loop, and a consumer should show each report as it comes.
    /// Looked up now; false for a path that cannot be looked at (starting then fails).
    public var readsLiveInput: Bool { ReplayInput.isLive(path) }

    /// The counts of the pass in progress (each pass of a loop starts from zero).
    public var statistics: Statistics? { counted.value }

    public func startUpdatingLocation() {
        runs.start { [self] run in self.run(run) }
    }

    public func stopUpdatingLocation() {
        runs.stop()
    }

    private func run(_ run: Run) {
        guard let delegate = relay.delegate else { return }
        let fail = { [self] (error: LocationError) in
            runs.release(run)
            delegate.locationManager(self, didFailWithError: error)
        }
        guard let wakeup = run.wakeup else {
            return fail(.io("\(sourceDescription): cannot make a pipe to wake the replay (out of file descriptors?)"))
        }
        let input: ReplayInput
        do {
            input = try ReplayInput.open(path)
        } catch {
            return fail(error)
        }
        // Said before a byte is read: a loop that could not happen must not look like one
        // that did once.
        if loop && !input.isRegularFile { return fail(.cannotLoop(path: input.name)) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var total: Statistics?
        var pass = 0
        repeat {
            pass += 1
            if pass > 1 {
                do { try input.rewind() } catch { return fail(error) }
            }
            switch replayPass(input, buffer: buffer, wakeup: wakeup, run: run, delegate: delegate) {
            case .stopped:
                return
            case .failed(let error):
                return fail(error)
            case .finished(let statistics):
                if pass == 1 && statistics.sentences.decoded == 0 { return fail(.notACapture(path: input.name)) }
                total = statistics
            }
        } while loop && !run.isStopped
        guard !run.isStopped, let total else { return }
        // Released before the news: whoever starts the source again once told (a second
        // `fixes()` stream) must find no run in place, or that start is silently lost.
        runs.release(run)
        delegate.locationManager(self, didChangeStatus: .finished(total))
    }
}
