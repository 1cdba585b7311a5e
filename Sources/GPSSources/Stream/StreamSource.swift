package import GPSLocation

/// What every byte-stream manager holds (its delegate, its runs, its counts) and its one way
/// to start a run: a manager is this, its options, and the `StreamOpener` it makes per run.
package final class StreamSource: Sendable {
    package let relay = DelegateRelay()
    package let counted = StatisticsSnapshot()
    package let received = ReceptionCount()
    package let runs: SourceRuns

    /// `threadName` names the runs' threads, for debuggers and `top -H`.
    package init(threadName: String) { runs = SourceRuns(name: threadName) }

    /// Starts a run reading what `opener` opens (made on the run's thread, given its run),
    /// unless one is under way (then false).
    @discardableResult
    package func start(_ manager: any LocationManagerInterface, settings: StreamReader.Settings,
               opener: @escaping @Sendable (SourceRuns.Run) -> any StreamOpener) -> Bool {
        runs.start { [self] run in
            let reporter = RunReporter(manager: manager, relay: relay, runs: runs, run: run)
            StreamReader(opener: opener(run), reporter: reporter, settings: settings, counted: counted,
                         received: received).main()
        }
    }

    package func stop() { runs.stop() }
}
