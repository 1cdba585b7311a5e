public import Glibc
import GPSSystem

public struct SpawnError: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

/// Starts `args[0]` with an empty signal mask and default dispositions set explicitly (a
/// child started from a Dispatch or async thread would otherwise inherit that thread's blocked
/// signals and ignore SIGTERM), its output to /dev/null. Returns its PID; stop it by PID.
public func spawnQuietly(_ args: [String]) throws -> pid_t {
    try spawn(args) { actions in
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }
}

/// Starts `args[0]` as a shell would (GPSSystem's `ChildProcess.spawn`): no blocked signals,
/// default dispositions. `files` sets up its descriptors; `environment` nil passes on this
/// process's. Returns its PID.
public func spawn(_ args: [String], environment: [String]? = nil,
                  files: (inout posix_spawn_file_actions_t) -> Void) throws -> pid_t {
    do {
        return try ChildProcess.spawn(args, environment: environment, files: files)
    } catch {
        throw SpawnError(description: "posix_spawn \(args[0]): \(error)")
    }
}

/// Sends `signal` to a child started by `spawn`, and reaps it: SIGKILL when it has not ended
/// within `grace`, so that a test's end never waits on a peer that will not stop. Returns
/// the raw wait status, or nil when the child was not this process's to reap.
@discardableResult
public func stopChild(_ pid: pid_t, _ signal: Int32 = SIGTERM, grace: Duration = .seconds(5)) -> Int32? {
    guard pid > 0 else { return nil }
    kill(pid, signal)
    var status: Int32 = 0
    let deadline = ContinuousClock.now + grace
    while true {
        switch waitpid(pid, &status, WNOHANG) {
        case pid: return status
        case 0 where ContinuousClock.now < deadline: usleep(10_000)
        case 0:
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0 { guard errno == EINTR else { return nil } }
            return status
        default:
            guard errno == EINTR else { return nil }
        }
    }
}
