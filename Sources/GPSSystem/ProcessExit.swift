import Glibc

/// Work done as the process exits (`atexit`), on whichever thread calls `exit`.
public enum ProcessExit {
    /// Runs `handler` at exit; false when the C library has no room for another.
    public static func call(_ handler: @convention(c) () -> Void) -> Bool {
        atexit(handler) == 0
    }

    /// Ends the process with `status`, running the `call` handlers first.
    public static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }
}
