import Glibc

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
        var target = [CChar](repeating: 0, count: 4096)
        let n = readlink("/sys/class/tty/\(name)/device/driver", &target, target.count - 1)
        guard n > 0 else { return nil }
        let link = String(decoding: target[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
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
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var links: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            let link = directory + "/" + name
            if resolved(link) == target { links.append(link) }
        }
        return links.sorted()
    }

    /// `path` with every symlink followed; nil when it leads nowhere.
    static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}

extension DeviceKind {
    /// What a file of mode `mode` is, when it can never be a receiver ("a directory", "a
    /// regular file"): only a character device is a tty. Nil for a character device.
    static func neverAReceiver(mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFCHR: nil
        case S_IFDIR: "a directory"
        case S_IFREG: "a regular file (a capture? replay it with --replay)"
        case S_IFIFO: "a FIFO (a feed? replay it with --replay)"
        case S_IFSOCK: "a socket"
        case S_IFBLK: "a block device"
        default: "not a device"
        }
    }
}
