import Foundation
import GPSTestSupport
import GPSTime
import Testing

/// `--pps auto`'s look through sysfs, on trees made here.
@Suite("Which PPS device is the receiver's")
struct PPSDiscoveryTests {
    /// A root with `/sys/class/pps/ppsN/{name,path}` for each of `devices`, and `/dev` nodes
    /// (plain files: only their names and links matter).
    func tree(_ devices: [(name: String, path: String)], links: [String: String] = [:]) throws -> TemporaryDirectory {
        let root = try TemporaryDirectory()
        let files = FileManager.default
        try files.createDirectory(atPath: root.path + "/dev", withIntermediateDirectories: true)
        for (index, device) in devices.enumerated() {
            let directory = root.path + "/sys/class/pps/pps\(index)"
            try files.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try (device.name + "\n").write(toFile: directory + "/name", atomically: true, encoding: .utf8)
            try (device.path + "\n").write(toFile: directory + "/path", atomically: true, encoding: .utf8)
        }
        for node in ["ttyS0", "ttyAMA0", "ttyUSB0", "ttyACM0"] {
            _ = files.createFile(atPath: root.path + "/dev/" + node, contents: nil)
        }
        for (link, target) in links { try files.createSymbolicLink(atPath: root.path + link, withDestinationPath: target) }
        return root
    }

    @Test("pps_ldisc names its port: that device, also through a symlink to the port")
    func lineDiscipline() throws {
        let root = try tree([(name: "pps-gpio.-1", path: ""), (name: "pps_ldisc", path: "/dev/ttyS0")], links: ["/dev/gps0": "ttyS0"])
        #expect(PPSDiscovery.device(for: "/dev/ttyS0", root: root.path) == "/dev/pps1")
        #expect(PPSDiscovery.device(for: "/dev/gps0", root: root.path) == "/dev/pps1")
        #expect(PPSDiscovery.device(for: "/dev/ttyUSB0", root: root.path) == nil)
    }

    @Test("A lone pps-gpio device is a board UART's receiver's, never a USB receiver's")
    func gpio() throws {
        // A Raspberry Pi's overlay names the device after its node, not "gpio".
        let gpio = try tree([(name: "pps@12.-1", path: ""), (name: "ktimer", path: "")], links: ["/dev/serial0": "ttyAMA0"])
        #expect(PPSDiscovery.device(for: "/dev/ttyAMA0", root: gpio.path) == "/dev/pps0")
        #expect(PPSDiscovery.device(for: "/dev/serial0", root: gpio.path) == "/dev/pps0")
        #expect(PPSDiscovery.device(for: "/dev/ttyUSB0", root: gpio.path) == nil)
        #expect(PPSDiscovery.device(for: "/dev/ttyACM0", root: gpio.path) == nil)
        // Two GPIO pulses: which is the receiver's cannot be told.
        let two = try tree([(name: "pps@12.-1", path: ""), (name: "pps@18.-1", path: "")])
        #expect(PPSDiscovery.device(for: "/dev/ttyAMA0", root: two.path) == nil)
    }

    @Test("No PPS class at all (this machine's kernel): nothing")
    func none() throws {
        let root = try tree([])
        #expect(PPSDiscovery.device(for: "/dev/ttyS0", root: root.path) == nil)
    }
}
