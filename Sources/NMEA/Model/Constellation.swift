/// The two letters after `$` that say which system produced a sentence.
public struct Talker: Hashable, Sendable, CustomStringConvertible {
    /// The first letter as the byte received (ASCII): `G` of `GP`, `B` of `BD`, `P` of `PQ`.
    public let first: UInt8
    /// The second letter as the byte received (ASCII): `P` of `GP`, `N` of `GN`.
    public let second: UInt8

    /// A talker from its two letters as ASCII bytes, `Talker(0x47, 0x50)` for `GP`; any two
    /// bytes are taken, as a sentence's address brought them.
    public init(_ first: UInt8, _ second: UInt8) {
        self.first = first
        self.second = second
    }

    public var description: String { String(decoding: [first, second], as: UTF8.self) }

    /// The constellation this talker speaks for; nil for `GN` (combined) and others.
    public var constellation: Constellation? {
        switch (first, second) {
        case (0x47, 0x50): .gps          // GP
        case (0x47, 0x4C): .glonass      // GL
        case (0x47, 0x41): .galileo      // GA
        case (0x47, 0x42), (0x42, 0x44): .beidou // GB, BD
        case (0x47, 0x51), (0x51, 0x5A), (0x50, 0x51): .qzss // GQ, QZ, PQ
        case (0x47, 0x49): .navic        // GI
        default: nil
        }
    }
}

/// A satellite navigation system, numbered as gpsd's `gnssid` (u-blox's numbering).
public enum Constellation: Int, CaseIterable, Codable, Sendable, Comparable {
    /// The United States' GPS (NMEA talker `GP`, system ID 1).
    case gps = 0
    /// Satellite-based augmentation (WAAS, EGNOS, MSAS, GAGAN): geostationary satellites that
    /// broadcast corrections, numbered 120–158; NMEA 2.x/3.x lists them among GPS's as 33–64.
    case sbas = 1
    /// Europe's Galileo (talker `GA`, system ID 3).
    case galileo = 2
    /// China's BeiDou (talker `GB` or `BD`, system ID 4).
    case beidou = 3
    /// Japan's Indoor Messaging System: ground transmitters that send GPS-like signals indoors.
    case imes = 4
    /// Japan's Quasi-Zenith Satellite System (talker `GQ`, `QZ` or `PQ`, system ID 5).
    case qzss = 5
    /// Russia's GLONASS (talker `GL`, system ID 2).
    case glonass = 6
    /// India's NavIC, formerly IRNSS (talker `GI`, system ID 6).
    case navic = 7

    /// NMEA 4.10 system ID (GSA field 18, GBS field 9) to constellation.
    public init?(nmeaSystemID: Int) {
        switch nmeaSystemID {
        case 1: self = .gps
        case 2: self = .glonass
        case 3: self = .galileo
        case 4: self = .beidou
        case 5: self = .qzss
        case 6: self = .navic
        default: return nil
        }
    }

    /// The system's usual name for people ("GPS", "GLONASS", "BeiDou", "NavIC", …), as a
    /// report or a table shows it.
    public var name: String {
        switch self {
        case .gps: "GPS"
        case .sbas: "SBAS"
        case .galileo: "Galileo"
        case .beidou: "BeiDou"
        case .imes: "IMES"
        case .qzss: "QZSS"
        case .glonass: "GLONASS"
        case .navic: "NavIC"
        }
    }

    public static func < (a: Constellation, b: Constellation) -> Bool { a.rawValue < b.rawValue }
}

/// A satellite's identity: its constellation and its number within it.
public struct SatelliteID: Hashable, Codable, Sendable, Comparable {
    /// The system the satellite belongs to.
    public var constellation: Constellation
    /// The satellite's number within its constellation, as gpsd's `svid` counts it (GPS PRN
    /// 1–32, SBAS PRN 120–158, GLONASS slot 1–32, …: ``svids(of:)``).
    public var svid: Int

    /// A satellite as stated, not checked against ``svids(of:)``: for numbers already known
    /// to be right. Use ``init(gnssid:svid:)`` or ``init(nmea:hint:)`` for received ones.
    public init(constellation: Constellation, svid: Int) {
        self.constellation = constellation
        self.svid = svid
    }

