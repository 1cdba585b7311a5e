/// A USB vendor:product ID that belongs to a GPS receiver and to nothing else.
///
/// The table is deliberately short. Most USB GPS pucks are a GPS module behind a generic
/// USB-serial bridge (Prolific PL2303 `067b:2303`, FTDI `0403:*`, Silicon Labs CP210x
/// `10c4:ea60`, WCH CH340 `1a86:7523`), and those same IDs are on Arduino boards, modems,
/// console cables and every other serial gadget: claiming them would take ports that are not
/// ours (gpsd's udev rules are criticised for exactly that). A receiver behind a generic
/// bridge — the GlobalSat BU-353 is a PL2303 — is still found by discovery, just not ranked
/// as a known GPS; a user can add its ID to their own udev rules (see `udev/60-gpsfix.rules`).
///
/// `udev/60-gpsfix.rules` holds exactly these IDs; a test checks that the two agree.
public struct KnownGPS: Hashable, Sendable, CustomStringConvertible {
    /// Four lowercase hex digits, as sysfs' `idVendor` shows it: `"1546"`.
    public var vendorID: String
    /// Four lowercase hex digits, as sysfs' `idProduct` shows it: `"01a8"`.
    public var productID: String
    /// What the receiver is, for people: `"u-blox 8"`.
    public var name: String

    /// An entry as stated; the IDs are compared as text, so they are given as sysfs shows them
    /// (four lowercase hex digits).
    public init(vendorID: String, productID: String, name: String) {
        self.vendorID = vendorID
        self.productID = productID
        self.name = name
    }

    /// `"u-blox 8 (1546:01a8)"`.
    public var description: String { "\(name) (\(vendorID):\(productID))" }

    /// Every ID that really is a GPS receiver, in the order of the udev rules file.
    public static let table: [KnownGPS] = [
        KnownGPS(vendorID: "1546", productID: "01a5", name: "u-blox 5"),
        KnownGPS(vendorID: "1546", productID: "01a6", name: "u-blox 6"),
        KnownGPS(vendorID: "1546", productID: "01a7", name: "u-blox 7"),
        KnownGPS(vendorID: "1546", productID: "01a8", name: "u-blox 8"),
        KnownGPS(vendorID: "1546", productID: "01a9", name: "u-blox 9"),
        // Speaks Garmin's binary protocol through the garmin_gps driver unless set to NMEA.
        KnownGPS(vendorID: "091e", productID: "0003", name: "Garmin GPS"),
        KnownGPS(vendorID: "0e8d", productID: "3329", name: "MediaTek GPS"),
        KnownGPS(vendorID: "1163", productID: "0100", name: "DeLorme Earthmate"),
        KnownGPS(vendorID: "1163", productID: "0200", name: "DeLorme Earthmate LT-40"),
        // Prolific's vendor ID, but a product ID only the PS-360 GPS uses (not the PL2303's 2303).
        KnownGPS(vendorID: "067b", productID: "aaa0", name: "Prolific PS-360 GPS"),
    ]

    /// The known receiver with this ID, or nil. Case and surrounding blanks do not matter.
    public static func lookup(vendorID: String, productID: String) -> KnownGPS? {
        let vendor = normalized(vendorID)
        let product = normalized(productID)
        return table.first { $0.vendorID == vendor && $0.productID == product }
    }

    static func normalized(_ id: String) -> String {
        String(id.lowercased().filter { !$0.isWhitespace })
    }
}
