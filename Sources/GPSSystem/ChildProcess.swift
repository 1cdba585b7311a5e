public import Glibc

/// Another program, started as a shell would start it: no blocked signals and default
/// dispositions set explicitly (a child started from a Dispatch or async thread would
/// otherwise inherit that thread's blocked signals and ignore SIGTERM). A command hands work
/// to a tool it does not contain (`gpsfix plot -o FILE.png` to rsvg-convert) with `run`.
public enum ChildProcess {
    /// Starts `arguments[0]` (a path, not looked up on PATH); `files` sets up its descriptors,
    /// `environment` nil passes on this process's. Returns its PID: the caller reaps it.
    public static func spawn(_ arguments: [String], environment: [String]? = nil,
                             files: (inout posix_spawn_file_actions_t) -> Void = { _ in }) throws(SystemError) -> pid_t {
        precondition(!arguments.isEmpty, "a program to run")
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        files(&actions)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup($0) } + [nil] }
        defer { (argv + (envp ?? [])).forEach { free($0) } }
        var child: pid_t = 0
        let code = envp.map { posix_spawn(&child, arguments[0], &actions, &attributes, argv, $0) }
            ?? posix_spawn(&child, arguments[0], &actions, &attributes, argv, environ)
        guard code == 0 else { throw SystemError(rawValue: code) }
        return child
    }

    /// Runs `arguments[0]` to its end, its standard input /dev/null and its output and errors
    /// this process's (so what it says reaches the user). Returns its exit status, or 128 +
    /// the signal that ended it.
    public static func run(_ arguments: [String]) throws(SystemError) -> Int32 {
        let child = try spawn(arguments) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        var status: Int32 = 0
        _ = try retryingInterrupts { waitpid(child, &status, 0) }
        // WIFEXITED and WEXITSTATUS are macros Swift does not import.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
