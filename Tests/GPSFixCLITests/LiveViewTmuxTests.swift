import Glibc
import GPSTestSupport
import Foundation
import Synchronization
import Testing

/// The live view as a person sees it: `gpsfix watch` in a tmux pane, read back with
/// `capture-pane`, stopped with Ctrl-C.
@Suite("Live view in a terminal (tmux)", .enabled(if: GPSFixBinary.isAvailable, "gpsfix binary not found"),
       .enabled(if: Tmux.executable != nil, "tmux is not installed ('make test' installs it)"),
       .timeLimit(.minutes(1)), .serialized)
struct LiveViewTmuxTests {
    @Test("The view shows the fix and the sky table; Ctrl-C ends it, exit 0, with the terminal restored")
    func viewAndCtrlC() async throws {
        // Given: a minute of 1 Hz epochs, replayed at twice real time in a 100 × 40 pane
        let dir = try TemporaryDirectory()
        let path = try dir.drive(epochs: 60)
        let binary = try #require(GPSFixBinary.url)
        let tmux = Tmux()
        defer { tmux.killServer() }

        // When: the view is up, with a fix and the sky
        try await tmux.start([binary.path, "watch", "--replay", path, "--speed", "2"])
        let shown = await tmux.waitForPane { $0.contains("48.1173000 N") && $0.contains("  G24") }
        let lastSeen = shown == nil ? await tmux.pane() : nil
        let view = try #require(shown, "no fix and sky table: \(lastSeen ?? "(no pane)")")

        // Then: the fix, the sky table, the counters, on the alternate screen
        let lines = view.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasPrefix("gpsfix watch  \(path)") == true, "\(view)")
        #expect(lines.first?.hasSuffix("3D fix") == true, "\(view)")
        #expect(view.contains("Position   48.1173000 N   11.5166667 E"), "\(view)")
        #expect(view.contains("545.4 m MSL   592.3 m ellipsoidal"), "\(view)")
        #expect(view.contains("5 satellites in view, 5 used"), "\(view)")
        #expect(view.contains(" GPS  5 in view, 5 used"), "\(view)")
        let rows = lines.filter { $0.hasPrefix("  G") }
        #expect(rows.map { String($0.dropFirst(2).prefix(3)) } == ["G04", "G05", "G09", "G12", "G24"], "\(view)")
        let g09 = try #require(rows.first { $0.hasPrefix("  G09") })
        #expect(g09.contains("60°   300°    42  ████████████████▊") && g09.hasSuffix("✓"), "\(g09)")
        #expect(view.contains("Sentences "), "\(view)")
        #expect(await tmux.alternateScreen() == true)

        // When: Ctrl-C
        try await tmux.keys("C-c")
        let status = await tmux.waitForExit()

        // Then: exit 0, the shell's screen back, and the last fix left on it
        #expect(status == 0, "still running after Ctrl-C, or failed")
        #expect(await tmux.alternateScreen() == false, "the alternate screen was left")
        let after = try #require(await tmux.pane(history: true))
        #expect(!after.contains("Signal (dB-Hz)") && !after.contains("Sentences "), "the view is gone: \(after)")
        #expect(after.contains("48.1173000 N 11.5166667 E  alt 545.4 m"), "the last fix stays: \(after)")
    }

    @Test("At the end of a replay the view closes by itself: exit 0, the summary on the restored screen")
    func endOfReplay() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.drive(epochs: 3)
        let binary = try #require(GPSFixBinary.url)
        let tmux = Tmux()
        defer { tmux.killServer() }

        // When
        try await tmux.start([binary.path, "watch", "--replay", path, "--speed", "4"])
        let status = await tmux.waitForExit()

        // Then
        #expect(status == 0, "the replay did not end, or failed")
        #expect(await tmux.alternateScreen() == false)
        let after = try #require(await tmux.pane(history: true))
        #expect(after.contains("2019-04-12T12:00:02.000Z  48.1173000 N 11.5166667 E"), "\(after)")
        #expect(after.contains("\(path): 15 sentences decoded, 3 epochs"), "\(after)")
        #expect(!after.contains("Signal (dB-Hz)"), "\(after)")
    }
}

extension LiveViewTmuxTests {
    @Test("TERM=dumb gets lines, not the view, even with --view, and is told why")
    func dumbTerminal() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.drive(epochs: 3)
        let binary = try #require(GPSFixBinary.url)
        let tmux = Tmux()
        defer { tmux.killServer() }

