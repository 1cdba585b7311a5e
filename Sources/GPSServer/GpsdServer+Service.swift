public import GPSLocation

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
        let failure = FailureBox()
        let manager = service.manager
        let subscription = service.subscribe { [self] event in
            // The rate is known once the source has settled it, which may be well after it
            // opened (autobaud): DEVICE says it from then on.
            if let baud = manager.reception?.baud { setDeviceRate(baud) }
            publish(event)
            onEvent?(event)
            if case .error(let error) = event {
                // The source cannot go on (no such device, gpsd refused): stop serving.
                failure.set(error)
                stop()
            }
        }
        withExtendedLifetime(service) { run(heartbeat: heartbeat) }
        service.unsubscribe(subscription)
        service.stop()
        return failure.value
    }
}

/// The source's failure, set on its thread, read after `run` has returned.
private final class FailureBox: @unchecked Sendable {
    // Written once on the source's thread before it stops the loop; read after the loop ends,
    // which the server's own lock orders after the write.
    private(set) var value: LocationError?
    func set(_ error: LocationError) { if value == nil { value = error } }
}
