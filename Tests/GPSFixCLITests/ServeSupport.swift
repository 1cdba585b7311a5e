import Foundation
import GPSTestSupport
import Synchronization
import Testing

/// `gpsfix` running as a separate process, its stderr collected as it comes; stopped by signal.
final class GPSFixProcess: Sendable {
    let process: Process
    private let errors: Lines
    private let exited = Eventually<Int32>()

    final class Lines: Sendable {
        let text = Mutex("")
    }

    /// Starts `gpsfix ARGS` and waits until its stderr contains `announcement` (when given).
    /// `launcher` runs before gpsfix (`prlimit --nofile=…`), when given. Throws, with what
    /// gpsfix said, when it ends or stays silent instead.
    init(_ arguments: [String], launcher: [String] = [], announcement: String?) async throws {
        let binary = try #require(GPSFixBinary.url)
        process = Process()
        process.executableURL = launcher.isEmpty ? binary : URL(fileURLWithPath: launcher[0])
        process.arguments = Array(launcher.dropFirst()) + (launcher.isEmpty ? [] : [binary.path]) + arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let errors = Lines()
        self.errors = errors
        let exited = self.exited
        let ended = Mutex(false)
        process.terminationHandler = {
            ended.withLock { $0 = true }
            exited.fulfill($0.terminationStatus)
        }
        try process.run()
        Thread.detachNewThread {
            let handle = err.fileHandleForReading
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                errors.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
        guard let announcement else { return }
        let announced = await waitUntil(.seconds(10)) {
            errors.text.withLock { $0.contains(announcement) } || ended.withLock { $0 }
        }
        let text = errors.text.withLock { $0 }
        guard announced, text.contains(announcement) else {
            process.terminate()
            throw SpawnError(description: "gpsfix \(arguments.joined(separator: " ")) did not start: \(text)")
        }
    }

    var stderr: String { errors.text.withLock { $0 } }
    var pid: Int32 { process.processIdentifier }

    /// Sends `signal` and returns the exit status, or nil if it did not exit within `limit`.
    func stop(_ signal: Int32 = SIGTERM, within limit: Duration = .seconds(5)) async -> Int32? {
        kill(process.processIdentifier, signal)
        return await exited.value(within: limit)
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

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}

/// `gpsfix serve` running as a separate process on a free loopback port; stopped by signal.
final class ServeProcess: Sendable {
    let running: GPSFixProcess
    let port: Int

    /// Starts `gpsfix serve --listen 127.0.0.1:0 ARGS` and waits until it says where it listens.
    /// `launcher` runs before gpsfix (`prlimit --nofile=…`), when given.
    init(_ arguments: [String], listen: String = "127.0.0.1:0", launcher: [String] = []) async throws {
        running = try await GPSFixProcess(["serve", "--listen", listen] + arguments, launcher: launcher,
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

    var process: Process { running.process }
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
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    let exited = Eventually<Int32>()
    process.terminationHandler = { exited.fulfill($0.terminationStatus) }
    let outData = Eventually<Data>(), errData = Eventually<Data>()
    try process.run()
    Thread.detachNewThread { outData.fulfill(out.fileHandleForReading.readDataToEndOfFile()) }
    Thread.detachNewThread { errData.fulfill(err.fileHandleForReading.readDataToEndOfFile()) }
    guard let status = await exited.value(within: limit) else {
        process.terminate()
        throw SpawnError(description: "\(path) \(arguments.joined(separator: " ")) did not end within \(limit)")
    }
    let o = await outData.value(within: .seconds(5)) ?? Data()
    let e = await errData.value(within: .seconds(5)) ?? Data()
    return (status, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

enum ServeTools {
    static let gpspipe = "/usr/bin/gpspipe"
    static let cgps = "/usr/bin/cgps"
    static let tmux = "/usr/bin/tmux"
    /// Debian's python3-gps is installed for the system Python, not for a pyenv on PATH.
    static let python = "/usr/bin/python3"

    static func has(_ tool: String) -> Bool { access(tool, X_OK) == 0 }

    static var pythonGPS: Bool { has(python) && access("/usr/lib/python3/dist-packages/gps/__init__.py", R_OK) == 0 }
}
