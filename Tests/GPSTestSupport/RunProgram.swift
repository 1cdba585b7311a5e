public import Glibc
import GPSSystem
import Synchronization

/// How a program run by `runProgram` ended, and what it wrote.
public struct ProgramResult: Sendable {
    /// Its exit status, or the signal's number when `signalled`.
    public var status: Int32
    public var stdout: [UInt8]
    public var stderr: [UInt8]
    public var signalled: Bool
    /// It was still running at the limit, and was stopped.
    public var timedOut: Bool

    public var out: String { String(decoding: stdout, as: UTF8.self) }
    public var err: String { String(decoding: stderr, as: UTF8.self) }
}

/// Runs `command` to its end (or `limit`, when it is stopped: SIGTERM, then SIGKILL) with
/// posix_spawn, its output read into the result. Not Foundation's `Process`: its `run()` in
/// this toolchain reads past a readdir buffer while it lists /proc/self/fd, and crashed the
/// test bundle now and then (SIGSEGV in memcpy; swift-corelibs-foundation PR 5472, not in
/// 6.3.1). Like `Process`, every other descriptor is closed in the child, so a pipe's other
/// end held by the tests does not hold off its EOF.
/// - `environment`: the whole environment, or nil for this process's;
/// - `standardInput`/`standardOutput`: descriptors for the child's 0 and 1 instead of
///   /dev/null and a pipe read into `stdout` (which is then empty);
/// - `whileRunning`: called with the PID once it has started, and awaited before returning.
public func runProgram(_ command: [String], environment: [String]? = nil, standardInput: Int32? = nil, standardOutput: Int32? = nil,
                       limit: Duration = .seconds(30), whileRunning: (@Sendable (pid_t) async -> Void)? = nil) async throws -> ProgramResult {
    let child = try spawnPiped(command, environment: environment, standardInput: standardInput, standardOutput: standardOutput)
    let pid = child.pid
    // Blocking reads get threads of their own: Dispatch's shared pool (two threads on a
    // two-core machine) also runs the tests' tasks and every timer.
    let outData = Eventually<[UInt8]>(), errData = Eventually<[UInt8]>()
    if let outFD = child.output {
        spawnThread(name: "test-stdout") { outData.fulfill(readToEnd(outFD)) }
    } else {
        outData.fulfill([])
    }
    let errFD = child.errors
    spawnThread(name: "test-stderr") { errData.fulfill(readToEnd(errFD)) }
    let hook = whileRunning.map { body in Task { await body(pid) } }
    var raw: Int32 = 0
    let ended = await waitUntil(limit) { waitpid(pid, &raw, WNOHANG) == pid }
    if !ended { raw = stopChild(pid, SIGTERM, grace: .seconds(2)) ?? 0 }
    await hook?.value
    let stdout = await outData.value(within: .seconds(5)) ?? []
    let stderr = await errData.value(within: .seconds(5)) ?? []
    // WIFSIGNALED, WTERMSIG and WEXITSTATUS are macros Swift does not import. A signal's
    // status is its number, as Foundation's terminationStatus gave it.
    let signalled = raw & 0x7F != 0
    return ProgramResult(status: signalled ? raw & 0x7F : (raw >> 8) & 0xFF, stdout: stdout, stderr: stderr,
                         signalled: signalled, timedOut: !ended)
}

/// Reads `fd` to its end, and closes it.
private func readToEnd(_ fd: Int32) -> [UInt8] {
    defer { close(fd) }
    var data: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n > 0 { data += chunk[..<n]; continue }
        if n < 0 && errno == EINTR { continue }
        return data
    }
}

/// As `runProgram`, for a caller that cannot await (a lazily made flag, a synchronous
/// helper): blocks until the program ends, with no limit of its own.
public func runProgramBlocking(_ command: [String], environment: [String]? = nil, standardInput: Int32? = nil) throws -> ProgramResult {
    let child = try spawnPiped(command, environment: environment, standardInput: standardInput, standardOutput: nil)
    // Both pipes are read at once, so a child that fills one is never stuck on it.
    let done = Atomic<Bool>(false)
    let reader = OutputReader()
    if let outFD = child.output {
        spawnThread(name: "test-stdout") {
            reader.store(readToEnd(outFD))
            done.store(true, ordering: .releasing)
        }
    } else {
        done.store(true, ordering: .releasing)
    }
    let stderr = readToEnd(child.errors)
    var raw: Int32 = 0
    while waitpid(child.pid, &raw, 0) < 0 { guard errno == EINTR else { break } }
    while !done.load(ordering: .acquiring) { usleep(1000) }
    let signalled = raw & 0x7F != 0
    return ProgramResult(status: signalled ? raw & 0x7F : (raw >> 8) & 0xFF, stdout: reader.bytes, stderr: stderr,
                         signalled: signalled, timedOut: false)
}

/// Starts `command` with its stderr, and its stdout unless `standardOutput` names a
/// descriptor, into pipes whose reading ends it returns (the caller reads them to their end,
/// which closes them); its stdin is `standardInput` or /dev/null. Every other descriptor is
/// closed in the child, as Process did: a pipe's other end held by the tests would otherwise
/// hold off its EOF.
private func spawnPiped(_ command: [String], environment: [String]?, standardInput: Int32?,
                        standardOutput: Int32?) throws -> (pid: pid_t, output: Int32?, errors: Int32) {
    var out: [Int32] = [-1, -1], err: [Int32] = [-1, -1]
    // Glibc's module does not bring pipe2: close-on-exec set just after, so no other child keeps an end.
    guard pipe(&out) == 0 else { throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))") }
    guard pipe(&err) == 0 else {
        close(out[0]); close(out[1])
        throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))")
    }
    for fd in out + err { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    let open = openDescriptors()
    let output = standardOutput ?? out[1]
    let pid: pid_t
    do {
        pid = try spawn(command, environment: environment) { actions in
            if let standardInput { posix_spawn_file_actions_adddup2(&actions, standardInput, 0) } else {
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            }
            posix_spawn_file_actions_adddup2(&actions, output, 1)
            posix_spawn_file_actions_adddup2(&actions, err[1], 2)
            // Closing one no longer open is no error; glibc has no closefrom action Swift sees.
            for fd in open where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        }
    } catch {
        close(out[0]); close(out[1]); close(err[0]); close(err[1])
        throw error
    }
    // Only the child writes: the ends stay open here, for a reader to see its end.
    close(out[1])
    close(err[1])
    if standardOutput != nil {
        close(out[0])
        return (pid, nil, err[0])
    }
    return (pid, out[0], err[0])
}

private final class OutputReader: Sendable {
    private let data = Mutex<[UInt8]>([])
    func store(_ bytes: [UInt8]) { data.withLock { $0 = bytes } }
    var bytes: [UInt8] { data.withLock { $0 } }
}
