import NMEA
import GPSSystem
import Dispatch
import GPSLocation
import GPSOutput
import Synchronization

/// The live terminal view of `gpsfix watch`: the fix, the sky and the counters, redrawn in
/// place on a screen of their own, and the terminal given back as it was at the end.
///
/// The source's thread only records events (a lock held for an assignment); frames are drawn
/// on the view's own queue, at most `LiveViewPainter.interval` apart however fast the source
/// goes, and once a second without news so that the fix's age keeps counting.
final class LiveViewOutput: WatchOutput {
    private let painter: LiveViewPainter
    private let tick: any DispatchSourceTimer
    private let resize: any DispatchSourceSignal
    private let context: WatchContext

    /// `statistics` reads the engine's running counts from the source (nil where it has none).
    init(context: WatchContext, statistics: (@Sendable () -> Statistics?)? = nil) throws {
        self.context = context
        let painter = LiveViewPainter(context: context, statistics: statistics)
        // Still on the main thread, before the source starts: nothing else draws yet.
        painter.open()
        tick = DispatchSource.makeTimerSource(queue: painter.queue)
        tick.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(100))
        tick.setEventHandler { painter.paint() }
        tick.resume()
        // A resized window is redrawn at once; the size itself is asked for every frame.
        ProcessSignals.ignore(.windowChanged)
        resize = DispatchSource.makeSignalSource(signal: Signal.windowChanged.rawValue, queue: painter.queue)
        resize.setEventHandler { painter.paint() }
        resize.resume()
        self.painter = painter
    }

    var failed: Bool { painter.failed }

    func write(_ event: LocationEvent) -> Int {
        painter.record(event)
        switch event {
        case .fix, .sky: return 1
        default: return 0
        }
    }

    func finish(_ end: LocationEvent?) {
        tick.cancel()
        resize.cancel()
        ProcessSignals.restoreDefault(.windowChanged)
        let last = painter.close()
        // The view is gone with its screen: leave where it got to, as the line output would.
        if let fix = last, fix.hasFix, fix.coordinate != nil {
            TextFormat.line(fix, into: &context.terminal.out.writer)
            context.terminal.out.flush()
        }
        if !context.terminal.out.failed, case .status(.finished(let statistics))? = end {
            context.terminal.note(Summary.line(statistics, source: context.source))
        }
    }
}

/// The live view's state and the one screen it is drawn on, each behind its own lock, so the
/// source's thread, the view's queue and the main thread can share them.
final class LiveViewPainter: Sendable {
    /// Frames at most this often (seconds): a 10 Hz receiver is drawn at its own rate, a
    /// replay at full speed is not drawn thousands of times a second.
    static let interval = 0.1

    /// Where frames are drawn while the run lasts.
    let queue = DispatchQueue(label: "gpsfix.view")

    private struct Model: Sendable {
        var view: LiveView
        /// When the last frame was drawn (monotonic seconds).
        var drawn = -Double.infinity
        /// A frame is scheduled on the queue and will show everything recorded so far.
        var pending = false
        /// The run is over: only `close` draws now.
        var closed = false
    }

    private let model: Mutex<Model>
    private let screen: Mutex<TerminalScreen>
    private let statistics: (@Sendable () -> Statistics?)?
    private let broken = Atomic<Bool>(false)

    init(context: WatchContext, statistics: (@Sendable () -> Statistics?)?) {
        model = Mutex(Model(view: LiveView(source: context.source, kind: context.kind, unicode: TerminalScreen.speaksUTF8,
                                              colour: TerminalScreen.hasColour(term: TerminalScreen.environmentTerm,
                                                                               noColor: TerminalScreen.environmentNoColor))))
        screen = Mutex(TerminalScreen(terminal: context.terminal))
        self.statistics = statistics
    }

    var failed: Bool { broken.load(ordering: .relaxed) }

    /// Puts up the view's screen with its first frame ("waiting for fix").
    func open() {
        screen.withLock { $0.enter() }
        paint()
    }

    /// Takes in an event (on the source's thread) and makes sure a frame will show it: at
    /// once if the last one is old enough, else when it is.
    func record(_ event: LocationEvent) {
        let now = Clocks.monotonicSeconds
        let delay = model.withLock { m -> Double? in
            m.view.apply(event, at: now)
            guard !m.pending, !m.closed else { return nil }
            m.pending = true
            return max(0, m.drawn + Self.interval - now)
        }
        guard let delay else { return }
        if delay == 0 {
            queue.async { self.paint() }
        } else {
            queue.asyncAfter(deadline: .now() + delay) { self.paint() }
        }
    }

    /// Draws the state as it is now (on the queue, or on the main thread before it starts).
    func paint() {
        let now = Clocks.monotonicSeconds
        let view = model.withLock { m -> LiveView? in
            m.pending = false
            guard !m.closed else { return nil }
            m.drawn = now
            return m.view
        }
        guard let view else { return }
        draw(view, now: now)
    }

    /// Ends the view (on the main thread, once no event can come): the final state drawn,
    /// however recently the last frame was, then the terminal given back. Returns the last fix.
    func close() -> Fix? {
        let view = model.withLock { m -> LiveView in
            m.closed = true
            return m.view
        }
        // A frame being drawn on the queue is finished before the last one is drawn.
        queue.sync {}
        draw(view, now: Clocks.monotonicSeconds)
        screen.withLock { $0.leave() }
        return view.fix
    }

    private func draw(_ view: LiveView, now: Double) {
        var view = view
        if let counted = statistics?() { view.update(counted) }
        let failed = screen.withLock { screen -> Bool in
            let size = screen.size()
            screen.draw(view.lines(now: now, width: size.width, height: size.height), height: size.height)
            return screen.failed
        }
        if failed { broken.store(true, ordering: .relaxed) }
    }
}