    /// Resolves a satellite number as it appears in GSV or GSA.
    ///
    /// NMEA numbers satellites differently by version and vendor: NMEA 2.x/3.x put everything
    /// in one space (GPS 1–32, SBAS 33–64, GLONASS 65–96, …), NMEA 4.10 numbers within the
    /// constellation named by the talker or system ID. The hint (from the talker or system ID)
    /// decides where it can; the number decides where the talker is `GN` or `GP` for all.
    public init?(nmea number: Int, hint: Constellation?) {
        guard number > 0 else { return nil }
        switch hint {
        case .glonass?:
            if number <= 32 { self.init(constellation: .glonass, svid: number); return }
            if (65...96).contains(number) { self.init(constellation: .glonass, svid: number - 64); return }
        case .galileo?:
            if number <= 36 { self.init(constellation: .galileo, svid: number); return }
            if (301...336).contains(number) { self.init(constellation: .galileo, svid: number - 300); return }
        case .beidou?:
            if number <= 63 { self.init(constellation: .beidou, svid: number); return }
            if (201...263).contains(number) { self.init(constellation: .beidou, svid: number - 200); return }
            if (401...463).contains(number) { self.init(constellation: .beidou, svid: number - 400); return }
        case .qzss?:
            if number <= 10 { self.init(constellation: .qzss, svid: number); return }
            if (193...202).contains(number) { self.init(constellation: .qzss, svid: number - 192); return }
        case .navic?:
            if number <= 14 { self.init(constellation: .navic, svid: number); return }
        default:
            break
        }
        // Without a hint, gpsd's PRN space, but for where NMEA 4.x differs: BeiDou from 201
        // (so QZSS ends at 199, and 200 is no one's), and NavIC, which has no number here.
        switch number {
        case 200: return nil
        case 201...263: self.init(constellation: .beidou, svid: number - 200)
        case 801...814: return nil
        default: self.init(gpsdPRN: number)
        }
    }

    /// The numbers (`svid`) a constellation's satellites have, as gpsd's `gnssid:svid`
    /// numbers them (u-blox's table, in gpsd's gps.h): GPS 1–32, SBAS 120–158, Galileo 1–36,
    /// BeiDou 1–63, IMES 1–10, QZSS 1–10, GLONASS 1–32 (its 255, "slot unknown", names no one
    /// satellite), NavIC 1–14. Within these, each satellite has one `prn` and each `prn` one
    /// satellite (`init(gpsdPRN:)`), so two satellites never share a PRN in a SKY.
    public static func svids(of constellation: Constellation) -> ClosedRange<Int> {
        switch constellation {
        case .gps: 1...32
        case .sbas: 120...158
        case .galileo: 1...36
        case .beidou: 1...63
        case .imes: 1...10
        case .qzss: 1...10
        case .glonass: 1...32
        case .navic: 1...14
        }
    }

    /// A satellite named by gpsd's `gnssid` and `svid`; nil for a number its constellation
    /// does not have (`svids(of:)`).
    public init?(gnssid: Int, svid: Int) {
        guard let constellation = Constellation(rawValue: gnssid), Self.svids(of: constellation).contains(svid) else { return nil }
        self.init(constellation: constellation, svid: svid)
    }

    /// The satellite whose gpsd PRN (`prn`, a SKY's `PRN`) is `number`, or nil: the inverse of
    /// `prn`, plus SBAS's own numbers 120–158. Not NMEA's numbering (`init(nmea:hint:)`),
    /// where 201–202 are BeiDou's: in a SKY, BeiDou is 401–463 and 193–202 are QZSS.
    public init?(gpsdPRN number: Int) {
        switch number {
        case 1...32: self.init(constellation: .gps, svid: number)
        case 33...64: self.init(constellation: .sbas, svid: number + 87)
        case 65...96: self.init(constellation: .glonass, svid: number - 64)
        case 120...158: self.init(constellation: .sbas, svid: number)
        case 173...182: self.init(constellation: .imes, svid: number - 172)
        case 193...202: self.init(constellation: .qzss, svid: number - 192)
        case 301...336: self.init(constellation: .galileo, svid: number - 300)
        case 401...463: self.init(constellation: .beidou, svid: number - 400)
        case 801...814: self.init(constellation: .navic, svid: number - 800)
        default: return nil
        }
    }

    /// gpsd's PRN for this satellite (the `PRN` of a SKY report).
    public var prn: Int {
        switch constellation {
        case .gps: svid
        case .sbas: svid >= 120 && svid <= 151 ? svid - 87 : svid
        case .galileo: svid + 300
        case .beidou: svid + 400
        case .imes: svid + 172
        case .qzss: svid + 192
        case .glonass: svid + 64
        case .navic: svid + 800
        }
    }

    public static func < (a: SatelliteID, b: SatelliteID) -> Bool {
        (a.constellation.rawValue, a.svid) < (b.constellation.rawValue, b.svid)
    }
}
