import GPSLocation
package import GPSSystem

/// Waiting for a lost input to come back, one way for every source: bounded back-off,
/// doubling from `first` to `longest`, each attempt told as `.reconnecting(attempt:)`, every
/// wait cut short by a stop.
package struct Reconnection {
    package let first: Double
    package let longest: Double
    /// What the waits go by: the monotonic clock, or a test's `VirtualClock`.
    package let clock: any WaitClock

    package init(first: Double, longest: Double, clock: any WaitClock = MonotonicClock()) {
        self.first = first
        self.longest = longest
        self.clock = clock
    }

    /// Calls `attempt` after each wait until it gives something back (the input is back) or
    /// the run is stopped (nil). `attempt` returning nil means "not back yet"; what it throws
    /// ends the wait (waiting cannot mend it: a port another process reads). Each attempt is
    /// told through `reporter`, if given (waiting for an input that was never there is told
    /// once, as `.waiting`, by the caller).
    package func wait<Input, Failure: Error>(in run: SourceRuns.Run, reporting reporter: RunReporter?,
                                             _ attempt: () throws(Failure) -> Input?) throws(Failure) -> Input? {
        var delay = first
        var count = 0
        while true {
            if run.isStopped { return nil }
            guard let wakeup = run.wakeup else { return nil }
            _ = clock.sleep(.seconds(delay), beside: wakeup)
            if run.isStopped { return nil }
            count += 1
            reporter?.status(.reconnecting(attempt: count))
            if let input = try attempt() {
                return run.isStopped ? nil : input
            }
            delay = min(delay * 2, longest)
        }
    }
}
