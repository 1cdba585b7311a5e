/// GRS — GNSS Range Residuals (NMEA 0183 §8.3.41).
///
/// `$--GRS,hhmmss.ss,m,x.x,x.x,…(12),h,h*hh`: for integrity monitoring (RAIM), how far each
/// satellite's measured range lies from the solution, in metres, in the order of the
/// satellites the matching GSA lists as used. Mode 0: the residuals the position was computed
/// with; 1: recomputed after it. NMEA 4.10 adds the system and signal IDs, one GRS per
/// constellation as one GSA per constellation. `$GPGRS,112257.00,1,-0.1,-0.3,-0.1,,,,,,,,,`
/// (a Septentrio PolarRx2) is three satellites' residuals.
///
/// The engine puts each residual on its satellite in the sky view (``Satellite/rangeResidual``),
/// matching the GRS to the GSA of the same system ID (or talker), in the order they came; gpsd
/// decodes GRS no further than its time, and reports no residuals.
public struct GRS: Equatable, Sendable {
    /// Field 1, the UTC time of the solution the residuals belong to; nil when empty or not a time
    /// of day (counted in ``outOfRange``).
    public var time: TimeOfDay?
    /// Field 2: true for mode 1 (recomputed after the position), false for mode 0 (used to compute
    /// it); nil when empty or another number (counted).
    public var isRecomputed: Bool?
    /// Fields 3 to 14, one per satellite of the matching GSA, in its order: metres, −1000…1000
    /// (``Bounds/rangeResidual``), nil where the field is empty.
    public var residuals = RangeResiduals()
    /// NMEA 4.10's system ID (1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou, 5 QZSS, 6 NavIC); nil before.
    public var systemID: Int?
    /// NMEA 4.10's signal ID; nil before.
    public var signalID: Int?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of a GRS from any talker (`GPGRS`, `GNGRS`, …); the caller has matched
    /// the address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        let count = f.remaining
        time = f.time()
        isRecomputed = f.integer(in: 0...1).map { $0 == 1 }
        // Twelve residual fields by the standard; two more are 4.10's system and signal IDs.
        // A receiver that sends fewer residual fields is read as far as it goes.
        let fields = count >= 16 ? 12 : max(0, min(12, count - 2))
        for _ in 0..<fields { residuals.append(f.double(in: Bounds.rangeResidual)) }
        if count >= 16 {
            systemID = f.integer(in: 0...15)
            signalID = f.integer(in: 0...15)
        }
        outOfRange = f.outOfRange
    }
}

/// Up to twelve range residuals in metres, each nil where its field was empty: kept inline
/// (NaN for nil), so decoding a GRS allocates nothing.
public struct RangeResiduals: RandomAccessCollection, Equatable, Sendable {
    /// The most residuals a GRS carries: twelve, one per satellite field.
    public static let capacity = 12
    private var storage = InlineArray<12, Double>(repeating: .nan)
    /// How many residual fields were read, 0…12, empty ones included.
    public private(set) var count = 0

    /// None.
    public init() {}

    /// Appends one field's residual (nil for an empty one) unless twelve are held.
    public mutating func append(_ residual: Double?) {
        guard count < Self.capacity else { return }
        storage[count] = residual ?? .nan
        count += 1
    }

    /// 0.
    public var startIndex: Int { 0 }
    /// ``count``.
    public var endIndex: Int { count }

    /// The residual of the `position`-th satellite of the matching GSA, nil where none was sent.
    public subscript(position: Int) -> Double? {
        precondition(position >= 0 && position < count)
        let value = storage[position]
        return value.isNaN ? nil : value
    }

    /// The same residuals (nil where nil) in the same places.
    public static func == (a: RangeResiduals, b: RangeResiduals) -> Bool {
        a.count == b.count && a.indices.allSatisfy { a[$0] == b[$0] }
    }
}

extension GRS: EpochInput {
    public static var address: StaticString { "GRS" }

    var facts: EpochAssembler.Facts {
        var f = EpochAssembler.Facts(time: time)
        // One per constellation (NMEA 4.10), as GSA.
        f.severalPerCycle = true
        return f
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        guard epoch.lists.residualGroups.count < 16 else { return }
        epoch.lists.residualGroups.append(Epoch.ResidualGroup(
            key: Epoch.groupKey(systemID: systemID, talker: talker), residuals: residuals))
    }
}

