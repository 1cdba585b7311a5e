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
    let command = launcher.isEmpty ? [binary.path] + arguments : launcher + [binary.path] + arguments
    let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let result: ProgramResult
    do {
        // posix_spawn, not Foundation's Process (see runProgram).
        result = try await runProgram(command, environment: environment.isEmpty ? nil : merged.map { "\($0.key)=\($0.value)" },
                                      standardInput: standardInput?.fileDescriptor, standardOutput: standardOutput?.fileDescriptor,
                                      limit: limit, whileRunning: whileRunning)
    } catch {
        Issue.record("cannot run \(binary.path): \(error)", sourceLocation: sourceLocation)
        return nil
    }
    guard !result.timedOut else {
        guard mayRunOn else {
            Issue.record("gpsfix \(arguments.joined(separator: " ")) did not end within \(limit)", sourceLocation: sourceLocation)
            return nil
        }
        return CLIResult(status: -1, stdout: "", stderr: "", signalled: false, timedOut: true)
    }
    return CLIResult(status: result.status, stdout: result.out, stderr: result.err, signalled: result.signalled)
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

