import GPSSources
import Testing

@Suite("DeviceDiscovery")
struct DiscoveryTests {
    static let ubloxByID = "/dev/serial/by-id/usb-u-blox_AG_-_www.u-blox.com_u-blox_GNSS_receiver-if00"
    static let bu353ByID = "/dev/serial/by-id/usb-Prolific_Technology_Inc._USB-Serial_Controller-if00-port0"

    /// A u-blox 8 on ttyACM0 with its by-id link and udev's /dev/gps0; a BU-353 (a GPS behind a
    /// generic PL2303 bridge) on ttyUSB0 with its by-id link.
    static func ubloxAndBU353() throws -> FakeDeviceTree {
        let tree = try FakeDeviceTree()
        try tree.usbTTY("ttyACM0", vendor: "1546", product: "01a8", driver: "cdc_acm")
        try tree.usbTTY("ttyUSB0", vendor: "067b", product: "2303", driver: "pl2303")
        try tree.link(ubloxByID, to: "/dev/ttyACM0")
        try tree.link(bu353ByID, to: "/dev/ttyUSB0")
        try tree.link("/dev/gps0", to: "/dev/ttyACM0")
        return tree
    }

    // MARK: - What is found

    @Test("A u-blox with /dev/gps0 and a by-id link comes first, as /dev/gps0, with everything sysfs knows")
    func ubloxThroughGPSLink() throws {
        // Given
        let tree = try Self.ubloxAndBU353()

        // When
        let found = DeviceDiscovery.candidates(root: tree.root)

        // Then
        let first = try #require(found.first)
        #expect(first == SerialDevice(path: "/dev/gps0", resolvedPath: "/dev/ttyACM0", byID: Self.ubloxByID,
                                      vendorID: "1546", productID: "01a8", driver: "cdc_acm",
                                      knownGPS: KnownGPS.lookup(vendorID: "1546", productID: "01a8"),
                                      isCDCACM: true))
        #expect(first.knownGPS?.name == "u-blox 8")
        #expect(first.usbID == "1546:01a8")
        #expect(first.kernelName == "ttyACM0")
    }

    @Test("A BU-353 on a generic PL2303 is a candidate, found by its by-id name, but not a known GPS")
    func bu353IsCandidateButNotClaimed() throws {
        // Given
        let tree = try Self.ubloxAndBU353()

        // When
        let found = DeviceDiscovery.candidates(root: tree.root)

        // Then
        #expect(found.count == 2)
        let bu353 = try #require(found.first { $0.resolvedPath == "/dev/ttyUSB0" })
        #expect(bu353 == SerialDevice(path: Self.bu353ByID, resolvedPath: "/dev/ttyUSB0", byID: Self.bu353ByID,
                                      vendorID: "067b", productID: "2303", driver: "pl2303",
                                      knownGPS: nil, isCDCACM: false))
    }

    @Test("Each tty is listed once, under the first name it was found by")
    func eachTTYOnce() throws {
        // Given: ttyACM0 is reachable as /dev/gps0, by-id and /dev/ttyACM0; ttyUSB0 by-id and directly
        let tree = try Self.ubloxAndBU353()

        // When
        let found = DeviceDiscovery.candidates(root: tree.root)

        // Then
        #expect(found.map(\.path) == ["/dev/gps0", Self.bu353ByID])
        #expect(Set(found.map(\.resolvedPath)).count == found.count)
    }

    // MARK: - Order

    @Test("Groups in order: /dev/gps*, then by-id, then ttyACM*/ttyUSB*, then serial0; known IDs first within a group")
    func ordering() throws {
        // Given
        let tree = try FakeDeviceTree()
        // A user's own rule links a PL2303 receiver as /dev/gps3.
        try tree.usbTTY("ttyUSB3", vendor: "067b", product: "2303", driver: "pl2303")
        try tree.link("/dev/gps3", to: "/dev/ttyUSB3")
        // by-id: an FTDI cable, then (in name order) a MediaTek receiver.
        try tree.usbTTY("ttyUSB1", vendor: "0403", product: "6001", driver: "ftdi_sio")
        try tree.usbTTY("ttyACM2", vendor: "0e8d", product: "3329", driver: "cdc_acm")
        try tree.link("/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A1-if00-port0", to: "/dev/ttyUSB1")
        try tree.link("/dev/serial/by-id/usb-MediaTek_GPS-if00", to: "/dev/ttyACM2")
        // Plain ttys: an Arduino (cdc_acm, not a GPS), a u-blox 7, a CH340 on ttyUSB10 and a CP210x on ttyUSB2.
        try tree.usbTTY("ttyACM0", vendor: "2341", product: "0043", driver: "cdc_acm")
        try tree.usbTTY("ttyACM1", vendor: "1546", product: "01a7", driver: "cdc_acm")
        try tree.usbTTY("ttyUSB10", vendor: "1a86", product: "7523", driver: "ch341")
        try tree.usbTTY("ttyUSB2", vendor: "10c4", product: "ea60", driver: "cp210x")
        // A Raspberry Pi's UART link.
        try tree.bareTTY("ttyAMA0")
        try tree.link("/dev/serial0", to: "/dev/ttyAMA0")

        // When
        let found = DeviceDiscovery.candidates(root: tree.root)

        // Then
        #expect(found.map(\.path) == [
            "/dev/gps3",
            "/dev/serial/by-id/usb-MediaTek_GPS-if00",                  // known, so before the FTDI
            "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A1-if00-port0",
            "/dev/ttyACM1",                                             // known u-blox 7 first
            "/dev/ttyACM0",
            "/dev/ttyUSB2",                                             // natural order: 2 before 10
            "/dev/ttyUSB10",
            "/dev/serial0",
        ])
        #expect(found.map { $0.knownGPS?.name } == [nil, "MediaTek GPS", nil, "u-blox 7", nil, nil, nil, nil])
        #expect(found.map(\.isCDCACM) == [false, true, false, true, true, false, false, false])
        #expect(found.map(\.driver) == ["pl2303", "cdc_acm", "ftdi_sio", "cdc_acm", "cdc_acm", "cp210x", "ch341", nil])
    }

    @Test("/dev/gps10 comes after /dev/gps2; names that only start with gps or tty are not ports")
    func naturalOrderAndNameMatching() throws {
        // Given
        let tree = try FakeDeviceTree()
        try tree.bareTTY("ttyS4")
        try tree.bareTTY("ttyS5")
        try tree.link("/dev/gps10", to: "/dev/ttyS4")
        try tree.link("/dev/gps2", to: "/dev/ttyS5")
        try tree.write("/dev/gpsd.sock", "")
        try tree.write("/dev/gps", "")
        try tree.write("/dev/ttyACMx", "")
        try tree.makeDirectory("/dev/ttyUSB7")          // a directory is never a port

        // When
        let found = DeviceDiscovery.candidates(root: tree.root)

        // Then: ttyS* is not searched on its own, only through a link
        #expect(found.map(\.path) == ["/dev/gps2", "/dev/gps10"])
    }

    // MARK: - Missing pieces

    @Test("Missing sysfs pieces leave fields nil instead of failing")
    func missingSysfsPieces() throws {
        // Given
        let tree = try FakeDeviceTree()
        try tree.bareTTY("ttyACM3")                                                         // no sysfs at all
        try tree.usbTTY("ttyUSB0", vendor: nil, product: nil, driver: "pl2303")             // no USB IDs
        try tree.usbTTY("ttyUSB1", vendor: "1546", product: nil, driver: nil)               // half an ID, no driver
        try tree.usbTTY("ttyUSB2", vendor: "1546", product: "01a8", driver: "cdc_acm", classLink: false)
        try tree.link("/sys/class/tty/ttyUSB2", to: "/sys/devices/nowhere/ttyUSB2")         // dangling class link

        // When
        let found = DeviceDiscovery.candidates(root: tree.root)

        // Then
        #expect(found.map(\.path) == ["/dev/ttyACM3", "/dev/ttyUSB0", "/dev/ttyUSB1", "/dev/ttyUSB2"])
        #expect(found[0] == SerialDevice(path: "/dev/ttyACM3", resolvedPath: "/dev/ttyACM3", isCDCACM: true))
        #expect(found[1] == SerialDevice(path: "/dev/ttyUSB0", resolvedPath: "/dev/ttyUSB0", driver: "pl2303"))
        #expect(found[2] == SerialDevice(path: "/dev/ttyUSB1", resolvedPath: "/dev/ttyUSB1"))
        #expect(found[3] == SerialDevice(path: "/dev/ttyUSB2", resolvedPath: "/dev/ttyUSB2"))
    }

    @Test("Dangling links are skipped; an empty or missing tree has no candidates")
    func danglingLinksAndEmptyTree() throws {
        // Given
        let tree = try FakeDeviceTree()
        try tree.link("/dev/gps0", to: "/dev/ttyACM9")
        try tree.link("/dev/serial/by-id/usb-gone-if00", to: "/dev/ttyUSB9")
        try tree.link("/dev/serial1", to: "/dev/ttyAMA9")

        // When / Then
        #expect(DeviceDiscovery.candidates(root: tree.root).isEmpty)
        #expect(DeviceDiscovery.candidates(root: tree.root + "/no/such/dir").isEmpty)
    }

    @Test("device(at:) describes one path, by-id name included; nil for what does not exist")
    func deviceAtPath() throws {
        // Given
        let tree = try Self.ubloxAndBU353()

        // When
        let direct = DeviceDiscovery.device(at: "/dev/ttyUSB0", root: tree.root)
        let byID = DeviceDiscovery.device(at: Self.ubloxByID, root: tree.root)

        // Then
        #expect(direct?.byID == Self.bu353ByID)
        #expect(direct?.driver == "pl2303")
        #expect(byID?.resolvedPath == "/dev/ttyACM0")
        #expect(byID?.knownGPS?.name == "u-blox 8")
        #expect(DeviceDiscovery.device(at: "/dev/ttyACM7", root: tree.root) == nil)
        #expect(DeviceDiscovery.device(at: "/dev/serial", root: tree.root) == nil)   // a directory
    }

    // MARK: - What was searched

    @Test("searchedLocations names every place looked at, under the root")
    func searchedLocations() throws {
        // Given
        let tree = try FakeDeviceTree()

        // When
        let real = DeviceDiscovery.searchedLocations()
        let fake = DeviceDiscovery.searchedLocations(root: tree.root + "/")

        // Then
        #expect(real == ["/dev/gps*", "/dev/serial/by-id/*", "/dev/ttyACM*", "/dev/ttyUSB*", "/dev/serial[01]"])
        #expect(fake.allSatisfy { $0.hasPrefix(tree.root + "/dev/") })
        #expect(fake.count == real.count)
    }

    @Test("On this machine, discovery of the real /dev finishes and lists each tty once")
    func realMachine() {
        // When
        let found = DeviceDiscovery.candidates()

        // Then
        #expect(Set(found.map(\.resolvedPath)).count == found.count)
    }
}

