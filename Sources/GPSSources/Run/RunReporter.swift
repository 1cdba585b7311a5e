import NMEA
package import GPSLocation

/// How a run speaks to its manager's delegate, with the rules every source keeps: nothing
/// after a stop, and a run that ends by itself is released before its end is told (so a start
/// made on the news begins a new run).
package struct RunReporter {
    package let manager: any LocationManagerInterface
    package let relay: DelegateRelay
    package let runs: SourceRuns
    package let run: SourceRuns.Run

    package init(manager: any LocationManagerInterface, relay: DelegateRelay, runs: SourceRuns, run: SourceRuns.Run) {
        self.manager = manager
        self.relay = relay
        self.runs = runs
        self.run = run
    }

    /// Calls the delegate, unless the run has been stopped.
    package func notify(_ call: (any LocationManagerDelegate) -> Void) {
        guard !run.isStopped, let delegate = relay.delegate else { return }
        call(delegate)
    }

    package func status(_ status: SourceStatus) {
        notify { $0.locationManager(manager, didChangeStatus: status) }
    }

    /// The run cannot go on: released, then told.
    package func fail(_ error: LocationError) {
        runs.release(run)
        notify { $0.locationManager(manager, didFailWithError: error) }
    }

    /// The input is over (a replay's end): released, then told.
    func finish(_ statistics: Statistics) {
        guard !run.isStopped else { return }
        runs.release(run)
        notify { $0.locationManager(manager, didChangeStatus: .finished(statistics)) }
    }
}
