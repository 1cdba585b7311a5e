/// GSA — GNSS DOP and Active Satellites (NMEA 0183 §8.3.42).
///
/// `$--GSA,a,x,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,x.x,x.x,x.x[,h]*hh`
/// The satellites used in the solution, the fix dimension and the DOPs. NMEA 4.10 adds a
/// system ID so that a `GN` receiver sends one GSA per constellation.
public struct GSA: Equatable, Sendable {
    /// Field 2: 1 no fix, 2 2D, 3 3D.
    public var mode: FixMode?
    /// Fields 3 onwards, the numbers of the satellites used in the solution, as NMEA numbers them
    /// (see ``SatelliteID``); empty fields and numbers outside 1…65535 are skipped, and a receiver
    /// that lists more than sixteen loses the rest.
    public var satellites = FixedList<16, UInt16>()
    /// The position (3D) dilution of precision, 0.01…999.99 (``Bounds/dop``): the third field from the
    /// end, or the fourth when the sentence carries a system ID.
    public var pdop: Double?
    /// The horizontal dilution of precision, 0.01…999.99 (``Bounds/dop``), the field after ``pdop``.
    public var hdop: Double?
    /// The vertical dilution of precision, 0.01…999.99 (``Bounds/dop``), the field after ``hdop``.
    public var vdop: Double?
    /// NMEA 4.10 system ID (1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou, 5 QZSS, 6 NavIC).
    public var systemID: Int?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of a GSA from any talker (`GPGSA`, `GNGSA`, …); the caller has matched
    /// the address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        // The number of satellite fields varies (12 by the standard, more on some receivers),
        // so locate the DOPs from the end: the last three fields, or four with a system ID.
        let count = f.remaining
        f.skip(1)
        mode = f.integer(in: 1...3).flatMap(FixMode.init(rawValue:))
        // 17 fields by the standard; an 18th is the NMEA 4.10 system ID.
        let trailing = count >= 18 ? 4 : 3
        let numbers = max(0, count - 2 - trailing)
        for _ in 0..<numbers {
            if let n = f.next().integer, n > 0, n <= Int(UInt16.max) { satellites.append(UInt16(n)) }
        }
        pdop = f.double(in: Bounds.dop)
        hdop = f.double(in: Bounds.dop)
        vdop = f.double(in: Bounds.dop)
        if trailing == 4 { systemID = f.integer(in: 0...15) }
        outOfRange = f.outOfRange
    }
}

extension GSA: EpochInput {
    public static var address: StaticString { "GSA" }

    var facts: EpochAssembler.Facts {
        var f = EpochAssembler.Facts()
        f.severalPerCycle = true
        return f
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if let m = mode, epoch.gsaMode == nil || m > epoch.gsaMode! { epoch.gsaMode = m }
        let hint = systemID.flatMap(Constellation.init(nmeaSystemID:)) ?? talker?.constellation
        epoch.markUsed(satellites, hint: hint)
        epoch.recordUsed(satellites, systemID: systemID, talker: talker, hint: hint)
        if epoch.dop.position == nil { epoch.dop.position = pdop }
        if epoch.dop.horizontal == nil { epoch.dop.horizontal = hdop }
        if epoch.dop.vertical == nil { epoch.dop.vertical = vdop }
    }
}
