/// A serial port that may have a GPS receiver behind it, with what sysfs tells about it.
public struct SerialDevice: Equatable, Sendable {
    /// The path to open, as found: `/dev/gps0`, `/dev/serial/by-id/usb-u-blox_…`, `/dev/ttyACM0`.
    public var path: String
    /// The tty `path` finally leads to: `/dev/ttyACM0`.
    public var resolvedPath: String
    /// The full `/dev/serial/by-id/…` path of a link leading to the same tty, if any: the name
    /// that survives a replug into another USB port or another order of plugging.
    public var byID: String?
    /// The USB vendor ID, four lowercase hex digits (`"1546"`), from the USB device above the tty.
    public var vendorID: String?
    /// The USB product ID, four lowercase hex digits (`"01a8"`).
    public var productID: String?
    /// The kernel driver of the port: `"cdc_acm"`, `"pl2303"`, `"ftdi_sio"`, `"cp210x"`, …
    public var driver: String?
    /// Set when the USB ID is one that only GPS receivers use.
    public var knownGPS: KnownGPS?
    /// A USB CDC-ACM port (`ttyACM*`, driver `cdc_acm`): the baud rate setting does not matter.
    public var isCDCACM: Bool

    /// A device as stated, for tests and for a caller that found a port by other means;
    /// ``DeviceDiscovery`` makes them from `/dev` and `/sys`.
    public init(path: String, resolvedPath: String, byID: String? = nil, vendorID: String? = nil,
                productID: String? = nil, driver: String? = nil, knownGPS: KnownGPS? = nil,
                isCDCACM: Bool = false) {
        self.path = path
        self.resolvedPath = resolvedPath
        self.byID = byID
        self.vendorID = vendorID
        self.productID = productID
        self.driver = driver
        self.knownGPS = knownGPS
        self.isCDCACM = isCDCACM
    }

    /// The tty's kernel name: `ttyACM0`.
    public var kernelName: String {
        resolvedPath.split(separator: "/").last.map(String.init) ?? resolvedPath
    }

    /// `"1546:01a8"` when both halves are known.
    public var usbID: String? {
        guard let vendorID, let productID else { return nil }
        return "\(vendorID):\(productID)"
    }
}

/// Finds the serial ports a GPS receiver may be on, by reading `/dev` and `/sys` only: it opens
/// no tty and sends nothing. Whether a port actually answers with NMEA is for the caller to try.
public enum DeviceDiscovery {
    /// The groups searched, in order of preference. Patterns are matched on names in their directory.
    static let groups: [(directory: String, prefixes: [String])] = [
        ("/dev", ["gps"]),                       // udev's symlinks (udev/60-gpsfix.rules, gpsd's rules)
        ("/dev/serial/by-id", [""]),             // udev's persistent names for USB serial ports
        ("/dev", ["ttyACM", "ttyUSB"]),          // USB CDC-ACM and USB-serial bridges
        ("/dev", ["serial"]),                    // Raspberry Pi's serial0/serial1 links to its UART
    ]

    /// Candidates in the order to try: udev's `/dev/gps*` symlinks, then `/dev/serial/by-id/*`,
    /// then `ttyACM*`/`ttyUSB*`, then the Raspberry Pi's `/dev/serial0`/`serial1`; known GPS USB IDs
    /// first within each group; each tty once (under the first name it was found by).
    public static func candidates(root: String = "/") -> [SerialDevice] {
        let tree = FileTree(root: root)
        let byID = byIDLinks(tree)
        var seen = Set<String>()
        var found: [SerialDevice] = []
        for group in groups {
            var members: [SerialDevice] = []
            for name in tree.list(group.directory) where matches(name, group.prefixes) {
                let path = group.directory + "/" + name
                guard let device = describe(path, tree: tree, byID: byID),
                      !seen.contains(device.resolvedPath) else { continue }
                seen.insert(device.resolvedPath)
                members.append(device)
            }
            // A stable partition: known receivers first, otherwise the natural order of names.
            found += members.filter { $0.knownGPS != nil } + members.filter { $0.knownGPS == nil }
        }
        return found
    }