@Suite("KnownGPS")
struct KnownGPSTests {
    @Test("Generic USB-serial bridges are never claimed as GPS receivers",
          arguments: [("067b", "2303"), ("0403", "6001"), ("0403", "6015"), ("10c4", "ea60"), ("1a86", "7523")])
    func genericBridgesNotClaimed(vendor: String, product: String) {
        #expect(KnownGPS.lookup(vendorID: vendor, productID: product) == nil)
    }

    @Test("The table holds the issue's receivers, each ID once")
    func table() {
        // Given
        let ids = KnownGPS.table.map { "\($0.vendorID):\($0.productID)" }

        // Then
        #expect(ids == ["1546:01a5", "1546:01a6", "1546:01a7", "1546:01a8", "1546:01a9", "091e:0003",
                        "0e8d:3329", "1163:0100", "1163:0200", "067b:aaa0"])
        #expect(Set(ids).count == ids.count)
    }

    @Test("Lookup ignores case and blanks, as sysfs and lsusb spell IDs")
    func lookupNormalizes() {
        #expect(KnownGPS.lookup(vendorID: "1546", productID: "01A8\n")?.name == "u-blox 8")
        #expect(KnownGPS.lookup(vendorID: " 067B", productID: "AAA0")?.description == "Prolific PS-360 GPS (067b:aaa0)")
    }
}
