import GPSSystem

/// Which kernel PPS device belongs to a receiver's port, from what sysfs says of each
/// (`/sys/class/pps/ppsN/`):
/// - `path` names the port for `pps_ldisc` (`ldattach pps /dev/ttyS0`): that device, when the
///   port is the receiver's (symlinks such as `/dev/serial0` and `/dev/gps0` followed);
/// - a `pps-gpio` device (a Raspberry Pi's `dtoverlay=pps-gpio`, named after its device-tree
///   node, "pps@12.-1") names no port: it is taken for a receiver on a board's own UART
///   (ttyAMA, ttyS, ttyTHS, serial0) when it is the only such device (the kernel's test
///   source, "ktimer", aside), as a HAT wires it.
/// Anything else is named with `--pps /dev/ppsN`.
public enum PPSDiscovery {
    /// The device for `port`, or nil; `root` is `/` but for tests.
    public static func device(for port: String, root: String = "/") -> String? {
        let base = root.hasSuffix("/") ? String(root.dropLast()) : root
        let classDirectory = base + "/sys/class/pps"
        guard case .success(let names) = FileSystem.entries(of: classDirectory, limit: 64) else { return nil }
        let real = FileSystem.realPath(base + port).map { String($0.dropFirst(base.count)) } ?? port
        var gpio: [String] = []
        for name in names.sorted() where name.hasPrefix("pps") {
            let linked = text(classDirectory + "/\(name)/path")
            if let linked, linked == port || linked == real { return "/dev/" + name }
            if linked == nil, text(classDirectory + "/\(name)/name") != "ktimer" { gpio.append(name) }
        }
        let leaf = real.split(separator: "/").last.map(String.init) ?? real
        let boardUART = ["ttyAMA", "ttyS", "ttyTHS", "serial"].contains { leaf.hasPrefix($0) }
        return boardUART && gpio.count == 1 ? "/dev/" + gpio[0] : nil
    }

    private static func text(_ path: String) -> String? {
        guard let bytes = FileSystem.firstBytes(of: path, limit: 256) else { return nil }
        let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        return line.isEmpty ? nil : line
    }
}
