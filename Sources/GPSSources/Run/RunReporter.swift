import NMEA
import GPSLocation

/// How a run speaks to its manager's delegate, with the rules every source keeps: nothing
/// after a stop, and a run that ends by itself is released before its end is told (so a start
/// made on the news begins a new run).
struct RunReporter {
    let manager: any LocationManagerInterface
    let relay: DelegateRelay
    let runs: SourceRuns
    let run: SourceRuns.Run

    /// Calls the delegate, unless the run has been stopped.
    func notify(_ call: (any LocationManagerDelegate) -> Void) {
        guard !run.isStopped, let delegate = relay.delegate else { return }
        call(delegate)
    }

    func status(_ status: SourceStatus) {
        notify { $0.locationManager(manager, didChangeStatus: status) }
    }

    /// The run cannot go on: released, then told.
    func fail(_ error: LocationError) {
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
