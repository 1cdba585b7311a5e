/// PUBX,00 — u-blox Lat/Long Position Data (u-blox proprietary).
///
/// `$PUBX,00,hhmmss.ss,lat,N,lon,E,altRef,navStat,hAcc,vAcc,SOG,COG,vVel,diffAge,HDOP,VDOP,TDOP,numSvs,res,DR,*hh`
/// Its altitude is above the WGS 84 ellipsoid, not mean sea level; SOG is km/h and vVel is
/// positive downwards.
public struct PUBXPosition: Equatable, Sendable {
    /// Field 2, the UTC time of the solution; nil when empty or not a time of day (counted in
    /// ``outOfRange``).
    public var time: TimeOfDay?
    /// Fields 3–6, the position; nil when a half is missing or out of ``Bounds/latitude`` or
    /// ``Bounds/longitude``.
    public var coordinate: Coordinate?
    /// Field 7, metres above the WGS 84 ellipsoid (not mean sea level), −11 000…1 000 000
    /// (``Bounds/altitude``).
    public var ellipsoidalAltitude: Double?
    /// Field 8, the navigation status as its two ASCII bytes, as u-blox defines them: `NF` no
    /// fix, `DR` dead reckoning only, `G2`/`G3` standalone 2D/3D, `D2`/`D3` differential 2D/3D,
    /// `RK` GPS combined with dead reckoning, `TT` time only; nil unless two characters.
    /// ``mode`` and ``quality`` read it.
    public var navigationStatus: (UInt8, UInt8)?
    /// Field 9, the receiver's horizontal accuracy estimate in metres, 0…10 000 000
    /// (``Bounds/accuracy``: u-blox reports up to 4 294 967 before a fix).
    public var horizontalAccuracy: Double?
    /// Field 10, the receiver's vertical accuracy estimate in metres, 0…10 000 000
    /// (``Bounds/accuracy``).
    public var verticalAccuracy: Double?
    /// Field 11, the speed over ground in km/h, 0…43 200 (``Bounds/speedKilometresPerHour``).
    public var speedKilometresPerHour: Double?
    /// Field 12, the course over ground in degrees true, 0 up to 360 (``Bounds/course``).
    public var course: Double?
    /// Field 13, the vertical velocity in m/s, positive downwards (the opposite of a climb),
    /// −12 000…12 000 (``Bounds/verticalSpeed``).
    public var verticalVelocityDown: Double?
    /// Field 15, the horizontal dilution of precision, 0.01…999.99 (``Bounds/dop``).
    public var hdop: Double?
    /// Field 16, the vertical dilution of precision, 0.01…999.99 (``Bounds/dop``).
    public var vdop: Double?
    /// Field 17, the time dilution of precision, 0.01…999.99 (``Bounds/dop``).
    public var tdop: Double?
    /// Field 18, the satellites used in the solution, 0…140 (``Bounds/satellites``).
    public var satellitesUsed: Int?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads a `PUBX` sentence whose message ID is `00`; nil for the other PUBX messages.
    public init?(_ s: Sentence) {
        var f = s.fields
        let id = f.next()
        guard id.bytes.count == 2, id.bytes[0] == 0x30, id.bytes[1] == 0x30 else { return nil }
        time = f.time()
        coordinate = Coordinate.read(&f)
        ellipsoidalAltitude = f.double(in: Bounds.altitude)
        let nav = f.next()
        navigationStatus = nav.bytes.count == 2 ? (nav.bytes[0], nav.bytes[1]) : nil
        horizontalAccuracy = f.double(in: Bounds.accuracy)
        verticalAccuracy = f.double(in: Bounds.accuracy)
        speedKilometresPerHour = f.double(in: Bounds.speedKilometresPerHour)
        course = f.double(in: Bounds.course)
        verticalVelocityDown = f.double(in: Bounds.verticalSpeed)
        f.skip(1)
        hdop = f.double(in: Bounds.dop)
        vdop = f.double(in: Bounds.dop)
        tdop = f.double(in: Bounds.dop)
        satellitesUsed = f.integer(in: Bounds.satellites)
        outOfRange = f.outOfRange
    }

    /// The fix's dimension by the navigation status (field 8): `G2` and `D2` are 2D; `G3`, `D3` and
    /// `RK` 3D; `NF`, `DR`, `TT` and anything else no fix.
    public var mode: FixMode {
        switch navigationStatus {
        case (0x47, 0x32)?, (0x44, 0x32)?: .twoD                     // G2, D2
        case (0x47, 0x33)?, (0x44, 0x33)?, (0x52, 0x4B)?: .threeD     // G3, D3, RK
        default: .noFix                                               // NF, DR, TT
        }
    }

    /// The kind of solution by the navigation status: `G…` GPS, `D2` and `D3` differential, and
    /// `RK` read as ``FixQuality/rtkFixed``; nil for the rest (no fix, dead reckoning alone,
    /// time only).
    public var quality: FixQuality? {
        switch navigationStatus {
        case (0x47, _)?: .gps
        case (0x44, 0x32)?, (0x44, 0x33)?: .dgps
        case (0x52, 0x4B)?: .rtkFixed
        default: nil
        }
    }

    public static func == (a: PUBXPosition, b: PUBXPosition) -> Bool {
        a.time == b.time && a.coordinate == b.coordinate && a.ellipsoidalAltitude == b.ellipsoidalAltitude
            && a.navigationStatus?.0 == b.navigationStatus?.0 && a.navigationStatus?.1 == b.navigationStatus?.1
            && a.horizontalAccuracy == b.horizontalAccuracy && a.verticalAccuracy == b.verticalAccuracy
            && a.speedKilometresPerHour == b.speedKilometresPerHour && a.course == b.course
            && a.verticalVelocityDown == b.verticalVelocityDown && a.hdop == b.hdop && a.vdop == b.vdop
            && a.tdop == b.tdop && a.satellitesUsed == b.satellitesUsed && a.outOfRange == b.outOfRange
    }
}

extension PUBXPosition: EpochInput {
    public static var address: StaticString { "PUBX" }

    var facts: EpochAssembler.Facts {
        EpochAssembler.Facts(time: time)
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        epoch.pubxMode = mode
        if mode >= .twoD {
            epoch.validSignals += 1
            epoch.offer(coordinate)
            epoch.offer(quality)
            if let h = ellipsoidalAltitude { epoch.ellipsoidalAltitude = h }
            if let v = speedKilometresPerHour { epoch.speed = epoch.speed ?? v / 3.6 }
            if let c = course { epoch.course = epoch.course ?? c }
            if let v = verticalVelocityDown { epoch.climb = -v }
        } else {
            epoch.invalidSignals += 1
        }
        epoch.horizontalAccuracy = horizontalAccuracy ?? epoch.horizontalAccuracy
        epoch.verticalAccuracy = verticalAccuracy ?? epoch.verticalAccuracy
        if epoch.dop.time == nil { epoch.dop.time = tdop }
        if let n = satellitesUsed { epoch.satellitesUsed = epoch.satellitesUsed ?? n }
    }
}
