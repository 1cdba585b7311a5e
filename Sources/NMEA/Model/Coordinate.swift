/// A position on the WGS 84 ellipsoid, in degrees (north and east positive).
public struct Coordinate: Hashable, Codable, Sendable {
    /// Degrees north of the equator, −90…90 (``Bounds/latitude``); south is negative.
    public var latitude: Double
    /// Degrees east of Greenwich, −180…180 (``Bounds/longitude``); west is negative.
    public var longitude: Double
    /// How finely the sentence printed it, in degrees (0.0001 minutes is 1.7e-6°); nil when
    /// not read from a sentence. Not part of equality: the same place is the same place.
    @Unknowable public var resolution: Double?

    /// A position as stated, in degrees: not checked against ``Bounds`` (a decoder does that,
    /// as `init(from:)` does); for sources that hold their own values to range, and tests.
    public init(latitude: Double, longitude: Double, resolution: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.resolution = resolution
    }

    public static func == (a: Coordinate, b: Coordinate) -> Bool {
        a.latitude == b.latitude && a.longitude == b.longitude
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(latitude)
        hasher.combine(longitude)
    }

    /// Approximate ground distance in metres (equirectangular: exact enough below a kilometre).
    public func distance(to other: Coordinate) -> Double {
        let dy = (latitude - other.latitude) * metresPerDegree
        let meanLatitude = (latitude + other.latitude) / 2 * .pi / 180
        var dLon = (longitude - other.longitude).magnitude
        if dLon > 180 { dLon = 360 - dLon }
        let dx = dLon * metresPerDegree * cosine(meanLatitude)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Reads the four fields `lat,N,lon,E`; nil when any is empty or out of range (counted).
    static func read(_ fields: inout FieldCursor) -> Coordinate? {
        let lat = fields.next(), ns = fields.next(), lon = fields.next(), ew = fields.next()
        guard !lat.isEmpty || !lon.isEmpty else { return nil }
        let latitude = lat.angle(hemisphere: ns, positive: 0x4E, negative: 0x53)    // N, S
        let longitude = lon.angle(hemisphere: ew, positive: 0x45, negative: 0x57)   // E, W
        // An angle that parses but is no angle (minutes ≥ 60, 95° north) is out of range;
        // a position with one half missing is simply unknown.
        if latitude == nil && lat.decimal != nil && ns.character != nil { fields.reject(lat) }
        if longitude == nil && lon.decimal != nil && ew.character != nil { fields.reject(lon) }
        guard let latitude = fields.checked(latitude, in: Bounds.latitude),
              let longitude = fields.checked(longitude, in: Bounds.longitude)
        else { return nil }
        let decimals = min(lat.decimal?.scale ?? 0, lon.decimal?.scale ?? 0)
        return Coordinate(latitude: latitude, longitude: longitude,
                          resolution: 1 / (60 * Double(powersOfTen[decimals])))
    }
}

/// The FAA mode indicator of NMEA 2.3+ (RMC, GLL, VTG, GNS): how the position was obtained.
public enum ModeIndicator: UInt8, Sendable {
    /// `A`: an autonomous fix from the satellites alone, no corrections.
    case autonomous = 0x41    // A
    /// `D`: corrected by a differential source (SBAS, a DGPS beacon).
    case differential = 0x44  // D
    /// `E`: estimated by dead reckoning, from the last fix and the vehicle's own sensors.
    case estimated = 0x45     // E: dead reckoning
    /// `F`: RTK with float ambiguities, decimetre-class.
    case floatRTK = 0x46      // F
    /// `M`: a position entered by hand, not measured.
    case manual = 0x4D        // M
    /// `N`: no valid position; the sentence's other fields are not a fix.
    case notValid = 0x4E      // N
    /// `P`: precise, from the encrypted military code or a precise-point solution.
    case precise = 0x50       // P
    /// `R`: RTK with fixed integer ambiguities, centimetre-class.
    case rtk = 0x52           // R: RTK fixed
    /// `S`: the receiver is simulating; not a place it measured.
    case simulator = 0x53     // S

    init?(_ field: Field) {
        guard let c = field.character else { return nil }
        self.init(rawValue: c)
    }

    /// Whether the mode allows a fix: every mode but ``notValid`` (a simulated or hand-entered
    /// one included, which the engine sorts out by ``quality``).
    public var isValid: Bool { self != .notValid }

    /// How good a solution this mode means, for choosing among GNS's per-system modes:
    /// RTK fixed beats float beats differential beats autonomous beats dead reckoning.
    var rank: Int {
        switch self {
        case .rtk: 8
        case .floatRTK: 7
        case .precise: 6
        case .differential: 5
        case .autonomous: 4
        case .estimated: 3
        case .manual: 2
        case .simulator: 1
        case .notValid: 0
        }
    }

