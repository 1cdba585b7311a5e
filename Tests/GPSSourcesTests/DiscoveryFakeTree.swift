import Foundation
import GPSTestSupport

/// A fake `/dev` and `/sys` in a temporary directory, laid out as the kernel and udev lay them
/// out, with relative symlinks as in the real trees, for `DeviceDiscovery.candidates(root:)`.
final class FakeDeviceTree {
    let directory: TemporaryDirectory
    var root: String { directory.path }
    private var nextPort = 1

    init() throws {
        directory = try TemporaryDirectory()
        try makeDirectory("/dev")
        try makeDirectory("/sys/class/tty")
    }

    /// A USB serial tty as the kernel shows it: a USB device (idVendor/idProduct, each left out
    /// when nil) > interface (driver) > [usb-serial port >] tty, and `/dev/<kernel>`.
    /// `ttyACM*` is laid out as cdc_acm does it, anything else as a usb-serial port (ttyUSB*).
    /// `classLink: false` leaves out `/sys/class/tty/<kernel>`.
    func usbTTY(_ kernel: String, vendor: String?, product: String?, driver: String?,
                classLink: Bool = true) throws {
        let port = "1-\(nextPort)"
        nextPort += 1
        let usb = "/sys/devices/pci0000:00/0000:00:14.0/usb1/\(port)"
        let interface = "\(usb)/\(port):1.0"
        try makeDirectory(interface)
        if let vendor { try write("\(usb)/idVendor", vendor + "\n") }
        if let product { try write("\(usb)/idProduct", product + "\n") }
        let isACM = kernel.hasPrefix("ttyACM")
        if let driver { try link("\(interface)/driver", to: "/sys/bus/usb/drivers/\(driver)") }
        let parent = isACM ? interface : "\(interface)/\(kernel)"
        if !isACM {
            try makeDirectory(parent)
            if let driver { try link("\(parent)/driver", to: "/sys/bus/usb-serial/drivers/\(driver)") }
        }
        let tty = "\(parent)/tty/\(kernel)"
        try makeDirectory(tty)
        try write("\(tty)/dev", isACM ? "166:0\n" : "188:0\n")
        try link("\(tty)/device", to: parent)
        if classLink { try link("/sys/class/tty/\(kernel)", to: tty) }
        try write("/dev/\(kernel)", "")
    }

    /// A tty with no sysfs entry at all (a stand-in device node only).
    func bareTTY(_ kernel: String) throws { try write("/dev/\(kernel)", "") }

    /// A symlink at `path` to `target` (both absolute inside the tree), written relative as udev does.
    func link(_ path: String, to target: String) throws {
        try makeDirectory(parentOf(path))
        try FileManager.default.createSymbolicLink(atPath: root + path,
                                                   withDestinationPath: relative(from: parentOf(path), to: target))
    }

    func write(_ path: String, _ contents: String) throws {
        try makeDirectory(parentOf(path))
        guard FileManager.default.createFile(atPath: root + path, contents: Data(contents.utf8)) else {
            throw CocoaError(.fileWriteUnknown)
        }
    }

    func makeDirectory(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: root + path, withIntermediateDirectories: true)
    }

    func remove(_ path: String) throws { try FileManager.default.removeItem(atPath: root + path) }

    private func parentOf(_ path: String) -> String {
        let parts = path.split(separator: "/")
        return "/" + parts.dropLast().joined(separator: "/")
    }

    private func relative(from directory: String, to target: String) -> String {
        let from = directory.split(separator: "/")
        let to = target.split(separator: "/")
        var common = 0
        while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
        let ups = Array(repeating: "..", count: from.count - common)
        let rest = to[common...].map(String.init)
        let path = (ups + rest).joined(separator: "/")
        return path.isEmpty ? "." : path
    }
}
