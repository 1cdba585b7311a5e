import GPSSystem
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
        var descriptors: Set<FileDescriptor> = []
        /// Set by the exit handler: a hold taken after it would never be given back.
        var exiting = false
    }

    private static let state = Mutex(State())

    /// Installed with the first hold; C calls it from `exit`, on whichever thread exits.
    private static let exitHandler: Bool = ProcessExit.call { ExclusiveHolds.giveBackAll() }

    /// Puts the tty open at `descriptor` in exclusive mode and writes the hold down. Throws
    /// ECANCELED once the process has begun to exit.
    static func take(_ terminal: SerialTerminal) throws(SystemError) {
        _ = exitHandler
        // Under the lock, so that the exit handler sees either no hold or one it clears.
        try state.withLock { state throws(SystemError) in
            guard !state.exiting else { throw .canceled }
            try terminal.setExclusive(true)
            state.descriptors.insert(terminal.descriptor)
        }
    }

    /// Clears the mode on `descriptor` (TIOCNXCL) and forgets the hold. Call before closing
    /// it: afterwards the number may already name another file.
    static func giveBack(_ terminal: SerialTerminal) {
        state.withLock { state in
            guard state.descriptors.remove(terminal.descriptor) != nil else { return }
            try? terminal.setExclusive(false)
        }
    }

    /// Whether this process holds the tty `device` (a device number) exclusively already.
    static func holds(device: UInt64) -> Bool {
        state.withLock { state in
            state.descriptors.contains { descriptor in
                (try? descriptor.status())?.representedDevice == device
            }
        }
    }

    /// Clears every hold and refuses new ones: the process is exiting.
    static func giveBackAll() {
        state.withLock { state in
            state.exiting = true
            for descriptor in state.descriptors { try? SerialTerminal(descriptor).setExclusive(false) }
            state.descriptors = []
        }
    }
}
