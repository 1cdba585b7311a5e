public import GPSSystem
import Synchronization

/// A service telling its service manager how it is (systemd's `Type=notify`), as a feed of
/// its relay: READY=1 with the first word from a source (the sockets listen from the start),
/// STATUS= as the sources' state changes (in the words `describe` gives, paced by
/// `StatusPacer`), WATCHDOG=1 on each `beat()`, and STOPPING=1 on the way out. Give the
/// beat to a loop whose life matters (the gpsd server's `Heartbeat`), so that a loop that
/// hangs goes quiet and is restarted. Make one only when `ServiceNotifier.take()` found
/// `NOTIFY_SOCKET`.
///
/// Here rather than in GPSSystem, which knows nothing of GPS: it speaks of sources and
/// their events. Sends are decided and made under one lock, so what the sources' threads
/// and the beating loop send reaches the manager in the order it was decided.
public final class ServiceManagerLink: LocationFeed {
    /// What a status says of `event` from the source named `source`; nil when it changes
    /// nothing worth saying (a sentence, a sky view).
    public typealias Describe = @Sendable (_ event: LocationEvent, _ source: String, _ reception: Reception?) -> ServiceStatus?

    private let notifier: ServiceNotifier
    private let describe: Describe
    private let naming: (@Sendable (RelaySource) -> String)?
    private let log: @Sendable (String) -> Void
    private let state = Mutex(State())

    private struct State {
        var ready = false
        var stopping = false
        var pacer = StatusPacer()
        var nextPing = -Double.infinity
        /// A send has failed and been logged: the next failures are not.
        var complained = false
    }

    /// A link through `notifier`, wording statuses with `describe`; `naming` names the source
    /// an event is of (default: its name); a send that fails is told through `log`, once.
    public init(notifier: ServiceNotifier, describe: @escaping Describe, naming: (@Sendable (RelaySource) -> String)? = nil,
                log: @escaping @Sendable (String) -> Void) {
        self.notifier = notifier
        self.describe = describe
        self.naming = naming
        self.log = log
    }

    /// Nothing to start: READY=1 comes with the first event.
    public func start(_ sources: [RelaySource], control: FeedControl) {}

    /// The status `event` brings, said or held back.
    public func take(_ event: LocationEvent, from source: RelaySource) {
        self.event(event, source: naming?(source) ?? source.name, reception: source.manager.reception)
    }

    /// STOPPING=1 as soon as the relay decides to stop, before the sources are stopped.
    public func willStop() { stopping() }

    /// STOPPING=1, if not said yet.
    public func stop() { stopping() }

    /// How often to call `beat()`: often enough for the watchdog (half its timeout, as
    /// systemd asks) and for a held-back status to go out within a second of its time.
    public var beatInterval: Duration {
        guard let interval = notifier.watchdogInterval, interval < .seconds(1) else { return .seconds(1) }
        return interval
    }

    /// Called on a source's thread with each of its events; with several sources, the status
    /// says the state of the one that spoke last.
    public func event(_ event: LocationEvent, source: String, reception: Reception?) {
        let status = describe(event, source, reception)
        let now = Clocks.monotonicSeconds
        send { s -> [ServiceNotifier.Message] in
            guard !s.stopping else { return [] }
            if case .error = event, let status {
                // Said at once: the process ends next, and `systemctl status` should say why.
                s.pacer.take(status, now: now)
                return [.status(status.text)]
            }
            if !s.ready {
                s.ready = true
                let first = status ?? .receiving(source)
                s.pacer.take(first, now: now)
                return [.ready, .status(first.text)]
            }
            guard let status, let due = s.pacer.offer(status, now: now) else { return [] }
            return [.status(due.text)]
        }
    }

    /// Shutting down: said once, whoever calls first.
    public func stopping() {
        send { s -> [ServiceNotifier.Message] in
            guard !s.stopping else { return [] }
            s.stopping = true
            // A failure's status stays: it says why the service stopped.
            return s.pacer.sent?.kind == .failed ? [.stopping] : [.stopping, .status("stopping")]
        }
    }

    /// WATCHDOG=1 when due, and a held-back status once its time has come: from the loop
    /// whose life the watchdog watches, every `beatInterval`.
    public func beat() {
        let now = Clocks.monotonicSeconds
        send { s -> [ServiceNotifier.Message] in
            guard !s.stopping else { return [] }
            var messages: [ServiceNotifier.Message] = []
            if let interval = notifier.watchdogInterval, now >= s.nextPing {
                messages.append(.watchdog)
                s.nextPing = now + interval.inSeconds
            }
            if s.ready, let due = s.pacer.due(now: now) { messages.append(.status(due.text)) }
            return messages
        }
    }

    /// Decides and sends under the lock, so that what the source's thread and the loop's
    /// send reaches the manager in the order it was decided (a send never blocks); logs a
    /// failure outside it.
    private func send(_ decide: (inout State) -> [ServiceNotifier.Message]) {
        let failure = state.withLock { s -> SystemError? in
            let messages = decide(&s)
            guard !messages.isEmpty else { return nil }
            do throws(SystemError) {
                try notifier.send(messages)
                return nil
            } catch {
                defer { s.complained = true }
                return s.complained ? nil : error
            }
        }
        if let failure {
            log("cannot tell the service manager how it is (NOTIFY_SOCKET=\(notifier.address)): \(failure)")
        }
    }
}
