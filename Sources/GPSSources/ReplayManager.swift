public import NMEA
import GPSSystem
import Dispatch
public import GPSLocation
import Synchronization

/// Replays a capture file through the same engine a live receiver goes through.
///
/// Paced by the sentences' own timestamps (times `speed`), or as fast as the engine goes.
/// Fixes arrive on the replay's own thread; the end of the capture is `.finished`.
public final class ReplayManager: LocationManagerInterface {
    public enum Speed: Equatable, Sendable {
        /// No pacing: as fast as the engine and the consumers go.
        case maximum
        /// The capture's own rate times this factor (1 = real time).
        case factor(Double)
    }

    public let path: String
    public let speed: Speed
    public let loop: Bool
    /// Whether to pass every checked sentence to the delegate (costs a String per sentence).
    public let forwardsSentences: Bool
    /// Whether a receiver's simulator output (GGA quality 8, mode S) counts as fixes.
    public let acceptsSimulatedFixes: Bool

    private let relay = DelegateRelay()
    private let counted = StatisticsSnapshot()
    /// The run in progress, if any. Each start gets a fresh one, so a run that is still
    /// winding down after a stop neither blocks a new start nor leaves it a stale wake-up.
    private let current = Mutex<Run?>(nil)

    /// One replay's stop flag and the semaphore its paced waits sleep on.
    private final class Run: Sendable {
        let stopped = Atomic<Bool>(false)
        let wake = DispatchSemaphore(value: 0)

        func stop() {
            stopped.store(true, ordering: .releasing)
            wake.signal()
        }

        var isStopped: Bool { stopped.load(ordering: .acquiring) }
    }

    public init(path: String, speed: Speed = .factor(1), loop: Bool = false, forwardsSentences: Bool = false,
                acceptsSimulatedFixes: Bool = false) {
        self.path = path
        self.speed = speed
        self.loop = loop
        self.forwardsSentences = forwardsSentences
        self.acceptsSimulatedFixes = acceptsSimulatedFixes
    }

    public var delegate: (any LocationManagerDelegate)? {
        get { relay.delegate }
        set { relay.delegate = newValue }
    }

    public var sourceDescription: String { path }

    /// The counts of the pass in progress (each pass of a loop starts from zero).
    public var statistics: Statistics? { counted.value }

    public func startUpdatingLocation() {
        let run = current.withLock { current -> Run? in
            guard current == nil else { return nil }
            let run = Run()
            current = run
            return run
        }
        guard let run else { return }
        spawnThread(name: "gpsfix-replay") { [self] in
            self.run(run)
            release(run)
        }
    }

    public func stopUpdatingLocation() {
        let run = current.withLock { current -> Run? in
            defer { current = nil }
            return current
        }
        run?.stop()
    }

    /// Finished on its own: the next start begins a new run.
    private func release(_ run: Run) {
        current.withLock { if $0 === run { $0 = nil } }
    }

    private func run(_ run: Run) {
        guard let delegate = relay.delegate else { return }
        let bytes: [UInt8]
        do {
            bytes = try readWholeFile(path)
        } catch {
            release(run)
            return delegate.locationManager(self, didFailWithError: error)
        }
        var total: Statistics?
        var pass = 0
        repeat {
            pass += 1
            guard let statistics = replay(bytes, to: delegate, run: run) else { return }
            if pass == 1 && statistics.sentences.decoded == 0 {
                release(run)
                return delegate.locationManager(self, didFailWithError: .notACapture(path: path))
            }
            total = statistics
        } while loop && !run.isStopped
        guard !run.isStopped, let total else { return }
        // Released before the news: whoever starts the source again once told (a second
        // `fixes()` stream) must find no run in place, or that start is silently lost.
        release(run)
        delegate.locationManager(self, didChangeStatus: .finished(total))
    }

    /// One pass over the capture; nil when stopped part-way.
    private func replay(_ bytes: [UInt8], to delegate: any LocationManagerDelegate, run: Run) -> Statistics? {
        let parser = NMEAParser(acceptsSimulatedFixes: acceptsSimulatedFixes)
        if forwardsSentences {
            parser.onSentence = { [self] sentence, _ in
                delegate.locationManager(self, didReceiveSentence: String(decoding: sentence.line, as: UTF8.self))
            }
        }
        var pacer = Pacer(speed: speed)
        // Paced, the engine is fed a line at a time: the counts are copied once an epoch then.
        var reported = false
        let emit: (EngineEvent) -> Void = { [self] event in
            reported = true
            switch event {
            case .fix(let fix):
                if let wait = pacer.delay(until: fix.timestamp), wait > 0 {
                    _ = run.wake.wait(timeout: .now() + wait)
                }
                guard !run.isStopped else { return }
                delegate.locationManager(self, didUpdateFix: fix)
            case .sky(let sky):
                guard !run.isStopped else { return }
                delegate.locationManager(self, didUpdateSkyView: sky)
            }
        }
        let stopped = bytes.withUnsafeBytes { raw -> Bool in
            let all = UnsafeRawBufferPointer(rebasing: raw[CaptureHeader(parsing: raw).bodyOffset...])
            var offset = 0
            while offset < all.count {
                if run.isStopped { return true }
                // Paced: a line at a time, so the pause falls between the sentences it belongs
                // between. Unpaced: large chunks, the engine's best case.
                let end = speed == .maximum ? min(offset + (1 << 16), all.count) : lineEnd(all, from: offset)
                parser.parse(UnsafeRawBufferPointer(rebasing: all[offset..<end]), emit: emit)
                if reported || speed == .maximum {
                    counted.update(from: parser)
                    reported = false
                }
                offset = end
            }
            return false
        }
        if stopped || run.isStopped { return nil }
        parser.finish(emit: emit)
        counted.update(from: parser)
        return run.isStopped ? nil : parser.statistics
    }

    private func lineEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var i = start
        while i < bytes.count {
            if bytes[i] == 0x0A { return i + 1 }
            i += 1
        }
        return bytes.count
    }
}

/// Turns a capture's timestamps into wall-clock waits.
struct Pacer {
    let speed: ReplayManager.Speed
    private var last: Int?
    private var target = ContinuousClock.now

    init(speed: ReplayManager.Speed) { self.speed = speed }

    /// Seconds to wait before delivering a fix stamped `time`; nil for no wait.
    mutating func delay(until time: FixTime?) -> Double? {
        guard case .factor(let factor) = speed, factor > 0, let time else { return nil }
        var ms = time.millisecondsSinceEpoch ?? time.time.milliseconds
        let now = ContinuousClock.now
        guard let last else {
            self.last = ms
            target = now
            return nil
        }
        // Without a date, midnight looks like a jump back by a day.
        if time.date == nil && ms < last - 43_200_000 { ms += 86_400_000 }
        self.last = ms
        // A jump back, or forward by more than a minute, is a gap in the capture, not a
        // reason to sit still.
        let step = ms - last
        if step > 0 && step <= 60_000 {
            // At most a minute of waiting per step, whatever the factor (a tiny factor must
            // not overflow a Duration).
            target = target + .milliseconds(min(Double(step) / factor, 60_000))
        }
        // Far behind (a slow consumer): catch up rather than rush through a backlog.
        if now - target > .seconds(1) { target = now }
        let wait = target - now
        return Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
    }
}
