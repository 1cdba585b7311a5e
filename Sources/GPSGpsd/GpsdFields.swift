import NMEA
import CGPS
import GPSLocation

// What libgps decoded, as the engine's values. libgps is reached only through CGPS's records
// (cgps.h), the same on every libgps gpsfix supports; the differences between releases are in
// cgps.c alone.
//
// gpsd's conventions: an unknown double is NaN; a plain fix may come with status 0 (gpsd
// leaves `status` out below DGPS), so validity is judged by `mode` and finite values.

enum GpsdFields {
    /// A TPV as a Fix: nil before gpsd has seen a mode; a `.noFix` Fix for mode 1.
    static func fix(_ reader: OpaquePointer) -> Fix? {
        var record = cgps_fix()
        cgps_reader_fix(reader, &record)
        let mode = Int(record.mode)
        guard (1...3).contains(mode) else { return nil }
        var fix = Fix()
        fix.timestamp = fixTime(seconds: record.time_seconds, nanoseconds: record.time_nanoseconds)
        // gpsd may be another machine's, or another program on that port: what it sends is
        // held to the same ranges as a receiver's sentences (`Bounds`).
        let latitude = record.latitude, longitude = record.longitude
        guard mode >= 2, Bounds.latitude.contains(latitude), Bounds.longitude.contains(longitude) else {
            fix.mode = .noFix
            return fix
        }
        fix.mode = mode == 3 ? .threeD : .twoD
        fix.quality = quality(record.status)
        fix.coordinate = Coordinate(latitude: latitude, longitude: longitude)
        fix.altitude = within(record.altitude_msl, Bounds.altitude)
        fix.ellipsoidalAltitude = within(record.altitude_hae, Bounds.altitude)
        fix.geoidSeparation = within(record.geoid_separation, Bounds.geoidSeparation)
        fix.speed = within(record.speed, Bounds.speed)
        fix.course = within(record.track, Bounds.course)
        fix.magneticVariation = within(record.magnetic_variation, -180.0...180.0)
        fix.climb = within(record.climb, Bounds.verticalSpeed)
        // gpsd's TPV errors are gpsd's estimates (the receiver's own statistics come in its
        // GST): passed on as such, and as the accuracies, since gpsd gives no better.
        fix.estimatedErrors = ErrorEstimates(
            horizontal: within(record.eph, Bounds.accuracy), latitude: within(record.epy, Bounds.accuracy),
            longitude: within(record.epx, Bounds.accuracy), vertical: within(record.epv, Bounds.accuracy),
            spherical: within(record.sep, Bounds.accuracy), speed: within(record.eps, Bounds.accuracy),
            course: within(record.epd, 0...180), climb: within(record.epc, Bounds.accuracy),
            time: within(record.ept, Bounds.accuracy))
        fix.horizontalAccuracy = fix.estimatedErrors.horizontal
        fix.verticalAccuracy = fix.estimatedErrors.vertical
        var dop = cgps_dop()
        cgps_reader_fix_dop(reader, &dop)
        fix.dop = dilution(dop)
        var marine = MarineData()
        marine.depth = within(record.depth, Bounds.depth)
        marine.magneticWindDirection = within(record.wind_angle_magnetic, Bounds.course)
        marine.apparentWindAngle = within(record.wind_angle_relative, Bounds.course)
        marine.trueWindDirection = within(record.wind_angle_true, Bounds.course)
        marine.apparentWindSpeed = within(record.wind_speed_relative, Bounds.windSpeed)
        marine.trueWindSpeed = within(record.wind_speed_true, Bounds.windSpeed)
        if !marine.isEmpty { fix.marine = marine }
        return fix
    }

    /// An ATT as an attitude: nil when the report was none, or said nothing gpsfix reads.
    static func attitude(_ reader: OpaquePointer) -> Attitude? {
        var record = cgps_attitude()
        guard cgps_reader_attitude(reader, &record) else { return nil }
        let attitude = Attitude(heading: within(record.heading, Bounds.course),
                                pitch: within(record.pitch, Bounds.pitch), roll: within(record.roll, Bounds.roll))
        return attitude.isEmpty ? nil : attitude
    }

