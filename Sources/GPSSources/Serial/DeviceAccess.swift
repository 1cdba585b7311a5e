import GPSSystem
import GPSLocation

/// Why a device could not be opened, in words a person can act on.
enum DeviceAccess {
    /// The error for `code` from opening or setting up `path`. `group` finds the group that
    /// owns a path (a parameter so a test can map EACCES without being refused, which root
    /// never is).
    static func error(
        opening path: String,
        _ code: SystemError,
        group: (String) -> String? = owningGroup(of:)
    ) -> LocationError {
        switch code {
        case .noSuchFile, .notADirectory, .noSuchDevice, .noSuchDeviceOrAddress:
            // ENXIO/ENODEV: a node with nothing behind it (a ttyS without a UART, a USB
            // device half gone) is as good as missing.
            .deviceNotFound(searched: [path])
        case .permissionDenied, .notPermitted:
            .permissionDenied(path: path, group: group(path))
        case .busy:
            .deviceBusy(path: path)
        case .notATerminal:
            .io("\(path) is not a serial port (it has no terminal settings). Name the receiver's tty, e.g. /dev/ttyUSB0 or /dev/ttyACM0.")
        default:
            .io("\(path): \(code)")
        }
    }

    /// The name of the group that owns `path` (after symlinks: udev's links point at the
    /// node), when joining it would help: nil for root's group, or when it cannot be known.
    static func owningGroup(of path: String) -> String? {
        guard let status = try? FileStatus(path: path), status.group != 0 else { return nil }
        return FileSystem.groupName(status.group)
    }
}
