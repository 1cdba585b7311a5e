import Foundation
import GPSTestSupport
import Synchronization
import Testing

/// `gpsfix` running as a separate process, its stderr collected as it comes; stopped by signal.
/// Started with posix_spawn, not Foundation's `Process` (see `runProgram`).
final class GPSFixProcess: Sendable {
    let process: RunningProgram

    /// Starts `gpsfix ARGS` and waits until its stderr contains `announcement` (when given).
    /// `launcher` runs before gpsfix (`prlimit --nofile=…`), when given; `environment` is
    /// added to the test's own. Throws, with what gpsfix said, when it ends or stays silent instead.
    init(_ arguments: [String], launcher: [String] = [], environment: [String: String] = [:], announcement: String?) async throws {
        let binary = try #require(GPSFixBinary.url)
        let merged = environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        let process = try RunningProgram(launcher + [binary.path] + arguments, environment: merged)
        self.process = process
        guard let announcement else { return }
        let announced = await waitUntil(.seconds(10)) { process.stderr.contains(announcement) || !process.isRunning }
        guard announced, process.stderr.contains(announcement) else {
            process.terminate()
            throw SpawnError(description: "gpsfix \(arguments.joined(separator: " ")) did not start: \(process.stderr)")
        }
    }

    var stderr: String { process.stderr }
    var pid: Int32 { process.processIdentifier }

    /// Sends `signal` and returns the exit status, or nil if it did not exit within `limit`.
    func stop(_ signal: Int32 = SIGTERM, within limit: Duration = .seconds(5)) async -> Int32? {
        kill(process.processIdentifier, signal)
        return await process.status(within: limit)
    }

    /// The exit status once it ends by itself, or nil if it runs on past `limit`. Call this or
    /// `stop`, once.
    func exitStatus(within limit: Duration) async -> Int32? {
        await process.status(within: limit)
    }

    /// CPU time used so far (user and system), in seconds, from /proc.
    var cpuSeconds: Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name; utime and stime are the 12th and 13th of them.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Resident memory in kB, from /proc.
    var residentKB: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
    }

}

/// `gpsfix serve` running as a separate process on a free loopback port; stopped by signal.
final class ServeProcess: Sendable {
    let running: GPSFixProcess
    let port: Int

    /// Starts `gpsfix serve --listen 127.0.0.1:0 ARGS` and waits until it says where it listens.
    /// `launcher` runs before gpsfix (`prlimit --nofile=…`), when given.
    init(_ arguments: [String], listen: String = "127.0.0.1:0", launcher: [String] = [], environment: [String: String] = [:]) async throws {
        running = try await GPSFixProcess(["serve", "--listen", listen] + arguments, launcher: launcher, environment: environment,
                                          announcement: "; Ctrl-C to stop")
        let text = running.stderr
        guard let range = text.range(of: "serving gpsd's protocol on "),
              let address = text[range.upperBound...].split(separator: " ").first,
              let port = address.split(separator: ":").last.flatMap({ Int($0) }) else {
            running.process.terminate()
            throw SpawnError(description: "gpsfix serve did not start: \(text)")
        }
        self.port = port
    }

    var process: RunningProgram { running.process }
    var stderr: String { running.stderr }
    var pid: Int32 { running.pid }
    var cpuSeconds: Double? { running.cpuSeconds }
    var residentKB: Int? { running.residentKB }

    /// Sends `signal` and returns the exit status, or nil if it did not exit within `limit`.
    func stop(_ signal: Int32 = SIGTERM, within limit: Duration = .seconds(5)) async -> Int32? {
        await running.stop(signal, within: limit)
    }
}

/// Runs a program to completion with a deadline; stdout and stderr as text.
func runTool(_ path: String, _ arguments: [String], within limit: Duration = .seconds(20)) async throws -> (status: Int32, out: String, err: String) {
    let result = try await runProgram([path] + arguments, limit: limit)
    guard !result.timedOut else { throw SpawnError(description: "\(path) \(arguments.joined(separator: " ")) did not end within \(limit)") }
    return (result.status, result.out, result.err)
}

