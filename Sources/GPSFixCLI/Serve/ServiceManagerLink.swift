import GPSLocation
import GPSServer
import GPSSystem
import Synchronization

/// `serve` telling its service manager how it is (systemd's `Type=notify`): READY=1 with the
/// first word from the source (the sockets listen from the start), STATUS= as the source's
/// state changes (paced by `StatusPacer`), WATCHDOG=1 from the server's loop, so that a loop
/// that hangs goes quiet and is restarted, and STOPPING=1 on the way out. Made only when
/// `NOTIFY_SOCKET` is set; a feed of `serve`'s relay.
final class ServiceManagerLink: LocationFeed {
    private let notifier: ServiceNotifier
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

    /// `naming` names the source an event is of in the statuses (default: its name).
    init(notifier: ServiceNotifier, naming: (@Sendable (RelaySource) -> String)? = nil, log: @escaping @Sendable (String) -> Void) {
        self.notifier = notifier
        self.naming = naming
        self.log = log
    }

    func start(_ sources: [RelaySource], control: FeedControl) {}

    func take(_ event: LocationEvent, from source: RelaySource) {
        self.event(event, source: naming?(source) ?? source.name, reception: source.manager.reception)
    }

    /// STOPPING=1 as soon as the relay decides to stop, before the sources are stopped.
    func willStop() { stopping() }

    func stop() { stopping() }

    /// What the server's loop calls: often enough for the watchdog (half its timeout, as
    /// systemd asks) and for a held-back status to go out within a second of its time.
    var heartbeat: Heartbeat {
        Heartbeat(every: min(notifier.watchdogInterval ?? 1, 1)) { [self] in beat() }
    }

    /// Called on a source's thread with each of its events; with several sources, the status
    /// says the state of the one that spoke last.
    func event(_ event: LocationEvent, source: String, reception: Reception?) {
        let status = ServiceStatus.after(event, source: source, reception: reception)
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

    /// Shutting down: said once, whoever calls first (the signal's thread or the end of serve).
    func stopping() {
        send { s -> [ServiceNotifier.Message] in
            guard !s.stopping else { return [] }
            s.stopping = true
            // A failure's status stays: it says why the service stopped.
            return s.pacer.sent?.kind == .failed ? [.stopping] : [.stopping, .status("stopping")]
        }
    }

    private func beat() {
        let now = Clocks.monotonicSeconds
        send { s -> [ServiceNotifier.Message] in
            guard !s.stopping else { return [] }
            var messages: [ServiceNotifier.Message] = []
            if let interval = notifier.watchdogInterval, now >= s.nextPing {
                messages.append(.watchdog)
                s.nextPing = now + interval
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
            log("gpsfix: serve: cannot tell the service manager how it is (NOTIFY_SOCKET=\(notifier.address)): \(failure)")
        }
    }
}