    /// A SKY as a SkyView, one entry per satellite: gpsd may list one twice, under two
    /// spellings (PRN 65, or gnssid 6 and svid 1, are both GLONASS 1).
    static func sky(_ reader: OpaquePointer) -> SkyView {
        var header = cgps_sky()
        cgps_reader_sky(reader, &header)
        var satellites: [Satellite] = []
        satellites.reserveCapacity(Int(header.satellites_visible))
        var entry = cgps_satellite()
        var index: Int32 = 0
        while cgps_reader_satellite(reader, index, &entry) {
            index += 1
            guard let id = satelliteID(entry) else { continue }
            let satellite = Satellite(
                id: id,
                elevation: within(entry.elevation, Bounds.elevation),
                azimuth: within(entry.azimuth, Bounds.azimuth),
                snr: within(entry.ss, Bounds.snr).flatMap { $0 > 0 ? $0 : nil },
                used: entry.used)
            if let same = satellites.firstIndex(where: { $0.id == id }) {
                satellites[same] = merged(satellites[same], satellite)
            } else {
                satellites.append(satellite)
            }
        }
        satellites.sort { $0.id < $1.id }
        var view = SkyView(satellites: satellites, dop: dilution(header.dop))
        view.timestamp = fixTime(seconds: header.time_seconds, nanoseconds: header.time_nanoseconds)
        return view
    }

    /// gpsd's gnssid and svid when it gave them (svid 0 is none), else its NMEA-style PRN.
    private static func satelliteID(_ entry: cgps_satellite) -> SatelliteID? {
        if entry.svid != 0, let constellation = Constellation(rawValue: Int(entry.gnssid)) {
            return SatelliteID(constellation: constellation, svid: Int(entry.svid))
        }
        return SatelliteID(nmea: Int(entry.prn), hint: nil)
    }

    /// One satellite listed twice: the first listing, with what only the second knew.
    private static func merged(_ first: Satellite, _ second: Satellite) -> Satellite {
        Satellite(id: first.id, elevation: first.elevation ?? second.elevation,
                  azimuth: first.azimuth ?? second.azimuth, snr: first.snr ?? second.snr,
                  used: first.used || second.used)
    }

    private static func dilution(_ dop: cgps_dop) -> DilutionOfPrecision {
        DilutionOfPrecision(
            position: within(dop.pdop, Bounds.dop), horizontal: within(dop.hdop, Bounds.dop),
            vertical: within(dop.vdop, Bounds.dop), time: within(dop.tdop, Bounds.dop),
            latitude: within(dop.ydop, Bounds.dop), longitude: within(dop.xdop, Bounds.dop),
            geometric: within(dop.gdop, Bounds.dop))
    }

    /// gpsd's status as the engine's quality; a plain fix may come with none.
    static func quality(_ status: cgps_status) -> FixQuality {
        switch status {
        case CGPS_STATUS_DGPS: .dgps
        case CGPS_STATUS_RTK_FIXED: .rtkFixed
        case CGPS_STATUS_RTK_FLOAT: .rtkFloat
        case CGPS_STATUS_DEAD_RECKONING: .deadReckoning
        case CGPS_STATUS_GNSS_DEAD_RECKONING: .gnssDeadReckoning
        case CGPS_STATUS_TIME_ONLY: .manual
        case CGPS_STATUS_SIMULATED: .simulated
        case CGPS_STATUS_PPS: .precise
        default: .gps
        }
    }

    static func fixTime(seconds: Int64, nanoseconds: Int64) -> FixTime? {
        guard seconds > 0 || nanoseconds > 0 else { return nil }
        // Int is 64 bits on every platform gpsfix builds for; the ranges are GpsdTime's to check.
        return GpsdTime.fixTime(seconds: Int(seconds), nanoseconds: Int(nanoseconds))
    }

    /// libgps's unknown is NaN; a value beyond its range is unknown too.
    private static func within(_ value: Double, _ bounds: some RangeExpression<Double>) -> Double? {
        value.isFinite && bounds.contains(value) ? value : nil
    }
}