// MARK: - Residuals on the sky view's satellites

extension Epoch {
    /// A GSA's used satellites, in its order, for the GRS that matches it.
    struct UsedGroup: Sendable {
        var key: UInt32
        var satellites: FixedList<16, UInt16>
        var hint: Constellation?
    }

    /// A GRS's residuals, for the GSA that matches it.
    struct ResidualGroup: Sendable {
        var key: UInt32
        var residuals: RangeResiduals
    }

    /// What pairs a GRS with its GSA: the NMEA 4.10 system ID where the sentence has one, else
    /// its talker.
    static func groupKey(systemID: Int?, talker: Talker?) -> UInt32 {
        if let systemID { return 0x1_0000 | UInt32(truncatingIfNeeded: systemID & 0xFF) }
        return talker.map { UInt32($0.first) << 8 | UInt32($0.second) } ?? 0
    }

    /// Records a GSA's used satellites in its order (at most 16 GSAs a cycle are kept).
    mutating func recordUsed(_ satellites: FixedList<16, UInt16>, systemID: Int?, talker: Talker?, hint: Constellation?) {
        guard lists.usedGroups.count < 16 else { return }
        lists.usedGroups.append(UsedGroup(key: Self.groupKey(systemID: systemID, talker: talker),
                                          satellites: satellites, hint: hint))
    }

    /// Puts each GRS residual on its satellite: the n-th GRS of a system ID (or talker) goes with
    /// the n-th GSA of the same, or, where none has it (one sentence with a system ID and the
    /// other without), with the GSA at its own place in the cycle. A residual whose satellite the
    /// sky view does not list is dropped. Nothing to do (and nothing done) without a GRS.
    mutating func applyResiduals(to satellites: inout [Satellite]) {
        guard !lists.residualGroups.isEmpty else { return }
        for (n, grs) in lists.residualGroups.enumerated() {
            let occurrence = lists.residualGroups[..<n].reduce(0) { $0 + ($1.key == grs.key ? 1 : 0) }
            let sameKey = lists.usedGroups.lazy.filter { $0.key == grs.key }
            let gsa: UsedGroup?
            if sameKey.count > occurrence {
                gsa = sameKey.dropFirst(occurrence).first
            } else {
                gsa = sameKey.isEmpty && n < lists.usedGroups.count ? lists.usedGroups[n] : nil
            }
            guard let gsa else { continue }
            for (i, number) in gsa.satellites.enumerated() where i < grs.residuals.count {
                guard let residual = grs.residuals[i], let id = SatelliteID(nmea: Int(number), hint: gsa.hint),
                      let j = satellites.firstIndex(where: { $0.id == id }) else { continue }
                satellites[j].rangeResidual = residual
            }
        }
    }
}

/// A `Double?` of metres kept to the centimetre in four bytes, `Int32.min` standing for nil: in
/// a `Satellite` it fills the padding after `used`, so a sky view costs no more for it.
///
/// Encoded as its value in metres, or left out of a keyed container when nil, as `Unknowable` is.
@propertyWrapper
public struct Centimetres: Hashable, Sendable, Codable {
    @usableFromInline var stored: Int32

    /// Holds `wrappedValue` rounded to the centimetre, nil (and anything beyond ±21 000 km) as
    /// `Int32.min`.
    @inlinable
    public init(wrappedValue: Double?) {
        stored = Self.store(wrappedValue)
    }

    @inlinable
    static func store(_ metres: Double?) -> Int32 {
        guard let metres, metres.isFinite, abs(metres) < 2.1e7 else { return .min }
        return Int32((metres * 100).rounded())
    }

    /// The value in metres, to the centimetre; nil when unknown.
    @inlinable
    public var wrappedValue: Double? {
        get { stored == .min ? nil : Double(stored) / 100 }
        set { stored = Self.store(newValue) }
    }

    /// Reads a number of metres, or null as unknown.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        stored = container.decodeNil() ? .min : Self.store(try container.decode(Double.self))
    }

    /// Writes the metres, or null when unknown (a keyed container leaves the member out).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value = wrappedValue { try container.encode(value) } else { try container.encodeNil() }
    }
}

extension Centimetres: OmittedWhenEmpty {
    var present: Double? { wrappedValue }
    init(present: Double?) { self.init(wrappedValue: present) }
}
