import Glibc

/// A signal, by what it means to gpsfix.
public struct Signal: RawRepresentable, Hashable, Sendable {
    /// The signal's number.
    public let rawValue: Int32
    /// The signal numbered `rawValue`.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Ctrl-C. The corresponding C constant is `SIGINT`.
    public static let interrupt = Signal(rawValue: SIGINT)
    /// A stop asked for (systemd, kill). The corresponding C constant is `SIGTERM`.
    public static let terminate = Signal(rawValue: SIGTERM)
    /// The terminal went away. The corresponding C constant is `SIGHUP`.
    public static let hangUp = Signal(rawValue: SIGHUP)
    /// A write to a pipe nobody reads. The corresponding C constant is `SIGPIPE`.
    public static let brokenPipe = Signal(rawValue: SIGPIPE)
    /// A file grown past `ulimit -f`. The corresponding C constant is `SIGXFSZ`.
    public static let fileSizeLimit = Signal(rawValue: SIGXFSZ)
    /// The terminal changed size. The corresponding C constant is `SIGWINCH`.
    public static let windowChanged = Signal(rawValue: SIGWINCH)
}

/// What the process does with signals as a whole (handlers that call back live in
/// `Interrupts`).
public enum ProcessSignals {
    /// Makes the process ignore `signal`: the call it would have interrupted fails instead
    /// (EPIPE, EFBIG), and that is reported.
    public static func ignore(_ signal: Signal) {
        _ = Glibc.signal(signal.rawValue, SIG_IGN)
    }

    /// Gives `signal` its default action back.
    public static func restoreDefault(_ signal: Signal) {
        _ = Glibc.signal(signal.rawValue, SIG_DFL)
    }

    /// Unblocks every signal on the calling thread: a parent may have started us with some
    /// blocked (children of Dispatch threads inherit their mask).
    public static func unblockAll() {
        var none = sigset_t()
        sigemptyset(&none)
        sigprocmask(SIG_SETMASK, &none, nil)
    }
}

/// The process's environment.
public enum Environment {
    /// The value of `name`, nil when unset. Not safe beside a concurrent `setenv`/`unsetenv`.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Removes `name`. Call it before any other thread may read the environment: `unsetenv`
    /// is not safe beside a concurrent `getenv`.
    public static func remove(_ name: String) {
        unsetenv(name)
    }

    /// The value of `name`, taken: its bytes overwritten where the kernel shows the
    /// environment from (`/proc/PID/environ` reads the initial block, which `unsetenv` leaves
    /// as it was), then removed. For a secret passed in the environment. Call it before any
    /// other thread may read the environment.
    public static func take(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        memset(value, 0, strlen(value))
        unsetenv(name)
        return text
    }

    /// This machine's name (`gethostname`); nil when it cannot be read.
    public static var hostName: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
