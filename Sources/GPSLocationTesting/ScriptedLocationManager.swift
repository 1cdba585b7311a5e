import Dispatch
public import NMEA
public import GPSLocation
import GPSSystem
import Synchronization

/// A receiver that reports what a test wrote down, behind `LocationManagerInterface`: inject
/// it where the app takes a manager (a `LocationService`, a view model), play a script of
/// fixes, sky views, statuses, sentences, receiver notes, failures and pauses, then check what the app made of
/// it and how often it started and stopped the source.
///
///     let manager = ScriptedLocationManager([.fix(Fix(coordinate: .init(latitude: 52, longitude: 4))), .end])
///     let service = LocationService(manager: manager)
///
/// It keeps the rules of the real sources, so code that passes against it behaves the same
/// against a receiver:
/// - Each start plays the script from the top, on a thread of its own (`.ownThread`, as a
///   receiver reports from its reader's thread) or before `startUpdatingLocation()` returns
///   (`.insideStart`, as the seeds' mocks do); in order, one event at a time.
/// - A start while a play is under way does nothing (as CoreLocation's second start does).
/// - A failure, an `.end` or a terminal status ends the play: the manager is released before
///   the delegate hears of it (a start made on the news plays again), and nothing of the
///   script after it is delivered.
/// - After `stopUpdatingLocation()` the delegate is called no more (a call already under way
///   on the play's thread finishes); a pause is cut short.
/// - A script that runs out without a terminal step leaves the manager running and silent,
///   like a receiver that lost the sky, until it is stopped.
public final class ScriptedLocationManager: LocationManagerInterface {
    /// One thing the manager does, in its turn.
    public enum Step: Sendable, Equatable {
        /// A fix, as `didUpdateFix`.
        case fix(Fix)
        /// A sky view, as `didUpdateSkyView`.
        case sky(SkyView)
        /// A change of state, as `didChangeStatus`; `.finished` or `.stopped` is terminal.
        case status(SourceStatus)
        /// A checked sentence as received, for passthrough (`didReceiveSentence`).
        case sentence(String)
        /// A receiver's note (TXT), as `didReceiveNote`.
        case note(ReceiverNote)
        /// The source cannot go on: terminal.
        case failure(LocationError)
        /// Nothing for this long, cut short by a stop.
        case pause(Duration)
        /// The input is over, as a replay's end: `.finished` with `statistics` counting the
        /// fixes played (its epochs, and those with a fix). Terminal.
        case end
    }

    /// Where the delegate is called.
    public enum Delivery: Sendable {
        /// On a thread of the manager's own, after `startUpdatingLocation()` has returned.
        case ownThread
        /// On the caller's thread, before `startUpdatingLocation()` returns (a pause blocks it).
        case insideStart
    }

    /// One play of the script: cut short by a stop, told of it at once.
    private final class Play: Sendable {
        private let stopped = Atomic<Bool>(false)
        private let wake = DispatchSemaphore(value: 0)
        private let ended = DispatchSemaphore(value: 0)

        var isStopped: Bool { stopped.load(ordering: .acquiring) }

        func stop() {
            stopped.store(true, ordering: .releasing)
            wake.signal()
        }

        /// Waits `duration`, less if stopped; true when stopped.
        func pause(_ duration: Duration) -> Bool {
            if isStopped { return true }
            let (seconds, attoseconds) = duration.components
            let nanoseconds = max(0, seconds) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000
            _ = wake.wait(timeout: .now() + .nanoseconds(Int(clamping: nanoseconds)))
            return isStopped
        }

        func end() { ended.signal() }

        func waitForEnd(_ timeout: Duration) -> Bool {
            let (seconds, attoseconds) = timeout.components
            let nanoseconds = max(0, seconds) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000
            guard ended.wait(timeout: .now() + .nanoseconds(Int(clamping: nanoseconds))) == .success else { return false }
            ended.signal()
            return true
        }
    }

    private struct State {
        var script: [Step]
        var reception: Reception?
        var statistics: Statistics?
        var startCount = 0
        var stopCount = 0
        var stepsDelivered = 0
        var plays = 0
        /// The play under way; nil when stopped, or once a play has ended by itself.
        var current: Play?
        /// The latest play, ended or not: what `waitUntilPlayed` waits for.
        var latest: Play?
    }

    /// Where the delegate is called.
    public let delivery: Delivery
    /// What the source is, for people (and for error messages that name it).
    public let sourceDescription: String
    private let relay = DelegateRelay()
    private let state: Mutex<State>

    /// A manager that will play `script` at each start.
    public init(_ script: [Step] = [], delivery: Delivery = .ownThread, sourceDescription: String = "scripted receiver") {
        state = Mutex(State(script: script))
        self.delivery = delivery
        self.sourceDescription = sourceDescription
    }

    /// Reports `fixes` in order, then ends (`.end`) or, with `thenEnds` false, stays running
    /// and silent.
    public convenience init(fixes: [Fix], thenEnds: Bool = true, delivery: Delivery = .ownThread) {
        self.init(fixes.map { Step.fix($0) } + (thenEnds ? [.end] : []), delivery: delivery)
    }