        try await tmux.start(["/usr/bin/env", "TERM=dumb", binary.path, "watch", "--replay", path, "--speed", "max", "--view"])
        let status = await tmux.waitForExit()

        #expect(status == 0)
        let after = try #require(await tmux.pane(history: true))
        #expect(after.contains("cannot redraw in place; printing lines instead of the live view"), "\(after)")
        #expect(after.contains("2019-04-12T12:00:02.000Z  48.1173000 N 11.5166667 E"), "\(after)")
        #expect(!after.contains("Signal (dB-Hz)"), "\(after)")
    }
}

/// Where the view is not wanted, lines stay lines; where it is forced, it still cleans up.
@Suite("gpsfix watch: the view or lines", .enabled(if: GPSFixBinary.isAvailable, "gpsfix binary not found"),
       .timeLimit(.minutes(1)))
struct WatchViewOrLinesTests {
    @Test("Piped, watch stays line-oriented: one line per fix, no escape sequences")
    func pipedIsLines() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.drive()

        // When: stdout is a pipe
        let result = try #require(await gpsfix("watch", "--replay", path, "--speed", "max"))

        // Then
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines == (0..<3).map(GPSFixBinaryTests.line))
        #expect(!result.stdout.contains("\u{1B}") && !result.stderr.contains("\u{1B}"))
    }

    @Test("--view into a pipe draws anyway, and ends with the terminal restored and the run's counts")
    func forcedView() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.drive()

        // When
        let result = try #require(await gpsfix("watch", "--replay", path, "--speed", "max", "--view"))

        // Then
        #expect(result.status == 0, "\(result)")
        let out = result.stdout
        #expect(out.hasPrefix("\u{1B}[?1049h"), "enters the alternate screen first")
        #expect(out.hasSuffix("\u{1B}[?1049l" + GPSFixBinaryTests.line(2) + "\n"), "leaves it last, then the last fix")
        #expect(out.contains("Sentences 15   bad checksums 0   other errors 0   fixes 3   sky views 3"),
                "the final frame has the run's total")
        #expect(result.stderr == "\(path): 15 sentences decoded, 3 epochs\n")
    }

    @Test("--view and --json are different outputs: a usage error")
    func viewAndJSON() async throws {
        let result = try #require(await gpsfix("watch", "--replay", "x.nmea", "--view", "--json"))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix("gpsfix: watch: --json and --view are different outputs: choose one"), "\(result)")
        #expect(result.stdout.isEmpty)
    }
}

/// A tmux server on a socket of its own (`-L gpsfix-test-PID-N`), with no configuration
/// file, so a test neither sees nor disturbs anyone's sessions.
struct Tmux: Sendable {
    static let executable: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    private static let servers = Atomic<Int>(0)

    let socket = "gpsfix-test-\(getpid())-\(Tmux.servers.add(1, ordering: .relaxed).newValue)"

    /// The server passes its environment on to the pane: a UTF-8 locale makes the view use its
    /// block characters, as on a person's terminal.
    static let environment: [String] = {
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C.UTF-8"
        environment["TERM"] = "xterm-256color"
        environment.removeValue(forKey: "TMUX")
        return environment.map { $0.key + "=" + $0.value }
    }()

    /// What the pane's shell prints when the command has ended, before its exit status.
    static let exitMarker = "gpsfix exited with status "

    /// Starts `command` in a detached 100 × 40 session. It runs under `sh` only so that its
    /// exit status is printed when it ends: tmux 3.3 now and then loses a dead pane's status
    /// (2 runs in 20 here). The shell traps SIGINT so that Ctrl-C reaches the command alone
    /// (its child gets the default action back at exec).
    func start(_ command: [String]) async throws {
        let script = "trap : INT; \"$0\" \"$@\"; echo \"\(Self.exitMarker)$?\""
        let result = await run(["start-server", ";", "set-option", "-g", "remain-on-exit", "on", ";",
                                "new-session", "-d", "-s", "view", "-x", "100", "-y", "40", "sh", "-c", script] + command)
        guard result?.status == 0 else { throw TmuxError(description: "tmux new-session: \(result?.output ?? "did not run")") }
    }

