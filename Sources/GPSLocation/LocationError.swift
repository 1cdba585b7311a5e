import GPSSystem

/// Why a location could not be had, in words a person can act on.
///
/// The words state facts about the source; advice that names a command's flags is the CLI's
/// to add. They are also its `errorDescription` (`LocationError+LocalizedError.swift`).
public enum LocationError: Error, Hashable, Codable, Sendable, CustomStringConvertible {
    /// The capture or file named does not exist.
    case fileNotFound(path: String)
    /// A file exists but could not be opened, read or created (`reason`, the system's words:
    /// its folder missing, an I/O error).
    case fileUnreadable(path: String, reason: String)
    /// The system refused access to `path`; `group`, when known, is the group that may open it
    /// (`dialout` for a serial port), which the user can join.
    case permissionDenied(path: String, group: String?)
    /// A replayed file held no NMEA sentence the engine decodes in its whole first pass: not a
    /// capture, or one of another format.
    case notACapture(path: String)
    /// Asked to replay again from the start something that can be read only once (a pipe,
    /// a FIFO, standard input).
    case cannotLoop(path: String)
    /// Refusing to overwrite an existing file.
    case fileExists(path: String)
    /// No receiver at the path named, or none found where receivers appear (`searched`: the
    /// paths and folders looked at, e.g. `/dev/serial/by-id`).
    case deviceNotFound(searched: [String])
    /// Another process has the port open (`holder`, when it can be seen in `/proc`), or holds
    /// it exclusively: two readers would each get part of the sentences.
    case deviceBusy(path: String, holder: PortHolder? = nil)
    /// `path` is something that can never be a receiver (`what`: "a directory", "a regular
    /// file"), so it is refused rather than waited for.
    case notADevice(path: String, what: String)
    /// The serial port vanished while being read (the receiver unplugged), and the source was
    /// not told to wait for it to come back.
    case deviceGone(path: String)
    /// gpsd at `host`:`port` could not be reached or ended the session (`reason`, the system's
    /// or gpsd's words), and the source was not told to wait for it.
    case gpsdUnavailable(host: String, port: Int, reason: String)
    /// A receiver or app serving NMEA over the network could not be reached.
    case streamUnavailable(peer: String, reason: String)
    /// No fix arrived within the time allowed (`after`); `reception` says what did arrive,
    /// when the source knows.
    case timeout(after: Duration, reception: Reception? = nil)
    /// The source ended (a capture ran out) before it gave a fix.
    case noFix(source: String)
    /// The source was stopped (`stop()`) while a request still waited for a fix.
    case stopped
    /// The task waiting for a fix was cancelled; its request is withdrawn.
    case cancelled
    /// The manager reports to another `LocationService` already: a manager has one delegate,
    /// so a second service would take every event from the first.
    case managerInUse(source: String)
    /// Writing a file failed: the disk is full, the file too large, the device broken.
    case writeFailed(WriteFailure)
    /// Any other failure of the system beneath a source, as one line a person reads (the call,
    /// the path, the system's reason): a poll that failed, a baud rate the port refuses.
    case io(String)

    public var description: String {
        switch self {
        case .fileNotFound(let path):
            "\(path): no such file. Check the path; the bundled captures are in Captures/."
        case .fileUnreadable(let path, let reason):
            "\(path): cannot be read (\(reason))."
        case .permissionDenied(let path, let group?):
            "\(path): permission denied. It belongs to group '\(group)': run 'sudo usermod -aG \(group) $USER', then log in again."
        case .permissionDenied(let path, nil):
            "\(path): permission denied. Check its owner and mode with 'ls -l \(path)'."
        case .notACapture(let path):
            "\(path): holds no NMEA sentences. Is it a capture (gpsfake format: # header lines, then raw NMEA)?"
        case .cannotLoop(let path):
            "\(path) is a pipe or FIFO: it can be read only once, so it cannot loop. Save it to a file to loop it."
        case .fileExists(let path):
            "\(path) exists already."
        case .deviceNotFound(let searched) where searched.count == 1:
            "\(searched[0]): no such device. Is the receiver plugged in?"
        case .deviceNotFound(let searched):
            "No GPS receiver found (searched \(searched.joined(separator: ", ")))."
        case .deviceBusy(let path, let holder?):
            "\(path) is being read by \(holder)."
        case .deviceBusy(let path, nil):
            "\(path) is held by another process (often gpsd)."
        case .notADevice(let path, let what):
            "\(path) is \(what), not a serial port. Name the receiver's tty, e.g. /dev/ttyUSB0 or /dev/ttyACM0."
        case .deviceGone(let path):
            "\(path) went away (unplugged?)."
        case .gpsdUnavailable(let host, let port, let reason):
            "gpsd at \(host):\(port) is not answering (\(reason)). Is it running? Try 'systemctl status gpsd' or start it with 'gpsd -N -S \(port) DEVICE'."
        case .streamUnavailable(let peer, let reason):
            "Cannot connect to \(peer): \(reason)."
        // What arrived, and no more: what to do about it depends on where the user is (the
        // CLI gives its own advice).
        case .timeout(let limit, nil):
            "No fix within \(Self.format(limit)) s."
        case .timeout(let limit, let heard?) where heard.bytes == 0:
            "No fix within \(Self.format(limit)) s: nothing received from \(heard.source)."
        case .timeout(let limit, let heard?) where heard.sentences == 0:
            "No fix within \(Self.format(limit)) s: \(heard.source) sent \(heard.bytes) bytes, but no NMEA sentences\(heard.baud.map { " at \($0) baud" } ?? "")."
        case .timeout(let limit, let heard?):
            "No fix within \(Self.format(limit)) s: \(heard.source) sends NMEA (\(heard.sentences) sentences), but no fix yet."
        case .noFix(let source):
            "\(source) ended without a fix."
        case .stopped:
            "Stopped before a fix arrived."
        case .cancelled:
            "Cancelled before a fix arrived: the task waiting for it was cancelled."
        case .managerInUse(let source):
            "\(source) reports to another LocationService already. Use that service (its streams and subscribers each get every event), or make another manager for this one."
        case .writeFailed(let failure):
            "\(failure)."
        case .io(let message):
            message
        }
    }

    private static func format(_ limit: Duration) -> String {
        let seconds = limit.inSeconds
        return seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
