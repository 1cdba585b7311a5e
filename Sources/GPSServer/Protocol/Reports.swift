import GPSOutput

/// What the server says about one of its devices, in gpsd's DEVICE object.
public struct DeviceDescription: Equatable, Sendable {
    /// The device's path as clients see it: the serial port, the capture, or gpsd's address.
    public var path: String
    /// gpsd's driver name: "NMEA0183" for a receiver or a capture read by the NMEA engine.
    public var driver: String
    /// The serial line's speed in bits per second (4800, 9600, … as the port was opened or
    /// autobaud found it), shown as DEVICE's `bps`; nil for a device that is not a serial port
    /// (a capture, a network stream) or before autobaud has settled, and then left out.
    public var bps: Int?

    /// A device at `path`, of gpsd's `driver` (NMEA 0183 by default), at `bps` when known.
    public init(path: String, driver: String = "NMEA0183", bps: Int? = nil) {
        self.path = path
        self.driver = driver
        self.bps = bps
    }
}

/// The replies of gpsd's JSON protocol (protocol 3.14, gpsd 3.21–3.22), each one a line ending
/// in CR LF as gpsd writes them. Member names and order follow gpsd, because libgps reads them
/// with a fixed attribute table and rejects members it does not know.
enum Reports {
    static let protocolMajor = 3
    static let protocolMinor = 14

    static func version(release: String) -> [UInt8] {
        var w = ByteWriter(capacity: 128)
        w.append("{\"class\":\"VERSION\",\"release\":")
        w.appendJSONString(release)
        w.append(",\"rev\":")
        w.appendJSONString(release)
        w.append(",\"proto_major\":")
        w.append(protocolMajor)
        w.append(",\"proto_minor\":")
        w.append(protocolMinor)
        w.append("}\r\n")
        return w.bytes
    }

    /// A DEVICE object; `activated` nil says the device has gone (gpsd's `"activated":0`).
    static func device(_ d: DeviceDescription, activated: Double?, into w: inout ByteWriter) {
        w.append("{\"class\":\"DEVICE\",\"path\":")
        w.appendJSONString(d.path)
        guard let activated else {
            w.append(",\"activated\":0}")
            return
        }
        w.append(",\"driver\":")
        w.appendJSONString(d.driver)
        w.append(",\"activated\":\"")
        GPSDJSON.appendISO8601(unixSeconds: activated, into: &w)
        // flags 1: "seen GPS data"; native 0: NMEA mode.
        w.append("\",\"flags\":1,\"native\":0")
        if let bps = d.bps {
            w.append(",\"bps\":")
            w.append(bps)
            w.append(",\"parity\":\"N\",\"stopbits\":1")
        }
        w.append(",\"cycle\":1.00}")
    }

    static func device(_ d: DeviceDescription, activated: Double?) -> [UInt8] {
        var w = ByteWriter(capacity: 256)
        device(d, activated: activated, into: &w)
        w.append("\r\n")
        return w.bytes
    }

    static func devices(_ all: [(DeviceDescription, activated: Double?)]) -> [UInt8] {
        // A device that has gone is not listed, as gpsd lists only open devices.
        devices(entries: all.compactMap { d, activated in
            activated.map { _ in
                var w = ByteWriter(capacity: 256)
                device(d, activated: activated, into: &w)
                return w.bytes
            }
        })
    }

    /// DEVICES from each listed device's DEVICE object, encoded before (and kept while the
    /// device does not change): one copy of bytes, however many devices.
    static func devices(entries: [[UInt8]]) -> [UInt8] {
        var w = ByteWriter(capacity: 64 + entries.reduce(0) { $0 + $1.count + 1 })
        w.append("{\"class\":\"DEVICES\",\"devices\":[")
        for (i, entry) in entries.enumerated() {
            if i > 0 { w.append(",") }
            w.append(bytes: entry)
        }
        w.append("]}\r\n")
        return w.bytes
    }

    /// The size of DEVICES of these entries, without building it.
    static func devicesSize(entries: [[UInt8]]) -> Int {
        let head = "{\"class\":\"DEVICES\",\"devices\":[".utf8.count + "]}\r\n".utf8.count
        return head + entries.reduce(0) { $0 + $1.count } + max(entries.count - 1, 0)
    }

    /// The size of POLL with these objects, without building it (the time and count are at
    /// most 60 bytes).
    static func pollSize(tpv: [[UInt8]], sky: [[UInt8]]) -> Int {
        let objects = tpv.reduce(0) { $0 + $1.count + 1 } + sky.reduce(0) { $0 + $1.count + 1 }
        return 120 + objects
    }

    static func watch(_ p: WatchPolicy) -> [UInt8] {
        var w = ByteWriter(capacity: 192)
        w.append("{\"class\":\"WATCH\",\"enable\":")
        w.append(p.enable ? "true" : "false")
        w.append(",\"json\":")
        w.append(p.json ? "true" : "false")
        w.append(",\"nmea\":")
        w.append(p.nmea ? "true" : "false")
        w.append(",\"raw\":")
        w.append(p.raw)
        w.append(",\"scaled\":false,\"timing\":false,\"split24\":false,\"pps\":")
        w.append(p.pps ? "true" : "false")
        if let device = p.device {
            w.append(",\"device\":")
            w.appendJSONString(device)
        }
        w.append("}\r\n")
        return w.bytes
    }

    /// `?POLL`'s answer: each active device's last TPV and SKY (each the object as broadcast,
    /// without its line end), stamped with the time of asking; `active` counts them.
    static func poll(now: Double, active: Int, tpv: [[UInt8]], sky: [[UInt8]]) -> [UInt8] {
        let size = tpv.reduce(0) { $0 + $1.count + 1 } + sky.reduce(0) { $0 + $1.count + 1 }
        var w = ByteWriter(capacity: 128 + size)
        w.append("{\"class\":\"POLL\",\"time\":\"")
        GPSDJSON.appendISO8601(unixSeconds: now, into: &w)
        w.append("\",\"active\":")
        w.append(active)
        w.append(",\"tpv\":[")
        for (i, line) in tpv.enumerated() {
            if i > 0 { w.append(",") }
            w.append(bytes: line)
        }
        w.append("],\"gst\":[],\"sky\":[")
        for (i, line) in sky.enumerated() {
            if i > 0 { w.append(",") }
            w.append(bytes: line)
        }
        w.append("]}\r\n")
        return w.bytes
    }

    static func error(_ message: String) -> [UInt8] {
        var w = ByteWriter(capacity: 128)
        w.append("{\"class\":\"ERROR\",\"message\":")
        w.appendJSONString(message)
        w.append("}\r\n")
        return w.bytes
    }
}
