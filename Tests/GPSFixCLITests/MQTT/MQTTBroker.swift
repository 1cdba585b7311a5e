import Foundation
import GPSTestSupport
import Synchronization
import Testing

/// A real mosquitto on a free loopback port, configured by a file in its own directory, stopped
/// (and restarted, on the same port) by PID.
final class MQTTBroker: Sendable {
    static let mosquitto = "/usr/sbin/mosquitto"
    static let sub = "/usr/bin/mosquitto_sub"
    static let passwd = "/usr/bin/mosquitto_passwd"
    static var isAvailable: Bool { access(mosquitto, X_OK) == 0 && access(sub, X_OK) == 0 }

    let port: Int
    let directory: TemporaryDirectory
    private let config: String
    private let pid = Mutex<pid_t>(0)

    /// `extra` lines go into the config after the listener (TLS, passwords).
    init(extra: [String] = [], anonymous: Bool = true, persistent: Bool = false) async throws {
        directory = try TemporaryDirectory()
        port = try freeLoopbackPort()
        var lines = ["listener \(port) 127.0.0.1", "allow_anonymous \(anonymous)"] + extra
        if persistent {
            // mosquitto drops to its own user: the database directory must be its to write.
            let db = try directory.makeDirectory("db")
            chmod(db, 0o777)
            lines += ["persistence true", "persistence_location \(db)/", "autosave_interval 1"]
        }
        config = try directory.write("mosquitto.conf", lines.joined(separator: "\n") + "\n")
        try await start()
    }

    deinit { let p = pid.withLock { $0 }; if p > 0 { kill(p, SIGKILL); waitpid(p, nil, 0) } }

    func start() async throws {
        let log = directory.path + "/mosquitto.log"
        let child = try spawn([Self.mosquitto, "-c", config]) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        }
        pid.withLock { $0 = child }
        let port = self.port
        let up = await waitUntil(.seconds(5)) { (try? LineClient(port: port)) != nil }
        guard up else { throw SpawnError(description: "mosquitto did not listen on \(port): \(self.log)") }
    }

    /// Stops it with `signal` (SIGTERM saves its persistence; SIGKILL is a crash).
    func stop(_ signal: Int32 = SIGTERM) {
        let p = pid.withLock { p -> pid_t in defer { p = 0 }; return p }
        stopChild(p, signal)
    }

    var log: String { (try? String(contentsOfFile: directory.path + "/mosquitto.log", encoding: .utf8)) ?? "" }
}

/// A program whose stdout is collected as it comes (mosquitto_sub, a Python subscriber).
final class Collector: Sendable {
    let process: RunningProgram

    init(_ path: String, _ arguments: [String]) throws {
        // posix_spawn, not Foundation's Process (see runProgram).
        process = try RunningProgram([path] + arguments, standardOutput: .collect)
    }

    /// `mosquitto_sub -v` on `filter`, at QoS 1.
    static func subscriber(_ broker: MQTTBroker, _ filter: String, extra: [String] = []) throws -> Collector {
        try Collector(MQTTBroker.sub, ["-h", "127.0.0.1", "-p", String(broker.port), "-q", "1", "-v", "-t", filter] + extra)
    }

    var output: String { process.output }
    var stderr: String { process.stderr }
    var lines: [String] { output.split(separator: "\n").map(String.init) }

    /// The payloads of the lines `mosquitto_sub -v` printed for `topic`.
    func payloads(_ topic: String) -> [String] {
        lines.filter { $0.hasPrefix(topic + " ") }.map { String($0.dropFirst(topic.count + 1)) }
    }

    func waitFor(within limit: Duration = .seconds(10), _ condition: @escaping (Collector) -> Bool) async -> Bool {
        await waitUntil(limit) { condition(self) }
    }

    /// SIGKILL: a child started from an async thread inherits its blocked signals and would
    /// ignore SIGTERM (DESIGN.md), and a subscriber has nothing to save.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        while process.isRunning { usleep(1000) }
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}

/// `gpsfix serve … --mqtt URL --no-listen` as a process, started once it says it publishes.
func mqttServe(_ broker: MQTTBroker, prefix: String, _ arguments: [String], announcement: String = "to MQTT only; Ctrl-C to stop",
               scheme: String = "mqtt", user: String? = nil) async throws -> GPSFixProcess {
    let url = "\(scheme)://\(user.map { $0 + "@" } ?? "")127.0.0.1:\(broker.port)/\(prefix)"
    return try await GPSFixProcess(["serve", "--no-listen", "--mqtt", url] + arguments, announcement: announcement)
}

