import Dispatch
package import GPSSystem
import Synchronization

/// How every source starts, stops and ends, one way: each start makes a fresh `Run` on a
/// thread of its own; a stop ends the current run (and wakes it, wherever it waits); a run
/// that ends by itself is released *before* its terminal news is told, so a start made on
/// the news begins a new run rather than finding the old one in place and being lost.
///
/// A new start waits (briefly) for the run before it to have let go of its input: a reader
/// stopped a moment ago may still hold a port exclusively.
package final class SourceRuns: Sendable {
    /// One run's stop flag, the pipe that wakes it, and word of its end.
    package final class Run: Sendable {
        private let stopped = Atomic<Bool>(false)
        private let ended = DispatchSemaphore(value: 0)
        /// What the run polls beside its input, or sleeps on between paced reports; nil when
        /// no pipe could be made (the process is out of descriptors): the run then fails.
        package let wakeup = Wakeup()

        package func stop() {
            stopped.store(true, ordering: .releasing)
            wakeup?.signal()
        }

        package var isStopped: Bool { stopped.load(ordering: .acquiring) }

        fileprivate func end() { ended.signal() }

        fileprivate func waitForEnd(seconds: Double) {
            if ended.wait(timeout: .now() + seconds) == .success { ended.signal() }
        }
    }

    private let name: String
    private let runs = Mutex<(current: Run?, previous: Run?)>((nil, nil))

    /// `name` names the threads, for debuggers and `top -H`.
    package init(name: String) { self.name = name }

    /// Starts `body` on a new thread with a fresh run, unless a run is under way (a second
    /// start is no-op, as CoreLocation's is, and false).
    @discardableResult
    package func start(_ body: @escaping @Sendable (Run) -> Void) -> Bool {
        let started = runs.withLock { runs -> (run: Run, previous: Run?)? in
            guard runs.current == nil else { return nil }
            let run = Run()
            defer { runs = (run, nil) }
            return (run, runs.previous)
        }
        guard let (run, previous) = started else { return false }
        spawnThread(name: name) { [self] in
            previous?.waitForEnd(seconds: 2)
            body(run)
            run.end()
            release(run)
        }
        return true
    }

    /// Ends the current run, if any (false when there was none); it stops reporting at once.
    @discardableResult
    package func stop() -> Bool {
        let run = runs.withLock { runs -> Run? in
            guard let run = runs.current else { return nil }
            runs = (nil, run)
            return run
        }
        run?.stop()
        return run != nil
    }

    /// The run ended by itself: the next start begins a new one. Call before telling the
    /// delegate of the end.
    package func release(_ run: Run) {
        runs.withLock { if $0.current === run { $0 = (nil, run) } }
    }
}