    /// The command's exit status, once the pane has printed it; nil if it did not end in time.
    func waitForExit(_ limit: Duration = .seconds(20)) async -> Int32? {
        guard let text = await poll(limit, { await pane(history: true) }, { $0.contains(Self.exitMarker) }),
              let marker = text.range(of: Self.exitMarker) else { return nil }
        return Int32(text[marker.upperBound...].prefix { $0.isNumber })
    }

    func keys(_ keys: String...) async throws {
        let result = await run(["send-keys", "-t", "view"] + keys)
        guard result?.status == 0 else { throw TmuxError(description: "tmux send-keys: \(result?.output ?? "did not run")") }
    }

    /// The pane's screen as text; with `history`, everything since it started, wrapped lines
    /// joined (tmux scrolls a dead pane by a line to say "Pane is dead").
    func pane(history: Bool = false) async -> String? {
        let whole = history ? ["-J", "-S", "-"] : []
        guard let result = await run(["capture-pane", "-p", "-t", "view"] + whole), result.status == 0 else { return nil }
        return result.output
    }

    /// Whether the pane shows its alternate screen (the view's), as tmux knows it.
    func alternateScreen() async -> Bool? {
        guard let result = await run(["display-message", "-p", "-t", "view", "#{alternate_on}"]),
              result.status == 0 else { return nil }
        return result.output.hasPrefix("1")
    }

    /// The pane's text once `condition` holds, polled until `limit`; nil if it never did.
    func waitForPane(_ limit: Duration = .seconds(20), _ condition: (String) -> Bool) async -> String? {
        await poll(limit, { await pane() }, condition)
    }

    private func poll<T>(_ limit: Duration, _ probe: () async -> T?, _ condition: (T) -> Bool) async -> T? {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while clock.now < deadline {
            if let value = await probe(), condition(value) { return value }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }

    /// Ends the server and everything in it, and removes its socket (for `defer`: it waits,
    /// briefly, for tmux itself).
    func killServer() {
        guard let executable = Self.executable else { return }
        let socketPath = runToEnd([executable, "-L", socket, "display-message", "-p", "#{socket_path}"], environment: Self.environment)
        _ = runToEnd([executable, "-L", socket, "kill-server"], environment: Self.environment)
        if let path = socketPath?.output.trimmingCharacters(in: .whitespacesAndNewlines), path.hasSuffix("/" + socket) {
            unlink(path)
        }
    }

    /// One tmux command: its exit status and what it printed (stdout and stderr together).
    private func run(_ arguments: [String]) async -> (status: Int32, output: String)? {
        guard let executable = Self.executable else { return nil }
        let args = [executable, "-L", socket, "-f", "/dev/null"] + arguments
        let variables = Self.environment
        let result = Eventually<(status: Int32, output: String)?>()
        // Blocking reads and waits get a thread of their own, not one of the test's.
        Thread.detachNewThread { result.fulfill(runToEnd(args, environment: variables)) }
        return await result.value(within: .seconds(10)) ?? nil
    }
}

/// Runs `args` to its end: its exit status (nil if it did not exit) and its stdout and stderr.
///
/// Not `Process`: on Linux it learns of a child's end from a descriptor the child inherits,
/// and the tmux server, forked from the first client, keeps that open for as long as it runs.
/// Here the output pipe is the only thing shared, and the server lets go of it (it
/// daemonises onto /dev/null). The child starts with no blocked signals, as from a shell.
private func runToEnd(_ args: [String], environment: [String]) -> (status: Int32, output: String)? {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return nil }
    // Only the copies on 1 and 2 are the child's; these close on exec.
    _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
    let child: pid_t
    do {
        child = try spawn(args, environment: environment) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
        }
    } catch {
        close(fds[1])
        close(fds[0])
        return nil
    }
    close(fds[1])
    defer { close(fds[0]) }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = read(fds[0], &buffer, buffer.count)
        if n > 0 {
            output += buffer[0..<n]
        } else if n < 0 && errno == EINTR {
            continue
        } else {
            break
        }
    }
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0 {
        guard errno == EINTR else { return nil }
    }
    // WIFEXITED and WEXITSTATUS, which Swift does not import (they are macros).
    guard status & 0x7F == 0 else { return nil }
    return ((status >> 8) & 0xFF, String(decoding: output, as: UTF8.self))
}

struct TmuxError: Error, CustomStringConvertible {
    let description: String
}
