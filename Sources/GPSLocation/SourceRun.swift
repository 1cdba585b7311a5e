import Dispatch
import GPSSystem
import Synchronization

/// Runs sources to their end, the way `gpsfix watch` and `record` do: every event goes to
/// the handler on its source's thread; the run ends once every source has had its terminal
/// event, or when `end()` is called (a file that can take no more), and, once
/// `armInterrupts()` was called (`runEach` does), SIGINT, SIGTERM and SIGHUP stop the
/// sources, which ends it too. (`LocationRelay` does the same for feeds that outlive a run.)
///
/// The services are kept alive until the run ends: a manager holds its delegate weakly.
public final class SourceRun: Sendable {
    /// The sources, in the order given: `runAll` names each by its index.
    public let services: [LocationService]
    private let done = DispatchSemaphore(value: 0)
    private let outcome: Mutex<(ends: [LocationEvent?], open: Int, signal: Int32)>
    private let interrupts = Mutex<Interrupts?>(nil)

    /// A run of one source.
    public convenience init(_ service: LocationService) { self.init([service]) }

    /// A run of `services` (at least one).
    public init(_ services: [LocationService]) {
        precondition(!services.isEmpty, "a run reads at least one source")
        self.services = services
        outcome = Mutex((Array(repeating: nil, count: services.count), services.count, 0))
    }

    /// The one source of a run that reads one.
    public var service: LocationService { services[0] }

    /// Ends the wait now, whatever the sources are doing; the caller stops them after.
    public func end() { done.signal() }

    /// Stops every source (each then delivers its terminal event); from a handler too, which
    /// then sees nothing more of that source.
    public func stop() { for service in services { service.stop() } }

    /// From now on, Ctrl-C and SIGTERM stop the sources (and end the run). `runEach` does
    /// this itself; a command that says "Ctrl-C to stop" before it runs arms them first, or a
    /// signal in between would kill it mid-start.
    public func armInterrupts() {
        interrupts.withLock { armed in
            guard armed == nil else { return }
            armed = Interrupts { [self] number in
                outcome.withLock { if $0.signal == 0 { $0.signal = number } }
                stop()
            }
        }
    }

    /// Runs one source until its end; returns the terminal event, if one came, and the signal
    /// that stopped the run, if one did.
    public func run(_ handle: @escaping @Sendable (LocationEvent) -> Void) -> (end: LocationEvent?, signal: Int32?) {
        let (ends, signal) = runAll { _, event in handle(event) }
        return (ends[0], signal)
    }

    /// Runs every source until each has ended; `handle` learns which (its index) each event
    /// came from. Returns each source's terminal event, and the signal that stopped the run.
    public func runAll(_ handle: @escaping @Sendable (Int, LocationEvent) -> Void) -> (ends: [LocationEvent?], signal: Int32?) {
        runEach(services.indices.map { index in { event in handle(index, event) } })
    }

    /// As `runAll`, with a handler of its own for each source (in the services' order): what
    /// a source's events go to is settled once, not looked up per event.
    public func runEach(_ handlers: [@Sendable (LocationEvent) -> Void]) -> (ends: [LocationEvent?], signal: Int32?) {
        precondition(handlers.count == services.count, "one handler per source")
        for (index, service) in services.enumerated() {
            let handle = handlers[index]
            service.subscribe { [self] event in
                handle(event)
                guard event.isTerminal else { return }
                let last = outcome.withLock { o -> Bool in
                    guard o.ends[index] == nil else { return false }
                    o.ends[index] = event
                    o.open -= 1
                    return o.open == 0
                }
                if last { done.signal() }
            }
        }
        armInterrupts()
        withExtendedLifetime(services) { done.wait() }
        interrupts.withLock { armed in
            armed?.cancel()
            armed = nil
        }
        let result = outcome.withLock { $0 }
        return (result.ends, result.signal == 0 ? nil : result.signal)
    }
}