enum ServeTools {
    static let gpspipe = "/usr/bin/gpspipe"
    static let cgps = "/usr/bin/cgps"
    static let tmux = "/usr/bin/tmux"
    /// Debian's python3-gps is installed for the system Python, not for a pyenv on PATH.
    static let python = "/usr/bin/python3"
    /// systemd's own stand-in for a socket unit: binds, and on the first client runs the
    /// command in its place with the socket passed (LISTEN_FDS).
    static let socketActivate = "/usr/bin/systemd-socket-activate"
    static let systemdAnalyze = "/usr/bin/systemd-analyze"

    static func has(_ tool: String) -> Bool { access(tool, X_OK) == 0 }

    static var pythonGPS: Bool { has(python) && access("/usr/lib/python3/dist-packages/gps/__init__.py", R_OK) == 0 }
}

/// `gpsfix serve` behind systemd-socket-activate, which binds 127.0.0.1:`port` and, on the
/// first client, runs gpsfix in its own place with the socket passed (LISTEN_FDS).
///
/// Started with posix_spawn, not Foundation's `Process`: systemd-socket-activate closes every
/// descriptor it does not pass, among them the one by which `Process` learns that a child
/// ended; `Process` then waits for this child on the thread that reaps all of them, and no
/// other program a test runs meanwhile (gpspipe) is seen to end. Its stderr goes to a file.
final class ActivatedServe: Sendable {
    let pid: pid_t
    let port: Int
    private let errorsFile: String
    private let status = Mutex<Int32?>(nil)

    /// `setenv` is passed to gpsfix (systemd-socket-activate passes little of its own
    /// environment); `datagram` passes a UDP socket instead. Returns once the socket listens.
    init(_ arguments: [String], in directory: TemporaryDirectory, setenv: [String: String] = [:], datagram: Bool = false) async throws {
        let binary = try #require(GPSFixBinary.url).path
        port = try freeLoopbackPort()
        errorsFile = directory.path + "/activate-\(port).err"
        let command = [ServeTools.socketActivate] + (datagram ? ["--datagram"] : []) + ["-l", "127.0.0.1:\(port)"]
            + setenv.sorted { $0.key < $1.key }.flatMap { ["-E", "\($0.key)=\($0.value)"] } + [binary, "serve"] + arguments
        let errorsFile = self.errorsFile
        pid = try spawn(command) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, errorsFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        let announcement = "Listening on 127.0.0.1:\(port)"
        let listening = await waitUntil(.seconds(10)) { stderr.contains(announcement) || exited }
        guard listening, stderr.contains(announcement) else {
            kill(pid, SIGKILL)
            _ = await exitStatus(within: .seconds(5))
            throw SpawnError(description: "systemd-socket-activate did not listen: \(stderr)")
        }
    }

    /// What systemd-socket-activate, then gpsfix in its place, wrote to stderr so far.
    var stderr: String { (try? String(contentsOfFile: errorsFile, encoding: .utf8)) ?? "" }

    /// Whether it has ended (reaped here, its status kept).
    var exited: Bool {
        status.withLock { kept in
            if kept != nil { return true }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return false }
            // An exit's status, or 128 + the signal that ended it, as a shell reports it.
            kept = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
            return true
        }
    }

    /// The exit status once it ends, or nil if it runs on past `limit`.
    func exitStatus(within limit: Duration) async -> Int32? {
        guard await waitUntil(limit, { exited }) else { return nil }
        return status.withLock { $0 }
    }

    /// Sends `signal` and returns the exit status, or nil if it did not exit within `limit`.
    func stop(_ signal: Int32 = SIGTERM, within limit: Duration = .seconds(5)) async -> Int32? {
        if !exited { kill(pid, signal) }
        return await exitStatus(within: limit)
    }

    deinit {
        if !exited {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            waitpid(pid, &raw, 0)
        }
    }
}
