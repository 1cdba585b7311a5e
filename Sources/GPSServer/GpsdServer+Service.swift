public import GPSLocation
import Synchronization

extension GpsdServer {
    /// Serves `service`'s source to gpsd's clients on the calling thread until `stop()`, or
    /// until the source fails; returns that failure, if it was one. Everything an app needs
    /// to be a gpsd for its clients:
    ///
    ///     let server = try GpsdServer(configuration: .init(release: "myapp 1.0"),
    ///                                 device: .init(path: manager.sourceDescription)) { print($0) }
    ///     let error = server.serve(LocationService(manager: manager))
    ///
    /// `onEvent` sees every event too, on the source's thread (for logging what happens);
    /// `heartbeat` is called from the server's loop while it runs (a watchdog's sign of life).
    @discardableResult
    public func serve(_ service: LocationService, heartbeat: Heartbeat? = nil,
                      onEvent: (@Sendable (LocationEvent) -> Void)? = nil) -> LocationError? {
        var each: (@Sendable (Int, LocationEvent) -> Void)?
        if let onEvent { each = { _, event in onEvent(event) } }
        return serve([service], heartbeat: heartbeat, onEvent: each)
    }

    /// Serves several sources at once, each as the device of the same index (the server was
    /// made with one device per service). The server stops when every source has failed, and
    /// returns the first failure then; one that fails while others go on is told through
    /// `onEvent` (with its index) only.
    @discardableResult
    public func serve(_ services: [LocationService], heartbeat: Heartbeat? = nil,
                      onEvent: (@Sendable (Int, LocationEvent) -> Void)? = nil) -> LocationError? {
        precondition(services.count == deviceCount, "one service per device")
        let failures = FailureBox(sources: services.count)
        let subscriptions = services.enumerated().map { device, service in
            let manager = service.manager
            return service.subscribe { [self] event in
                // The rate is known once the source has settled it, which may be well after it
                // opened (autobaud): DEVICE says it from then on.
                if let baud = manager.reception?.baud { setDeviceRate(baud, device: device) }
                // A receiver found only once plugged in is named when it opens.
                if case .status(.started) = event { renameDevice(device, to: manager.sourceDescription) }
                publish(event, device: device)
                onEvent?(device, event)
                // A source that cannot go on (no such device, gpsd refused) ends the serving
                // once none is left.
                if case .error(let error) = event, failures.add(error) { stop() }
            }
        }
        withExtendedLifetime(services) { run(heartbeat: heartbeat) }
        for (service, subscription) in zip(services, subscriptions) {
            service.unsubscribe(subscription)
            service.stop()
        }
        return failures.ending
    }
}

/// The sources' failures, counted on their threads, read after `run` has returned.
private final class FailureBox: Sendable {
    private let state: Mutex<(first: LocationError?, count: Int)>
    private let sources: Int

    init(sources: Int) {
        self.sources = sources
        state = Mutex((nil, 0))
    }

    /// Counts a failure; true when every source has now failed.
    func add(_ error: LocationError) -> Bool {
        state.withLock { s in
            s.first = s.first ?? error
            s.count += 1
            return s.count >= sources
        }
    }

    /// The first failure, if every source failed (which is what ended the serving).
    var ending: LocationError? { state.withLock { $0.count >= sources ? $0.first : nil } }
}
