public import Glibc
import GPSSystem
import Synchronization

/// A program left running while a test talks to it or signals it, started with posix_spawn
/// (not Foundation's `Process`: see `runProgram`): its stderr collected as it comes, reaped by
/// a thread of its own, so its status is known the moment it ends. Stop it with a signal; a
/// program still running when this is released is killed.
public final class RunningProgram: Sendable {
    public let processIdentifier: pid_t
    private let errors = Bytes()
    private let outputs = Bytes()

    /// Bytes a reader thread appends to (a `Mutex` cannot be captured by an escaping closure).
    private final class Bytes: Sendable {
        let value = Mutex<[UInt8]>([])
    }

    /// Where its standard output goes.
    public enum Output: Sendable {
        case discard
        case descriptor(Int32)
        /// Into ``output``, as it comes.
        case collect
    }
    private let exit = Eventually<(status: Int32, signalled: Bool)>()

    /// Starts `command`; `environment` nil passes on this process's; its 0 is /dev/null.
    public init(_ command: [String], environment: [String]? = nil, standardOutput: Output = .discard) throws {
        var err: [Int32] = [-1, -1], out: [Int32] = [-1, -1]
        guard pipe(&err) == 0 else { throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))") }
        if case .collect = standardOutput, pipe(&out) != 0 {
            close(err[0]); close(err[1])
            throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))")
        }
        for fd in err + out where fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let open = openDescriptors()
        do {
            processIdentifier = try spawn(command, environment: environment) { actions in
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                switch standardOutput {
                case .discard: posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
                case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, 1)
                case .collect: posix_spawn_file_actions_adddup2(&actions, out[1], 1)
                }
                posix_spawn_file_actions_adddup2(&actions, err[1], 2)
                for fd in open where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
            }
        } catch {
            for fd in err + out where fd >= 0 { close(fd) }
            throw error
        }
        close(err[1])
        let (exit, pid) = (exit, processIdentifier)
        Self.collect(err[0], into: errors, name: "test-child-err")
        if out[1] >= 0 {
            close(out[1])
            Self.collect(out[0], into: outputs, name: "test-child-out")
        }
        spawnThread(name: "test-child-wait") {
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 { guard errno == EINTR else { return exit.fulfill((-1, false)) } }
            // WIFSIGNALED and WEXITSTATUS are macros Swift does not import; a signal's status is its number.
            let signalled = raw & 0x7F != 0
            exit.fulfill((signalled ? raw & 0x7F : (raw >> 8) & 0xFF, signalled))
        }
    }

    deinit { if isRunning { kill(processIdentifier, SIGKILL) } }

    /// Reads `fd` on a thread of its own until its end, into `sink`, and closes it.
    private static func collect(_ fd: Int32, into sink: Bytes, name: String) {
        spawnThread(name: name) {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                sink.value.withLock { $0 += chunk[..<n] }
            }
            close(fd)
        }
    }

    /// What it has written to its standard output so far (with `.collect`).
    public var output: String { String(decoding: outputs.value.withLock { $0 }, as: UTF8.self) }

    public var isRunning: Bool { exit.fulfillments == 0 }
    /// SIGTERM.
    public func terminate() { kill(processIdentifier, SIGTERM) }
    /// What it has written to stderr so far.
    public var stderr: String { String(decoding: errors.value.withLock { $0 }, as: UTF8.self) }

    /// Its exit status (or the signal's number), once it has ended within `limit`; nil otherwise.
    public func status(within limit: Duration) async -> Int32? { await exit.value(within: limit)?.status }
    /// Whether it ended by a signal; nil while it runs.
    public func signalled(within limit: Duration) async -> Bool? { await exit.value(within: limit)?.signalled }
}

/// This process's open descriptors, from /proc/self/fd, each name read up to its NUL.
func openDescriptors() -> [Int32] {
    guard let dir = opendir("/proc/self/fd") else { return [] }
    defer { closedir(dir) }
    var found: [Int32] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
            String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
        if let fd = Int32(name) { found.append(fd) }
    }
    return found
}
