/// PUBX,00 — u-blox Lat/Long Position Data (u-blox proprietary).
///
/// `$PUBX,00,hhmmss.ss,lat,N,lon,E,altRef,navStat,hAcc,vAcc,SOG,COG,vVel,diffAge,HDOP,VDOP,TDOP,numSvs,res,DR,*hh`
/// Its altitude is above the WGS 84 ellipsoid, not mean sea level; SOG is km/h and vVel is
/// positive downwards.
public struct PUBXPosition: Equatable, Sendable {
    public var time: TimeOfDay?
    public var coordinate: Coordinate?
    public var ellipsoidalAltitude: Double?
    /// NF, DR, G2, G3, D2, D3, RK, TT.
    public var navigationStatus: (UInt8, UInt8)?
    public var horizontalAccuracy: Double?
    public var verticalAccuracy: Double?
    public var speedKilometresPerHour: Double?
    public var course: Double?
    public var verticalVelocityDown: Double?
    public var hdop: Double?
    public var vdop: Double?
    public var tdop: Double?
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

    public var mode: FixMode {
        switch navigationStatus {
        case (0x47, 0x32)?, (0x44, 0x32)?: .twoD                     // G2, D2
        case (0x47, 0x33)?, (0x44, 0x33)?, (0x52, 0x4B)?: .threeD     // G3, D3, RK
        default: .noFix                                               // NF, DR, TT
        }
    }

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
