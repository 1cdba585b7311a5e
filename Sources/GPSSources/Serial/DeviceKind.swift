import GPSSystem

/// What can be told about a tty from its name and sysfs, without opening it.
enum DeviceKind {
    /// Whether `path` (or the node its symlinks lead to, as udev's `/dev/gps0` and
    /// `/dev/serial/by-id/…` do) is a USB CDC-ACM device. Those carry USB packets, not a UART
    /// line: the rate is ignored, so there is nothing to hunt for.
    static func isCDCACM(_ path: String) -> Bool {
        let name = nodeName(path)
        if name.hasPrefix("ttyACM") { return true }
        return driverName(ofTTY: name) == "cdc_acm"
    }

    /// The last component of the path the symlinks lead to (of `path` itself if they lead
    /// nowhere).
    static func nodeName(_ path: String) -> String {
        let node = resolved(path) ?? path
        return node.split(separator: "/").last.map(String.init) ?? node
    }

    /// The kernel driver bound to tty `name`, from `/sys/class/tty/NAME/device/driver`.
    static func driverName(ofTTY name: String) -> String? {
        guard let link = FileSystem.linkTarget("/sys/class/tty/\(name)/device/driver") else { return nil }
        return link.split(separator: "/").last.map(String.init)
    }

    /// Where udev puts the names of USB serial devices that survive a replug (vendor, model
    /// and serial number, not the order of plugging).
    static let stableLinkDirectory = "/dev/serial/by-id"

    /// The links in `directory` that lead to the same node as `path` (none when `path` is one
    /// of them already, or leads nowhere). A receiver that comes back as ttyUSB1 instead of
    /// ttyUSB0 is found again through them.
    static func stableLinks(to path: String, in directory: String = stableLinkDirectory) -> [String] {
        guard let target = resolved(path), !path.hasPrefix(directory + "/") else { return [] }
        guard case .success(let names) = FileSystem.entries(of: directory) else { return [] }
        var links: [String] = []
        for name in names {
            let link = directory + "/" + name
            if resolved(link) == target { links.append(link) }
        }
        return links.sorted()
    }

    /// `path` with every symlink followed; nil when it leads nowhere.
    static func resolved(_ path: String) -> String? {
        FileSystem.realPath(path)
    }
}

extension DeviceKind {
    /// What a file of kind `kind` is, when it can never be a receiver ("a directory", "a
    /// regular file"): only a character device is a tty. Nil for a character device.
    static func neverAReceiver(_ kind: FileStatus.Kind) -> String? {
        switch kind {
        case .characterDevice: nil
        case .directory: "a directory"
        case .regular: "a regular file (a capture? replay it with --replay)"
        case .fifo: "a FIFO (a feed? replay it with --replay)"
        case .socket: "a socket"
        case .blockDevice: "a block device"
        case .symbolicLink, .other: "not a device"
        }
    }
}