    /// The kind of solution this mode states, in gpsd's numbering; nil for ``notValid``.
    public var quality: FixQuality? {
        switch self {
        case .autonomous: .gps
        case .differential: .dgps
        case .estimated: .deadReckoning
        case .floatRTK: .rtkFloat
        case .manual: .manual
        case .notValid: nil
        case .precise: .precise
        case .rtk: .rtkFixed
        case .simulator: .simulated
        }
    }
}

/// NMEA 4.10 navigational status (RMC field 13, GNS field 13).
public enum NavigationalStatus: UInt8, Codable, Sendable {
    /// `S`: the receiver's integrity checks pass; safe to navigate by.
    case safe = 0x53        // S
    /// `C`: integrity is degraded; use with caution.
    case caution = 0x43     // C
    /// `U`: the integrity checks failed; not to be navigated by.
    case unsafe = 0x55      // U
    /// `V`: the receiver gives no navigational status (no integrity monitoring, or no fix).
    case notValid = 0x56    // V

    init?(_ field: Field) {
        guard let c = field.character else { return nil }
        self.init(rawValue: c)
    }
}

/// The kind of solution, as gpsd's `status` numbers it.
public enum FixQuality: Int, Codable, Sendable, Comparable {
    /// An autonomous GNSS fix, no corrections (GGA quality 1, mode `A`).
    case gps = 1
    /// Corrected by a differential source: SBAS or a DGPS station (GGA quality 2, mode `D`).
    case dgps = 2
    /// RTK with fixed integer ambiguities, centimetre-class (GGA quality 4, mode `R`).
    case rtkFixed = 3
    /// RTK with float ambiguities, decimetre-class (GGA quality 5, mode `F`).
    case rtkFloat = 4
    /// Dead reckoning: estimated from the last fix and the vehicle's own sensors (GGA quality 6,
    /// mode `E`).
    case deadReckoning = 5
    /// GNSS combined with dead reckoning, as receivers with inertial sensors report it; no NMEA
    /// indicator states it, a gpsd source may.
    case gnssDeadReckoning = 6
    /// A position entered by hand, not measured (GGA quality 7, mode `M`).
    case manual = 7
    /// The receiver is simulating (GGA quality 8, mode `S`): not a place; the sources drop such
    /// fixes unless told to accept simulated ones.
    case simulated = 8
    /// Precise: the encrypted military code, or a precise-point solution (GGA quality 3, mode `P`).
    case precise = 9

    /// GGA field 6. Zero (invalid) is no quality at all.
    init?(ggaQuality: Int) {
        switch ggaQuality {
        case 1: self = .gps
        case 2: self = .dgps
        case 3: self = .precise      // PPS: military / precise
        case 4: self = .rtkFixed
        case 5: self = .rtkFloat
        case 6: self = .deadReckoning
        case 7: self = .manual
        case 8: self = .simulated
        default: return nil
        }
    }

    /// A short label for people ("GPS", "DGPS", "RTK fixed", "DR", …), as reports and tables
    /// show the kind of solution.
    public var name: String {
        switch self {
        case .gps: "GPS"
        case .dgps: "DGPS"
        case .rtkFixed: "RTK fixed"
        case .rtkFloat: "RTK float"
        case .deadReckoning: "DR"
        case .gnssDeadReckoning: "GNSS+DR"
        case .manual: "manual"
        case .simulated: "simulated"
        case .precise: "precise"
        }
    }

    public static func < (a: FixQuality, b: FixQuality) -> Bool { a.rawValue < b.rawValue }
}

/// How many dimensions a fix has, as the receiver says (gpsd's `mode`).
public enum FixMode: Int, Codable, Sendable, Comparable {
    /// No position: the receiver is searching, or said its solution is not valid.
    case noFix = 1
    /// Latitude and longitude without a trustworthy altitude: too few satellites for height.
    case twoD = 2
    /// Latitude, longitude and altitude.
    case threeD = 3

