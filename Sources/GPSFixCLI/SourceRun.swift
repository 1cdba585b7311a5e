import Dispatch
import GPSLocation
import Synchronization

/// The one way a command runs a source to its end: every event goes to the handler on the
/// source's thread; the run ends at the source's terminal event, or when `end()` is called (a
/// file that can take no more), and Ctrl-C or SIGTERM stop the source, which ends it too.
///
/// The service is kept alive until the run ends: a manager holds its delegate weakly.
final class SourceRun: Sendable {
    let service: LocationService
    private let done = DispatchSemaphore(value: 0)
    private let outcome = Mutex<(end: LocationEvent?, signal: Int32)>((nil, 0))

    init(_ service: LocationService) { self.service = service }

    /// Ends the wait now, whatever the source is doing; the caller stops it after.
    func end() { done.signal() }

    /// Runs until the end; returns the terminal event, if one came, and the signal that
    /// stopped the run, if one did.
    func run(_ handle: @escaping @Sendable (LocationEvent) -> Void) -> (end: LocationEvent?, signal: Int32?) {
        service.subscribe { [self] event in
            handle(event)
            guard event.isTerminal else { return }
            outcome.withLock { $0.end = $0.end ?? event }
            done.signal()
        }
        let interrupts = Interrupts { [self] number in
            outcome.withLock { if $0.signal == 0 { $0.signal = number } }
            service.stop()
        }
        withExtendedLifetime(service) { done.wait() }
        interrupts.cancel()
        let result = outcome.withLock { $0 }
        return (result.end, result.signal == 0 ? nil : result.signal)
    }
}
