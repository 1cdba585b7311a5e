import GPSSystem
import Glibc
import Synchronization

/// The ttys this process holds in exclusive mode (TIOCEXCL), given back when it exits.
///
/// On a pty the mode belongs to the tty, not to the descriptor: unless cleared it outlives the
/// process, and the next open of the pty is refused as busy. A reader lets its port go within
/// microseconds of being stopped, but `exit` waits for no thread: a command that returned right
/// after stopping its source (Ctrl-C, SIGTERM, a fix that arrived, the end of a probe) raced
/// its reader and often lost. So every hold is written down here, and an `atexit` handler
/// clears the ones still held.
enum ExclusiveHolds {
    private struct State {
        var descriptors: Set<Int32> = []
        /// Set by the exit handler: a hold taken after it would never be given back.
        var exiting = false
    }

    private static let state = Mutex(State())

    /// Installed with the first hold; C calls it from `exit`, on whichever thread exits.
    private static let exitHandler: Bool = atexit { ExclusiveHolds.giveBackAll() } == 0

    /// Puts the tty open at `descriptor` in exclusive mode and writes the hold down. Throws
    /// ECANCELED once the process has begun to exit.
    static func take(_ descriptor: Int32) throws(SystemError) {
        _ = exitHandler
        // Under the lock, so that the exit handler sees either no hold or one it clears.
        try state.withLock { state throws(SystemError) in
            guard !state.exiting else { throw SystemError(rawValue: ECANCELED) }
            _ = try retryingInterrupts { ioctl(descriptor, UInt(TIOCEXCL)) }
            state.descriptors.insert(descriptor)
        }
    }

    /// Clears the mode on `descriptor` (TIOCNXCL) and forgets the hold. Call before closing
    /// it: afterwards the number may already name another file.
    static func giveBack(_ descriptor: Int32) {
        state.withLock { state in
            guard state.descriptors.remove(descriptor) != nil else { return }
            _ = ioctl(descriptor, UInt(TIOCNXCL))
        }
    }

    /// Whether this process holds the tty `device` (a device number) exclusively already.
    static func holds(device: dev_t) -> Bool {
        state.withLock { state in
            state.descriptors.contains { descriptor in
                var info = stat()
                return fstat(descriptor, &info) == 0 && info.st_rdev == device
            }
        }
    }

    /// Clears every hold and refuses new ones: the process is exiting.
    static func giveBackAll() {
        state.withLock { state in
            state.exiting = true
            for descriptor in state.descriptors { _ = ioctl(descriptor, UInt(TIOCNXCL)) }
            state.descriptors = []
        }
    }
}
