import GPSMQTT
import GPSSystem

/// Where the broker password comes from, first found first: `--mqtt-password-file FILE`,
/// the systemd credential `gpsfix.mqtt-password` (`LoadCredential=` in the unit puts it in
/// `$CREDENTIALS_DIRECTORY`), the environment variable `GPSFIX_MQTT_PASSWORD`. Never the
/// command line, which every user of the machine can read in `ps`.
///
/// A file that group or others may read is refused with the command that fixes it (a
/// credential's copy is the service user's alone, made so by systemd). The environment
/// variable is wiped from this process's memory and environment once read, whether used or
/// not: nothing gpsfix starts inherits it, and `/proc/PID/environ` no longer shows it.
enum MQTTPassword {
    static let variable = "GPSFIX_MQTT_PASSWORD"
    static let credential = "gpsfix.mqtt-password"

    static func read(file: String?, credentialsDirectory: String? = environment("CREDENTIALS_DIRECTORY")) throws(UsageError) -> String? {
        let fromEnvironment = takeVariable()
        if let file { return try firstLine(of: file, what: "--mqtt-password-file: \(file)") }
        if let directory = credentialsDirectory, !directory.isEmpty {
            let path = directory + "/" + credential
            if FileSystem.exists(path) { return try firstLine(of: path, what: "the systemd credential \(credential)") }
        }
        return fromEnvironment
    }

    private static func environment(_ name: String) -> String? { Environment.value(name) }

    /// The variable's value, after overwriting it where the kernel shows it from (the
    /// initial environment block) and unsetting it.
    private static func takeVariable() -> String? {
        Environment.take(variable)
    }

    private static func firstLine(of path: String, what: String) throws(UsageError) -> String {
        let fd: FileDescriptor
        do throws(SystemError) {
            fd = try FileDescriptor.open(path, .readOnly)
        } catch {
            throw UsageError(message: "\(what) cannot be read (\(error))")
        }
        defer { fd.close() }
        guard let info = try? fd.status(), info.kind == .regular else {
            throw UsageError(message: "\(what) is not a regular file")
        }
        let mode = info.permissions & 0o777
        if mode & 0o077 != 0 {
            throw UsageError(message: "\(what) may be read or changed by others (mode \(String(mode, radix: 8))): a password file must be its owner's alone. Fix it with: chmod 600 '\(path)'")
        }
        // One line of a password, bounded: a file of megabytes is not one.
        var bytes = [UInt8](repeating: 0, count: 4097)
        var count = 0
        while count < bytes.count {
            let result = try? bytes.withUnsafeMutableBytes { buffer throws(SystemError) in
                try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
            }
            guard case .processed(let n)? = result else { break }
            guard n > 0 else { break }
            count += n
        }
        var line = bytes[..<count].prefix { $0 != 0x0A }
        guard line.count < 4096 else { throw UsageError(message: "\(what) has a first line over 4096 bytes: that is not a password") }
        if line.last == 0x0D { line = line.dropLast() }
        guard !line.isEmpty else { throw UsageError(message: "\(what) is empty") }
        return String(decoding: line, as: UTF8.self)
    }
}
