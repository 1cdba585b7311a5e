import Glibc
import Synchronization

/// SIGINT, SIGTERM and SIGHUP turned into a call, so a program serving or recording can stop
/// its sources, flush and close its files, and exit 0 instead of dying mid-write. SIGHUP is a
/// stop like the others: it is what a closed terminal or a dropped ssh session sends.
///
/// Everything it needs is made before `init` returns: a pipe, the handlers and a thread that
/// waits on the pipe. (Dispatch's signal sources open their descriptor later, on its own
/// thread: a server that has taken every descriptor by then is left deaf to Ctrl-C.) Out of
/// descriptors at the start, the default dispositions stay: signals still end the process.
///
/// Each signal is turned into a call once: the same signal a second time ends the process as
/// it would have without `Interrupts` (a second Ctrl-C while a stop is held up quits at once).
///
/// One at a time in a process: the handlers are the process's, so the newest `Interrupts`
/// is the one called, and `cancel()` gives the signals back to their defaults.
public final class Interrupts: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32

    /// Arms the handlers now; `handler` is called with the signal's number on a thread of its
    /// own (`gpsfix-signals`), once for each of the signals, until `cancel()`.
    public init(_ handler: @escaping @Sendable (Int32) -> Void) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            readEnd = -1
            writeEnd = -1
            return
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        readEnd = ends[0]
        writeEnd = ends[1]
        interruptPipe.store(writeEnd, ordering: .releasing)
        let readEnd = self.readEnd
        spawnThread(name: "gpsfix-signals") {
            var number: UInt8 = 0
            while true {
                let n = read(readEnd, &number, 1)
                if n < 0 && errno == EINTR { continue }
                // End of the pipe, or the zero `cancel` sends: no more signals to pass on.
                guard n == 1, number != 0 else { break }
                handler(Int32(number))
            }
            close(readEnd)
        }
        for number in Self.signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                // Only async-signal-safe work here: one write of the signal's number.
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(interruptPipe.load(ordering: .acquiring), &byte, 1)
            }
            // SA_RESETHAND: the same signal again finds the default, so a second Ctrl-C ends
            // a program whose stop is held up (its output a full pipe nobody reads, a write to
            // a hung disk) at once, as people expect of a command that does not stop.
            action.sa_flags = SA_RESTART | Int32(truncatingIfNeeded: SA_RESETHAND)
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    /// The signals that stop a command: SIGINT, SIGTERM and SIGHUP.
    public static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// Back to the default: a second Ctrl-C after this ends the process as usual.
    public func cancel() {
        for number in Self.signals { signal(number, SIG_DFL) }
        guard writeEnd >= 0 else { return }
        var stop: UInt8 = 0
        _ = write(writeEnd, &stop, 1)
        close(writeEnd)
    }
}

/// Where the signal handlers write; a C handler can capture nothing, so it is global.
private let interruptPipe = Atomic<Int32>(-1)
