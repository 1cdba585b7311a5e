import NMEA
import CGPS
import GPSLocation

// Every access to libgps's structs lives here: gps_data_t changed shape across API 7, 9, 10
// and 11, and this file is written for API 11 (the shim refuses any other version). The
// struct (24 KB, with a pointer into itself) is only ever read through its one address, field
// by field: never copied.
//
// gpsd's conventions: an unknown double is NaN; a plain fix has `status` 0 (gpsd leaves
// `status` out below DGPS), so validity is judged by `mode` and finite values.

enum GpsdFields {
    /// What one gps_read brought, by the mask of what it set.
    enum Report {
        case fix(Fix)
        case sky(SkyView)
    }

    /// Clears the mask before a read: it accumulates across reads otherwise.
    static func clearMask(_ data: UnsafeMutablePointer<gps_data_t>) {
        data.pointee.set = 0
    }

    /// The report the last read brought, if it was a TPV or a SKY.
    static func report(_ data: UnsafePointer<gps_data_t>) -> Report? {
        let set = data.pointee.set
        if set & cgps_satellite_set != 0 { return .sky(sky(data)) }
        if set & cgps_mode_set != 0 { return fix(data).map(Report.fix) }
        return nil
    }

    /// A TPV as a Fix: nil before gpsd has seen a mode; a `.noFix` Fix for mode 1.
    static func fix(_ data: UnsafePointer<gps_data_t>) -> Fix? {
        let mode = Int(data.pointee.fix.mode)
        guard mode >= Int(MODE_NO_FIX) else { return nil }
        var fix = Fix()
        fix.timestamp = fixTime(data.pointee.fix.time)
        // gpsd may be another machine's, or another program on that port: what it sends is
        // held to the same ranges as a receiver's sentences (`Bounds`).
        let latitude = data.pointee.fix.latitude, longitude = data.pointee.fix.longitude
        guard mode >= Int(MODE_2D), Bounds.latitude.contains(latitude), Bounds.longitude.contains(longitude) else {
            fix.mode = .noFix
            return fix
        }
        fix.mode = mode >= Int(MODE_3D) ? .threeD : .twoD
        fix.quality = quality(status: Int(data.pointee.fix.status))
        fix.coordinate = Coordinate(latitude: latitude, longitude: longitude)
        fix.altitude = within(data.pointee.fix.altMSL, Bounds.altitude)
        fix.ellipsoidalAltitude = within(data.pointee.fix.altHAE, Bounds.altitude)
        fix.geoidSeparation = within(data.pointee.fix.geoid_sep, Bounds.geoidSeparation)
        fix.speed = within(data.pointee.fix.speed, Bounds.speed)
        fix.course = within(data.pointee.fix.track, Bounds.course)
        fix.magneticVariation = within(data.pointee.fix.magnetic_var, -180.0...180.0)
        fix.climb = within(data.pointee.fix.climb, Bounds.verticalSpeed)
        fix.latitudeError = within(data.pointee.fix.epy, Bounds.accuracy)
        fix.longitudeError = within(data.pointee.fix.epx, Bounds.accuracy)
        fix.verticalAccuracy = within(data.pointee.fix.epv, Bounds.accuracy)
        let used = Int(data.pointee.satellites_used)
        fix.satellitesUsed = used > 0 && Bounds.satellites.contains(used) ? used : nil
        fix.dop = dop(data)
        return fix
    }

    /// A SKY as a SkyView: the first `satellites_visible` entries of the skyview array.
    static func sky(_ data: UnsafePointer<gps_data_t>) -> SkyView {
        let count = max(0, min(Int(data.pointee.satellites_visible), Int(cgps_max_channels)))
        let offset = MemoryLayout<gps_data_t>.offset(of: \gps_data_t.skyview)!
        let entries = UnsafeRawPointer(data).advanced(by: offset)
            .assumingMemoryBound(to: satellite_t.self)
        var satellites: [Satellite] = []
        satellites.reserveCapacity(count)
        for index in 0..<count {
            let entry = entries + index
            let svid = Int(entry.pointee.svid)
            let id: SatelliteID
            if svid != 0, let constellation = Constellation(rawValue: Int(entry.pointee.gnssid)) {
                id = SatelliteID(constellation: constellation, svid: svid)
            } else if let fromPRN = SatelliteID(nmea: Int(entry.pointee.PRN), hint: nil) {
                id = fromPRN
            } else {
                continue
            }
            satellites.append(Satellite(
                id: id,
                elevation: within(entry.pointee.elevation, Bounds.elevation),
                azimuth: within(entry.pointee.azimuth, Bounds.azimuth),
                snr: within(entry.pointee.ss, Bounds.snr).flatMap { $0 > 0 ? $0 : nil },
                used: entry.pointee.used))
        }
        satellites.sort { $0.id < $1.id }
        var view = SkyView(satellites: satellites, dop: dop(data))
        view.timestamp = fixTime(data.pointee.skyview_time)
        return view
    }

    private static func dop(_ data: UnsafePointer<gps_data_t>) -> DilutionOfPrecision {
        DilutionOfPrecision(
            position: within(data.pointee.dop.pdop, Bounds.dop), horizontal: within(data.pointee.dop.hdop, Bounds.dop),
            vertical: within(data.pointee.dop.vdop, Bounds.dop), time: within(data.pointee.dop.tdop, Bounds.dop))
    }

    /// gpsd's status (API 11 numbering) as the engine's quality; a plain fix comes with 0.
    static func quality(status: Int) -> FixQuality {
        switch status {
        case 2: .dgps
        case 3: .rtkFixed
        case 4: .rtkFloat
        case 5: .deadReckoning
        case 6: .gnssDeadReckoning
        case 7: .manual
        case 8: .simulated
        case 9: .precise
        default: .gps
        }
    }

    static func fixTime(_ time: timespec) -> FixTime? {
        guard time.tv_sec > 0 || time.tv_nsec > 0 else { return nil }
        return GpsdTime.fixTime(seconds: Int(time.tv_sec), nanoseconds: Int(time.tv_nsec))
    }

    /// libgps's unknown is NaN; a value beyond its range is unknown too.
    private static func within(_ value: Double, _ bounds: some RangeExpression<Double>) -> Double? {
        value.isFinite && bounds.contains(value) ? value : nil
    }
}
