// Generated from GPSDReportTable's rows (Reports/GPSDReportTable.swift) by ReportTableTests:
// do not edit. GPSFIX_REGENERATE=1 swift test --filter ReportTableTests writes it again.
import NMEA

extension GPSDJSON {
    /// TPV's measurements (`GPSDReportTable.tpv`). Each is left out when unknown.
    @inline(__always)
    static func tpvMembers(_ r: Fix, into w: inout ByteWriter) {
        optional(",\"ept\":", r.estimatedErrors.time, 3, &w)
        optional(",\"lat\":", r.coordinate?.latitude, 9, &w)
        optional(",\"lon\":", r.coordinate?.longitude, 9, &w)
        optional(",\"altHAE\":", r.ellipsoidalAltitude, 3, &w)
        optional(",\"altMSL\":", r.altitude, 3, &w)
        optional(",\"alt\":", r.altitude, 3, &w)
        optional(",\"epx\":", r.estimatedErrors.longitude, 3, &w)
        optional(",\"epy\":", r.estimatedErrors.latitude, 3, &w)
        optional(",\"epv\":", r.estimatedErrors.vertical, 3, &w)
        optional(",\"track\":", bearing: r.course, 4, &w)
        optional(",\"magtrack\":", bearing: r.gpsdMagneticTrack, 4, &w)
        optional(",\"magvar\":", r.magneticVariation, 1, &w)
        optional(",\"speed\":", r.speed, 3, &w)
        optional(",\"climb\":", r.climb, 3, &w)
        optional(",\"epd\":", r.estimatedErrors.course, 4, &w)
        optional(",\"eps\":", r.estimatedErrors.speed, 2, &w)
        optional(",\"epc\":", r.estimatedErrors.climb, 2, &w)
        optional(",\"geoidSep\":", r.geoidSeparation, 3, &w)
        optional(",\"eph\":", r.estimatedErrors.horizontal, 3, &w)
        optional(",\"sep\":", r.estimatedErrors.spherical, 3, &w)
    }

    /// SKY's own measurements (`GPSDReportTable.sky`). Each is left out when unknown.
    @inline(__always)
    static func skyMembers(_ r: SkyView, into w: inout ByteWriter) {
        optional(",\"xdop\":", r.dop.longitude, 2, &w)
        optional(",\"ydop\":", r.dop.latitude, 2, &w)
        optional(",\"vdop\":", r.dop.vertical, 2, &w)
        optional(",\"tdop\":", r.dop.time, 2, &w)
        optional(",\"hdop\":", r.dop.horizontal, 2, &w)
        optional(",\"gdop\":", r.dop.geometric, 2, &w)
        optional(",\"pdop\":", r.dop.position, 2, &w)
    }

    /// A SKY satellite's measurements (`GPSDReportTable.satellite`). Each is left out when unknown.
    @inline(__always)
    static func satelliteMembers(_ r: Satellite, into w: inout ByteWriter) {
        optional(",\"el\":", r.elevation, 1, &w)
        optional(",\"az\":", bearing: r.azimuth, 1, &w)
        optional(",\"ss\":", r.snr, 1, &w)
    }

    /// GST's measurements (`GPSDReportTable.gst`). Each is left out when unknown.
    @inline(__always)
    static func gstMembers(_ r: ErrorStatistics, into w: inout ByteWriter) {
        optional(",\"rms\":", r.rms, 3, &w)
        optional(",\"major\":", r.semiMajor, 3, &w)
        optional(",\"minor\":", r.semiMinor, 3, &w)
        optional(",\"orient\":", bearing: r.orientation, 3, &w)
        optional(",\"lat\":", r.latitudeError, 3, &w)
        optional(",\"lon\":", r.longitudeError, 3, &w)
        optional(",\"alt\":", r.altitudeError, 3, &w)
    }

    /// TPV's marine members (`GPSDReportTable.tpvMarine`). Each is left out when unknown.
    @inline(__always)
    static func tpvMarineMembers(_ r: MarineData, into w: inout ByteWriter) {
        optional(",\"depth\":", r.depth, 3, &w)
        optional(",\"wanglem\":", bearing: r.magneticWindDirection, 1, &w)
        optional(",\"wangler\":", bearing: r.apparentWindAngle, 1, &w)
        optional(",\"wanglet\":", bearing: r.trueWindDirection, 1, &w)
        optional(",\"wspeedr\":", r.apparentWindSpeed, 1, &w)
        optional(",\"wspeedt\":", r.trueWindSpeed, 1, &w)
        optional(",\"wtemp\":", r.waterTemperature, 1, &w)
    }

    /// ATT's measurements (`GPSDReportTable.att`). Each is left out when unknown.
    @inline(__always)
    static func attMembers(_ r: Attitude, into w: inout ByteWriter) {
        optional(",\"heading\":", bearing: r.heading, 3, &w)
        optional(",\"mheading\":", bearing: r.magneticHeading, 3, &w)
        optional(",\"pitch\":", r.pitch, 2, &w)
        optional(",\"roll\":", r.roll, 2, &w)
        optional(",\"rot\":", r.rateOfTurn, 3, &w)
    }
}
