import GPSTestSupport
import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing

// MARK: - The built binary

enum GPSFixBinary {
    /// `gpsfix`, as `swift build` left it beside the test bundle; nil when it cannot be found.
    static let url: URL? = {
        let fm = FileManager.default
        var directories: [URL] = []
        if let override = ProcessInfo.processInfo.environment["GPSFIX_BINARY"] {
            return URL(fileURLWithPath: override)
        }
        if let first = ProcessInfo.processInfo.arguments.first {
            directories.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        directories.append(Bundle.main.bundleURL)
        directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
        if let executable = Bundle.main.executableURL {
            directories.append(executable.deletingLastPathComponent())
        }
        for directory in directories {
            let candidate = directory.appendingPathComponent("gpsfix")
            if fm.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()

    static var isAvailable: Bool { url != nil }
}

struct CLIResult: Sendable, CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    /// Whether the process ended by a signal rather than by exit.
    var signalled: Bool
    /// Whether it was still running at the time limit (and was then terminated).
    var timedOut = false

    var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    var description: String { "exit \(status)\(signalled ? " (signal)" : "")\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// Runs the built `gpsfix` with `arguments`; records an issue and returns nil if it cannot be run
/// or (unless `mayRunOn`) does not end within `limit`.
func gpsfix(_ arguments: String..., limit: Duration = .seconds(30), mayRunOn: Bool = false,
            sourceLocation: SourceLocation = #_sourceLocation) async -> CLIResult? {
    await runGPSFix(arguments, limit: limit, mayRunOn: mayRunOn, sourceLocation: sourceLocation)
}

/// As `gpsfix(…)`, and:
/// - `launcher`: a command that runs gpsfix, given the binary's path and the arguments after
///   it (`prlimit --fsize=N --`, a shell that closes a descriptor first);
/// - `standardOutput`: where gpsfix writes (a full device, a pipe the test reads and closes)
///   instead of a pipe read into `stdout`, which is then empty;
/// - `standardInput`: what gpsfix reads as its standard input (a pipe the test writes, a
///   pty) instead of /dev/null;
/// - `whileRunning`: called with the process's PID once it has started (to feed it, signal it
///   or read its output), and awaited before the result is returned;
/// - `environment`: added to this process's for gpsfix (a preloaded stand-in).
func runGPSFix(_ arguments: [String], launcher: [String] = [], standardInput: FileHandle? = nil, standardOutput: FileHandle? = nil,
               environment: [String: String] = [:], limit: Duration = .seconds(30), mayRunOn: Bool = false,
               whileRunning: (@Sendable (pid_t) async -> Void)? = nil,
               sourceLocation: SourceLocation = #_sourceLocation) async -> CLIResult? {
    guard let binary = GPSFixBinary.url else {
        Issue.record("gpsfix binary not found", sourceLocation: sourceLocation)
        return nil
    }
    // posix_spawn, not Foundation's Process: Process.run() in this toolchain's Foundation reads
    // past a readdir buffer while it lists /proc/self/fd and crashed the test bundle now and
    // then (SIGSEGV in memcpy; swift-corelibs-foundation PR 5472, not in 6.3.1).
    var out: [Int32] = [-1, -1], err: [Int32] = [-1, -1]
    // Glibc's module does not bring pipe2: close-on-exec set just after, so no other child keeps an end.
    guard pipe(&out) == 0, pipe(&err) == 0 else {
        Issue.record("pipe: \(String(cString: strerror(errno)))", sourceLocation: sourceLocation)
        return nil
    }
    for fd in out + err { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    let command = launcher.isEmpty ? [binary.path] + arguments : launcher + [binary.path] + arguments
    let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let input = standardInput?.fileDescriptor, output = standardOutput?.fileDescriptor ?? out[1]
    // Listed by FileManager, which reads each entry's name by its length (Process's own listing
    // is what over-read).
    let openDescriptors = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
    let pid: pid_t
    do {
        pid = try spawn(command, environment: environment.isEmpty ? nil : merged.map { "\($0.key)=\($0.value)" }) { actions in
            if let input { posix_spawn_file_actions_adddup2(&actions, input, 0) } else {
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            }
            posix_spawn_file_actions_adddup2(&actions, output, 1)
            posix_spawn_file_actions_adddup2(&actions, err[1], 2)
            // Nothing else goes with it, as Process closed every other descriptor: a pipe's
            // other end (a test's stdin writer) kept open in the child would hold off its EOF.
            // Closing one no longer open is no error; glibc has no closefrom action Swift sees.
            for fd in openDescriptors where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        }
    } catch {
        close(out[0]); close(out[1]); close(err[0]); close(err[1])
        Issue.record("cannot run \(binary.path): \(error)", sourceLocation: sourceLocation)
        return nil
    }
    // Only the child writes: the ends stay open here, for a reader to see its end.
    close(out[1])
    close(err[1])
    let outData = Eventually<Data>(), errData = Eventually<Data>()
    // Blocking reads get threads of their own: Dispatch's shared pool (two threads on a
    // two-core machine) also runs the tests' tasks and every timer.
    let outReader = FileHandle(fileDescriptor: out[0], closeOnDealloc: true)
    let errReader = FileHandle(fileDescriptor: err[0], closeOnDealloc: true)
    if standardOutput == nil {
        Thread.detachNewThread { outData.fulfill(outReader.readDataToEndOfFile()) }
    } else {
        outData.fulfill(Data())
    }
    Thread.detachNewThread { errData.fulfill(errReader.readDataToEndOfFile()) }
    let hook = whileRunning.map { body in Task { await body(pid) } }

    var raw: Int32 = 0
    let ended = await waitUntil(limit) { waitpid(pid, &raw, WNOHANG) == pid }
    guard ended else {
        stopChild(pid, SIGTERM, grace: .seconds(2))
        await hook?.value
        guard mayRunOn else {
            Issue.record("gpsfix \(arguments.joined(separator: " ")) did not end within \(limit)", sourceLocation: sourceLocation)
            return nil
        }
        return CLIResult(status: -1, stdout: "", stderr: "", signalled: false, timedOut: true)
    }
    await hook?.value
    let stdout = await outData.value(within: .seconds(5)) ?? Data()
    let stderr = await errData.value(within: .seconds(5)) ?? Data()
    // WIFSIGNALED, WTERMSIG and WEXITSTATUS are macros Swift does not import. A signal's
    // status is its number, as Foundation's terminationStatus gave it.
    let signalled = raw & 0x7F != 0
    return CLIResult(status: signalled ? raw & 0x7F : (raw >> 8) & 0xFF, stdout: String(decoding: stdout, as: UTF8.self),
                     stderr: String(decoding: stderr, as: UTF8.self), signalled: signalled)
}

/// Whether process `pid` has a handler for `signal` installed (its SigCgt mask in /proc): one
/// sent before then meets the default action and ends the process, not the code under test.
func catches(_ pid: pid_t, _ signal: Int32) -> Bool {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
          let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
    else { return false }
    return mask & (1 << UInt64(signal - 1)) != 0
}

// MARK: - Captures

/// The package's own directory, where the Makefile and Captures/ are.
let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// gpsd's regression captures, read in place beside the project (never copied): ../shared/captures/gpsd/.
let gpsdCaptures = projectRoot.deletingLastPathComponent().appendingPathComponent("shared/captures/gpsd")

/// Whether they are there: tests that read them are skipped, saying so, where they are not.
var haveGpsdCaptures: Bool { FileManager.default.fileExists(atPath: gpsdCaptures.path) }

/// One of the project's own captures in Captures/, by name.
func projectCapture(_ name: String) -> String {
    projectRoot.appendingPathComponent("Captures/" + name).path
}

extension TemporaryDirectory {
    /// A 3-epoch capture with fixes.
    func drive(epochs: Int = 3) throws -> String {
        try write("drive.nmea", TestCapture.text((0..<epochs).map(TestCapture.epoch)))
    }

    func noFix(epochs: Int = 3) throws -> String {
        try write("nofix.nmea", TestCapture.text((0..<epochs).map(TestCapture.noFixEpoch)))
    }
}

/// Every file and link under `root`, relative to it.
func files(under root: String) -> Set<String> {
    guard let walk = FileManager.default.enumerator(atPath: root) else { return [] }
    var found: Set<String> = []
    while let path = walk.nextObject() as? String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
            found.insert(path)
        } else if (try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/" + path)) != nil {
            found.insert(path)
        }
    }
    return found
}

