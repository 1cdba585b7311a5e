import Glibc

/// Work done as the process exits (`atexit`), on whichever thread calls `exit`.
public enum ProcessExit {
    /// Runs `handler` at exit; false when the C library has no room for another.
    public static func call(_ handler: @convention(c) () -> Void) -> Bool {
        atexit(handler) == 0
    }
}
