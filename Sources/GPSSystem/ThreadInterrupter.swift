import Glibc
import Synchronization

/// Cuts short a blocking call on one thread that nothing else can end: a modem line's wait
/// (`TIOCMIWAIT`) has no timeout and no descriptor to `poll` beside a `Wakeup`. A signal sent
/// to that thread alone (SIGUSR2, with a handler that does nothing, installed without
/// SA_RESTART) makes the call return EINTR, which the waiting call gives back as a value.
///
/// The signal may come just before the thread enters its wait, and be spent on nothing: a
/// stopper sets its flag first and calls `interrupt` until the thread says it has left.
public final class ThreadInterrupter: Sendable {
    /// The signal gpsfix sends its own threads; nothing else in it uses SIGUSR2.
    public static let signal = SIGUSR2
    private let thread = Mutex<pthread_t?>(nil)

    private static let installed: Bool = {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        return sigaction(ThreadInterrupter.signal, &action, nil) == 0
    }()

    /// An interrupter; the first one made installs the signal's handler for the process.
    public init() { _ = Self.installed }

    /// Called on the thread that will wait: the one `interrupt` signals. The signal is
    /// unblocked there, whatever mask the thread inherited (an app's threads may block all).
    public func enter() {
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, Self.signal)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
        thread.withLock { $0 = pthread_self() }
    }

    /// Called on that thread as it leaves for good: no signal is sent to it after.
    public func leave() { thread.withLock { $0 = nil } }

    /// Signals the thread, if it has entered and not left.
    public func interrupt() {
        thread.withLock { thread in
            if let thread { pthread_kill(thread, Self.signal) }
        }
    }
}
