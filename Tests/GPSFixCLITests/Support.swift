import GPSTestSupport
import Dispatch
import Foundation
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

func runGPSFix(_ arguments: [String], limit: Duration = .seconds(30), mayRunOn: Bool = false,
               sourceLocation: SourceLocation = #_sourceLocation) async -> CLIResult? {
    guard let binary = GPSFixBinary.url else {
        Issue.record("gpsfix binary not found", sourceLocation: sourceLocation)
        return nil
    }
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice

    let exited = Eventually<(Int32, Bool)>()
    process.terminationHandler = { p in exited.fulfill((p.terminationStatus, p.terminationReason == .uncaughtSignal)) }
    let outData = Eventually<Data>(), errData = Eventually<Data>()
    do {
        try process.run()
    } catch {
        Issue.record("cannot run \(binary.path): \(error)", sourceLocation: sourceLocation)
        return nil
    }
    // Blocking reads get threads of their own: Dispatch's shared pool (two threads on a
    // two-core machine) also runs the tests' tasks and every timer.
    Thread.detachNewThread { outData.fulfill(out.fileHandleForReading.readDataToEndOfFile()) }
    Thread.detachNewThread { errData.fulfill(err.fileHandleForReading.readDataToEndOfFile()) }

    guard let ended = await exited.value(within: limit) else {
        process.terminate()
        guard mayRunOn else {
            Issue.record("gpsfix \(arguments.joined(separator: " ")) did not end within \(limit)", sourceLocation: sourceLocation)
            return nil
        }
        return CLIResult(status: -1, stdout: "", stderr: "", signalled: false, timedOut: true)
    }
    let stdout = await outData.value(within: .seconds(5)) ?? Data()
    let stderr = await errData.value(within: .seconds(5)) ?? Data()
    return CLIResult(status: ended.0, stdout: String(decoding: stdout, as: UTF8.self),
                     stderr: String(decoding: stderr, as: UTF8.self), signalled: ended.1)
}

// MARK: - Captures

extension TemporaryDirectory {
    /// A 3-epoch capture with fixes.
    func drive(epochs: Int = 3) throws -> String {
        try write("drive.nmea", TestCapture.text((0..<epochs).map(TestCapture.epoch)))
    }

    func noFix(epochs: Int = 3) throws -> String {
        try write("nofix.nmea", TestCapture.text((0..<epochs).map(TestCapture.noFixEpoch)))
    }
}

func jsonObject(_ line: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
}