    /// Fails at once with `error`.
    public static func failing(with error: LocationError, delivery: Delivery = .ownThread) -> ScriptedLocationManager {
        ScriptedLocationManager([.failure(error)], delivery: delivery)
    }

    /// Starts, and never reports anything: a receiver without a sky.
    public static func silent() -> ScriptedLocationManager { ScriptedLocationManager() }

    // MARK: Telling it what to report

    /// What every later start plays (a play under way keeps its own).
    public var script: [Step] {
        get { state.withLock { $0.script } }
        set { state.withLock { $0.script = newValue } }
    }

    /// What the manager says it has received (`LocationManagerInterface.reception`), for an
    /// app's "no fix: nothing received" path.
    public var reception: Reception? {
        get { state.withLock { $0.reception } }
        set { state.withLock { $0.reception = newValue } }
    }

    /// What the latest play has counted: its epochs (fixes played) and those with a fix. Nil
    /// before the first fix.
    public var statistics: Statistics? { state.withLock { $0.statistics } }

    // MARK: What happened

    /// Calls of `startUpdatingLocation()`, each one counted, whether it began a play or not.
    public var startCount: Int { state.withLock { $0.startCount } }
    /// Calls of `stopUpdatingLocation()`.
    public var stopCount: Int { state.withLock { $0.stopCount } }
    /// Plays begun.
    public var playCount: Int { state.withLock { $0.plays } }
    /// Whether a play is under way (started, not stopped, not ended by a terminal step).
    public var isRunning: Bool { state.withLock { $0.current != nil } }
    /// Steps handed to the delegate (pauses not counted), over every play.
    public var stepsDelivered: Int { state.withLock { $0.stepsDelivered } }

    /// Waits until the latest play has gone through its script (or been stopped); false
    /// when `timeout` passed first or nothing was ever started. Blocks the calling thread.
    public func waitUntilPlayed(timeout: Duration = .seconds(5)) -> Bool {
        guard let play = state.withLock({ $0.latest }) else { return false }
        return play.waitForEnd(timeout)
    }

    /// `waitUntilPlayed(timeout:)` for an async test: the wait is made on a thread of its
    /// own, so no thread of the cooperative pool is held while the script plays.
    public func played(within timeout: Duration = .seconds(5)) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            spawnThread(name: "gpsfix-scripted-wait") { [self] in
                continuation.resume(returning: waitUntilPlayed(timeout: timeout))
            }
        }
    }

    // MARK: LocationManagerInterface

    /// Who hears the plays, held weakly (as every manager holds it).
    public var delegate: (any LocationManagerDelegate)? {
        get { relay.delegate }
        set { relay.delegate = newValue }
    }

    /// Counted; begins a play of the script unless one is under way.
    public func startUpdatingLocation() {
        let begun = state.withLock { s -> (Play, [Step])? in
            s.startCount += 1
            guard s.current == nil else { return nil }
            let play = Play()
            s.current = play
            s.latest = play
            s.plays += 1
            s.statistics = nil
            return (play, s.script)
        }
        guard let (play, script) = begun else { return }
        switch delivery {
        case .insideStart:
            perform(script, in: play)
        case .ownThread:
            spawnThread(name: "gpsfix-scripted") { [self] in perform(script, in: play) }
        }
    }

    /// Counted; ends the play under way, if any: the delegate hears nothing more of it.
    public func stopUpdatingLocation() {
        let play = state.withLock { s -> Play? in
            s.stopCount += 1
            defer { s.current = nil }
            return s.current
        }
        play?.stop()
    }

    // MARK: Playing

    private func perform(_ script: [Step], in play: Play) {
        defer { play.end() }
        var counted = Statistics()
        for step in script {
            if play.isStopped { return }
            if case .pause(let duration) = step {
                if play.pause(duration) { return }
                continue
            }
            if case .fix(let fix) = step {
                counted.epochs.epochs += 1
                if fix.hasFix { counted.epochs.fixes += 1 }
                state.withLock { [counted] in $0.statistics = counted }
            }
            let terminal = isTerminal(step)
            // A play that ends by itself lets go before it is told, as `SourceRuns` does.
            if terminal { state.withLock { if $0.current === play { $0.current = nil } } }
            guard !play.isStopped, let delegate = relay.delegate else { return }
            switch step {
            case .fix(let fix): delegate.locationManager(self, didUpdateFix: fix)
            case .sky(let sky): delegate.locationManager(self, didUpdateSkyView: sky)
            case .status(let status): delegate.locationManager(self, didChangeStatus: status)
            case .sentence(let sentence): delegate.locationManager(self, didReceiveSentence: sentence)
            case .note(let note): delegate.locationManager(self, didReceiveNote: note)
            case .failure(let error): delegate.locationManager(self, didFailWithError: error)
            case .end: delegate.locationManager(self, didChangeStatus: .finished(counted))
            case .pause: break
            }
            state.withLock { $0.stepsDelivered += 1 }
            if terminal { return }
        }
    }

    private func isTerminal(_ step: Step) -> Bool {
        switch step {
        case .failure, .end: true
        case .status(let status): status.isTerminal
        default: false
        }
    }
}