    /// What `candidates` searched, for the "no device" message: `/dev/gps*`, `/dev/serial/by-id/*`, …
    /// (under `root` when it is not `/`).
    public static func searchedLocations(root: String = "/") -> [String] {
        let prefix = FileTree(root: root).root
        var locations: [String] = []
        for group in groups {
            for stem in group.prefixes {
                let pattern = stem == "serial"
                    ? group.directory + "/serial[01]"
                    : group.directory + "/" + stem + "*"
                locations.append(prefix + pattern)
            }
        }
        return locations
    }

    /// What discovery knows about one path (`--device PATH`, or a by-id name after a replug):
    /// nil when it does not exist or is a directory.
    public static func device(at path: String, root: String = "/") -> SerialDevice? {
        let tree = FileTree(root: root)
        return describe(path, tree: tree, byID: byIDLinks(tree))
    }

    // MARK: - Reading the tree

    private static func matches(_ name: String, _ prefixes: [String]) -> Bool {
        prefixes.contains { prefix in
            if prefix.isEmpty { return true }
            guard name.hasPrefix(prefix) else { return false }
            let rest = name.dropFirst(prefix.count)
            // gps0, ttyACM12: the prefix then only digits; serial: only serial0 and serial1.
            guard !rest.isEmpty, rest.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
            return prefix == "serial" ? (rest == "0" || rest == "1") : true
        }
    }

    /// tty path → the first `/dev/serial/by-id/…` link (in natural order) that leads to it.
    private static func byIDLinks(_ tree: FileTree) -> [String: String] {
        var links: [String: String] = [:]
        for name in tree.list("/dev/serial/by-id") {
            let link = "/dev/serial/by-id/" + name
            if let tty = tree.resolve(link), links[tty] == nil { links[tty] = link }
        }
        return links
    }

    private static func describe(_ path: String, tree: FileTree, byID: [String: String]) -> SerialDevice? {
        guard let resolved = tree.resolve(path) else { return nil }
        var device = SerialDevice(path: path, resolvedPath: resolved, byID: byID[resolved])
        let kernel = device.kernelName
        let usb = usbDetails(kernel, tree: tree)
        device.vendorID = usb.vendorID
        device.productID = usb.productID
        device.driver = usb.driver
        if let vendor = usb.vendorID, let product = usb.productID {
            device.knownGPS = KnownGPS.lookup(vendorID: vendor, productID: product)
        }
        device.isCDCACM = usb.driver == "cdc_acm" || kernel.hasPrefix("ttyACM")
        return device
    }

    /// From `/sys/class/tty/<kernel>/device`: the driver of that device (or of its parent, the
    /// USB interface), and idVendor/idProduct of the nearest ancestor that has them (the USB
    /// device). For ttyACM the `device` link leads to the interface; for ttyUSB to a usb-serial
    /// port below the interface; walking up covers both.
    private static func usbDetails(_ kernel: String, tree: FileTree)
        -> (vendorID: String?, productID: String?, driver: String?) {
        guard !kernel.isEmpty, !kernel.contains("/"),
              let start = tree.resolveDirectory("/sys/class/tty/\(kernel)/device") else {
            return (nil, nil, nil)
        }
        var driver: String?
        var vendor: String?
        var product: String?
        var directory = start
        // sysfs device paths are a handful of levels deep; the bound only guards a looped fake tree.
        for _ in 0..<16 {
            if driver == nil { driver = tree.linkTargetName(directory + "/driver") }
            if let v = tree.attribute(directory + "/idVendor"), let p = tree.attribute(directory + "/idProduct") {
                vendor = KnownGPS.normalized(v)
                product = KnownGPS.normalized(p)
                break
            }
            guard let slash = directory.lastIndex(of: "/"), slash != directory.startIndex else { break }
            directory = String(directory[..<slash])
            if directory == "/sys" || directory == "/sys/devices" { break }
        }
        return (vendor, product, driver)
    }
}
