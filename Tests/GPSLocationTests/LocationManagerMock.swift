import NMEA
import Dispatch
import GPSLocation
import Synchronization

/// Stands in for a receiver behind `LocationManagerInterface`, as the seed's `LocationManagerMock`
/// stands in for `CLLocationManager`: the test says what it will report, then checks what the
/// `LocationService` made of it.
///
/// Each `startUpdatingLocation()` plays the script from the top, in order, on the mock's own
/// queue (as real managers deliver on their own thread) or, with `.insideStart`, before
/// `startUpdatingLocation()` returns (as the seed's mock does). `stopUpdatingLocation()` ends the
/// current play: after it the mock calls the delegate no more. A script that ends without a
/// terminal event leaves the mock running and silent, like a receiver that lost the sky.
final class LocationManagerMock: LocationManagerInterface {
    enum Step: Sendable {
        case fix(Fix)
        case sky(SkyView)
        case status(SourceStatus)
        case error(LocationError)
        case sentence(String)
        case note(ReceiverNote)
        /// Nothing for a while (cut short by `stopUpdatingLocation()`).
        case pause(Duration)
    }

    enum Delivery: Sendable {
        /// On the mock's own serial queue, after `startUpdatingLocation()` has returned.
        case onOwnQueue
        /// On the caller's thread, before `startUpdatingLocation()` returns.
        case insideStart
    }

    private struct State {
        var script: [Step]
        var startCount = 0
        var stopCount = 0
        /// Bumped by every start and stop: a play goes on only while its run is current.
        var run = 0
        var running = false
        var playsEnded = 0
        var stepsDelivered = 0
    }

    let sourceDescription: String
    let delivery: Delivery
    private let relay = DelegateRelay()
    private let state: Mutex<State>
    private let queue = DispatchQueue(label: "LocationManagerMock")

    init(script: [Step] = [], delivery: Delivery = .onOwnQueue, sourceDescription: String = "mock receiver") {
        state = Mutex(State(script: script))
        self.delivery = delivery
        self.sourceDescription = sourceDescription
    }

    // MARK: Telling it what to report

    /// Reports `fix`, then stays running and silent.
    static func delivering(_ fix: Fix, delivery: Delivery = .onOwnQueue) -> LocationManagerMock {
        LocationManagerMock(script: [.fix(fix)], delivery: delivery)
    }

    /// Reports `fixes` in order, then `end` (if any).
    static func delivering(_ fixes: [Fix], then end: SourceStatus? = nil, delivery: Delivery = .onOwnQueue) -> LocationManagerMock {
        LocationManagerMock(script: fixes.map { .fix($0) } + (end.map { [.status($0)] } ?? []), delivery: delivery)
    }

    /// Fails at once with `error`.
    static func failing(with error: LocationError, delivery: Delivery = .onOwnQueue) -> LocationManagerMock {
        LocationManagerMock(script: [.error(error)], delivery: delivery)
    }

    /// Ends at once with the terminal `status`, without a fix.
    static func ending(with status: SourceStatus, delivery: Delivery = .onOwnQueue) -> LocationManagerMock {
        LocationManagerMock(script: [.status(status)], delivery: delivery)
    }

    /// Starts, and never reports anything.
    static func silent() -> LocationManagerMock { LocationManagerMock() }

    /// What the next start will play.
    func willDeliver(_ script: [Step]) {
        state.withLock { $0.script = script }
    }

    // MARK: What happened

    var startCount: Int { state.withLock { $0.startCount } }
    var stopCount: Int { state.withLock { $0.stopCount } }
    var isRunning: Bool { state.withLock { $0.running } }
    /// Plays that reached the end of their script (or were cut short by a stop).
    var playsEnded: Int { state.withLock { $0.playsEnded } }
    var stepsDelivered: Int { state.withLock { $0.stepsDelivered } }

    // MARK: LocationManagerInterface

    var delegate: (any LocationManagerDelegate)? {
        get { relay.delegate }
        set { relay.delegate = newValue }
    }

    func startUpdatingLocation() {
        let (run, script) = state.withLock { s -> (Int, [Step]) in
            s.startCount += 1
            s.run += 1
            s.running = true
            return (s.run, s.script)
        }
        switch delivery {
        case .insideStart: play(script, run: run)
        case .onOwnQueue: queue.async { self.play(script, run: run) }
        }
    }

    func stopUpdatingLocation() {
        state.withLock { s in
            s.stopCount += 1
            s.run += 1
            s.running = false
        }
    }

    private func isCurrent(_ run: Int) -> Bool { state.withLock { $0.run == run } }

    private func play(_ script: [Step], run: Int) {
        defer { state.withLock { $0.playsEnded += 1 } }
        for step in script {
            guard isCurrent(run), let delegate = relay.delegate else { return }
            switch step {
            case .pause(let duration):
                let clock = ContinuousClock()
                let end = clock.now + duration
                while clock.now < end, isCurrent(run) {
                    usleepMilliseconds(2)
                }
                continue
            case .fix(let fix):
                delegate.locationManager(self, didUpdateFix: fix)
            case .sky(let sky):
                delegate.locationManager(self, didUpdateSkyView: sky)
            case .status(let status):
                delegate.locationManager(self, didChangeStatus: status)
            case .error(let error):
                delegate.locationManager(self, didFailWithError: error)
            case .sentence(let sentence):
                delegate.locationManager(self, didReceiveSentence: sentence)
            case .note(let note):
                delegate.locationManager(self, didReceiveNote: note)
            }
            state.withLock { $0.stepsDelivered += 1 }
        }
    }
}

private func usleepMilliseconds(_ ms: Int) {
    // A blocking sleep: the mock's queue is not the cooperative pool.
    let semaphore = DispatchSemaphore(value: 0)
    _ = semaphore.wait(timeout: .now() + .milliseconds(ms))
}
