public import GPSLocation

extension GpsdServer {
    /// Serves `service`'s source to gpsd's clients until `stop()`, or until the source fails;
    /// returns that failure, if it was one. It blocks the calling thread (the loop runs on a
    /// thread of its own meanwhile); `run(serving:heartbeat:)` is the async form. When it
    /// returns, the source has been stopped and the server's loop has ended: a server serves
    /// once. Everything an app needs to be a gpsd for its clients:
    ///
    ///     let server = try GpsdServer(configuration: .init(release: "myapp 1.0"),
    ///                                 device: .init(path: manager.sourceDescription)) { print($0) }
    ///     let error = server.serve(LocationService(manager: manager))
    ///
    /// `onEvent` sees every event too, on the source's thread (for logging what happens);
    /// `heartbeat` is called from the server's loop while it runs (a watchdog's sign of life).
    /// To serve beside other feeds (MQTT, a time feed), give `feed(heartbeat:)` to a
    /// `LocationRelay`, which is what this does.
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
    /// `onEvent` (with its index) only. When it returns, every source has been stopped.
    @discardableResult
    public func serve(_ services: [LocationService], heartbeat: Heartbeat? = nil,
                      onEvent: (@Sendable (Int, LocationEvent) -> Void)? = nil) -> LocationError? {
        do throws(RelayError) {
            try relay(services, heartbeat: heartbeat, onEvent: onEvent).run()
            return nil
        } catch {
            return error.sourceFailure
        }
    }

    /// `serve` without blocking a thread of the cooperative pool: awaits the end of the
    /// serving; cancelling the task stops it (and it returns normally). Throws
    /// `RelayError.sourcesFailed` when every source failed. When it returns, every source has
    /// been stopped and the server's loop has ended.
    public func run(serving services: [LocationService], heartbeat: Heartbeat? = nil,
                    onEvent: (@Sendable (Int, LocationEvent) -> Void)? = nil) async throws(RelayError) {
        try await relay(services, heartbeat: heartbeat, onEvent: onEvent).run()
    }

    private func relay(_ services: [LocationService], heartbeat: Heartbeat?,
                       onEvent: (@Sendable (Int, LocationEvent) -> Void)?) -> LocationRelay {
        precondition(services.count == deviceCount, "one service per device")
        var feeds: [any LocationFeed] = [feed(heartbeat: heartbeat)]
        if let onEvent { feeds.append(EventTap(onEvent)) }
        return LocationRelay(services, feeds: feeds)
    }
}

/// `onEvent` as the last feed: it sees each event after the server has taken it.
private final class EventTap: LocationFeed {
    let onEvent: @Sendable (Int, LocationEvent) -> Void
    init(_ onEvent: @escaping @Sendable (Int, LocationEvent) -> Void) { self.onEvent = onEvent }
    func start(_ sources: [RelaySource], control: FeedControl) {}
    func take(_ event: LocationEvent, from source: RelaySource) { onEvent(source.index, event) }
    func stop() {}
}