    public static func < (a: FixMode, b: FixMode) -> Bool { a.rawValue < b.rawValue }
}

/// Dilutions of precision: those the receiver stated, the rest computed from the geometry of
/// the satellites it used (as gpsd computes them); nil where neither is known.
public struct DilutionOfPrecision: Hashable, Codable, Sendable {
    // Eight bytes each rather than sixteen: a fix carries them (see `Unknowable`).
    /// PDOP, position (three-dimensional) dilution, 0.01…999.99 (``Bounds/dop``), from GSA:
    /// how much the satellites' geometry magnifies range errors into position error; lower is
    /// better.
    @Unknowable public var position: Double?
    /// HDOP, horizontal dilution, 0.01…999.99 (``Bounds/dop``): from GSA, else GGA or GNS.
    @Unknowable public var horizontal: Double?
    /// VDOP, vertical dilution, 0.01…999.99 (``Bounds/dop``), from GSA.
    @Unknowable public var vertical: Double?
    /// TDOP, time dilution, 0.01…999.99 (``Bounds/dop``): u-blox's PUBX,00 states it, else it
    /// is computed from the used satellites' geometry, as gpsd computes it.
    @Unknowable public var time: Double?
    /// YDOP, the dilution of latitude (north–south), 0.01…999.99 (``Bounds/dop``): computed from
    /// the used satellites' geometry (no NMEA sentence states it), as gpsd's `ydop`.
    @Unknowable public var latitude: Double?
    /// XDOP, the dilution of longitude (east–west), 0.01…999.99 (``Bounds/dop``): computed, as
    /// gpsd's `xdop`.
    @Unknowable public var longitude: Double?
    /// GDOP, geometric dilution (position and time), 0.01…999.99 (``Bounds/dop``): computed, as
    /// gpsd's `gdop`.
    @Unknowable public var geometric: Double?

    /// Dilutions as stated, every one left out unknown; not checked against ``Bounds/dop``.
    public init(position: Double? = nil, horizontal: Double? = nil, vertical: Double? = nil, time: Double? = nil,
                latitude: Double? = nil, longitude: Double? = nil, geometric: Double? = nil) {
        self.position = position
        self.horizontal = horizontal
        self.vertical = vertical
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.geometric = geometric
    }

    /// These, each one unknown here taken from `computed`: a receiver's statement wins over
    /// the geometry, as in gpsd.
    func filled(from computed: DilutionOfPrecision) -> DilutionOfPrecision {
        var d = self
        if d.position == nil { d.position = computed.position }
        if d.horizontal == nil { d.horizontal = computed.horizontal }
        if d.vertical == nil { d.vertical = computed.vertical }
        if d.time == nil { d.time = computed.time }
        if d.latitude == nil { d.latitude = computed.latitude }
        if d.longitude == nil { d.longitude = computed.longitude }
        if d.geometric == nil { d.geometric = computed.geometric }
        return d
    }
}

/// Metres of ground per degree of latitude (a great circle on the mean Earth radius).
let metresPerDegree = 111_195.0

/// Knots to metres per second, exactly (1 knot = 1852 m/h).
let metresPerSecondPerKnot = 1852.0 / 3600.0

/// cos(x) for |x| ≤ π/2 without Foundation: the Taylor series to x^20, accurate to 1e-9
/// there, in Horner's form with the factorials' reciprocals as constants. Every fix's rates
/// measure a distance: ten divisions in a row (a loop of `x² / (n(n−1))`) took longer than the
/// rest of the distance together.
@inline(__always)
func cosine(_ x: Double) -> Double {
    let x2 = x * x
    // 1 − x²/2! (1 − x²/(3·4) (1 − … (1 − x²/(19·20)))), from the innermost out.
    var c = 1.0
    c = 1 - x2 * (1.0 / 380) * c
    c = 1 - x2 * (1.0 / 306) * c
    c = 1 - x2 * (1.0 / 240) * c
    c = 1 - x2 * (1.0 / 182) * c
    c = 1 - x2 * (1.0 / 132) * c
    c = 1 - x2 * (1.0 / 90) * c
    c = 1 - x2 * (1.0 / 56) * c
    c = 1 - x2 * (1.0 / 30) * c
    c = 1 - x2 * (1.0 / 12) * c
    c = 1 - x2 * (1.0 / 2) * c
    return c
}

// A stored position is held to the ranges a received one is (`Bounds`): whatever reads a
// decoded fix (distance, a GPX track, gpsd JSON) may take its coordinate to be a place.
extension Coordinate {
    private enum CodingKeys: String, CodingKey { case latitude, longitude, resolution }

    /// Reads `latitude`, `longitude` and, when present, `resolution`; a latitude beyond ±90°
    /// or a longitude beyond ±180° is refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let latitude = try container.decode(Double.self, forKey: .latitude)
        let longitude = try container.decode(Double.self, forKey: .longitude)
        guard Bounds.latitude.contains(latitude), Bounds.longitude.contains(longitude) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "\(latitude), \(longitude) is no place on Earth"))
        }
        self.init(latitude: latitude, longitude: longitude,
                  resolution: try container.decode(Unknowable.self, forKey: .resolution).wrappedValue)
    }
}
