public import NMEA

/// The measurements of each gpsd report class, one row each, in the order gpsd writes them.
///
/// A new measurement is one row here (and the sentence that decodes it): the writer's
/// generated members (`GPSDJSON+Members.swift`), `GpsdJSONReports`' reading, the fuzzer's
/// read-back and the README's table follow. `ReportTableTests` fails while the generated file
/// or the README differs from what these rows make, and
/// `GPSFIX_REGENERATE=1 swift test --filter ReportTableTests` writes both again.
///
/// What is not a measurement (`class`, `device`, `mode`, `status`, `time`, a SKY's counts, a
/// satellite's numbers and `used`) is written by `GPSDJSON` itself.
public enum GPSDReportTable {
    /// TPV, written once the fix is 2D or 3D.
    public static let tpv: [ReportMember<Fix>] = [
        ReportMember("ept", \.estimatedErrors.time, path: "estimatedErrors.time", decimals: 3,
                     range: ValueRange(Bounds.accuracy), unit: "s", "time error (gpsd's constant 0.005 s)"),
        latitude,
        longitude,
        ReportMember("altHAE", \.ellipsoidalAltitude, path: "ellipsoidalAltitude", decimals: 3,
                     range: ValueRange(Bounds.altitude), unit: "m", "height above the WGS 84 ellipsoid"),
        ReportMember("altMSL", \.altitude, path: "altitude", decimals: 3,
                     range: ValueRange(Bounds.altitude), unit: "m", "altitude above mean sea level"),
        ReportMember("alt", \.altitude, path: "altitude", decimals: 3,
                     range: ValueRange(Bounds.altitude), unit: "m", "altMSL under gpsd's older name", repeats: "altMSL"),
        ReportMember("epx", \.estimatedErrors.longitude, path: "estimatedErrors.longitude", decimals: 3,
                     range: ValueRange(Bounds.accuracy), unit: "m", "longitude error, gpsd's estimate: XDOP × 15 m"),
        ReportMember("epy", \.estimatedErrors.latitude, path: "estimatedErrors.latitude", decimals: 3,
                     range: ValueRange(Bounds.accuracy), unit: "m", "latitude error, gpsd's estimate: YDOP × 15 m"),
        ReportMember("epv", \.estimatedErrors.vertical, path: "estimatedErrors.vertical", decimals: 3,
                     range: ValueRange(Bounds.accuracy), unit: "m", "vertical error, gpsd's estimate: VDOP × 23 m"),
        ReportMember("track", \.course, path: "course", decimals: 4,
                     range: ValueRange(Bounds.course), bearing: true, unit: "°", "course over ground, true"),
        ReportMember("magtrack", \.gpsdMagneticTrack, path: "gpsdMagneticTrack", decimals: 4,
                     range: ValueRange(Bounds.course), bearing: true, unit: "°",
                     "track plus magvar, as gpsd computes it (derived: not read back)"),
        ReportMember("magvar", \.magneticVariation, path: "magneticVariation", decimals: 1,
                     range: ValueRange(-Bounds.magneticVariation.upperBound...Bounds.magneticVariation.upperBound),
                     unit: "°", "magnetic variation, east positive: the receiver's, else the WMM's"),
        ReportMember("speed", \.speed, path: "speed", decimals: 3,
                     range: ValueRange(Bounds.speed), unit: "m/s", "speed over ground"),
        ReportMember("climb", \.climb, path: "climb", decimals: 3,
                     range: ValueRange(Bounds.verticalSpeed), unit: "m/s", "climb, up positive"),
        ReportMember("epd", \.estimatedErrors.course, path: "estimatedErrors.course", decimals: 4,
                     range: ValueRange(0...180), unit: "°", "course error, from successive fixes"),
        ReportMember("eps", \.estimatedErrors.speed, path: "estimatedErrors.speed", decimals: 2,
                     range: ValueRange(Bounds.accuracy), unit: "m/s", "speed error, from successive fixes"),
        ReportMember("epc", \.estimatedErrors.climb, path: "estimatedErrors.climb", decimals: 2,
                     range: ValueRange(Bounds.accuracy), unit: "m/s", "climb error, from successive fixes"),
        ReportMember("geoidSep", \.geoidSeparation, path: "geoidSeparation", decimals: 3,
                     range: ValueRange(Bounds.geoidSeparation), unit: "m", "geoid above the ellipsoid"),
        ReportMember("eph", \.estimatedErrors.horizontal, path: "estimatedErrors.horizontal", decimals: 3,
                     range: ValueRange(Bounds.accuracy), unit: "m", "horizontal error, gpsd's estimate: HDOP × 19 m"),
        ReportMember("sep", \.estimatedErrors.spherical, path: "estimatedErrors.spherical", decimals: 3,
                     range: ValueRange(Bounds.accuracy), unit: "m", "spherical error, gpsd's estimate: PDOP × 19 m"),
    ]

    /// TPV's marine members, after the rest, from `Fix.marine` (an instrument beside the
    /// receiver: DBT, DPT, MTW, MWV, MWD), as gpsd 3.22 writes them: `depth` to 3 decimals,
    /// the wind to 1.
    public static let tpvMarine: [ReportMember<MarineData>] = [
        ReportMember("depth", \.depth, path: "depth", decimals: 3,
                     range: ValueRange(Bounds.depth), unit: "m", "depth below the transducer (DBT, DPT)"),
        ReportMember("wanglem", \.magneticWindDirection, path: "magneticWindDirection", decimals: 1,
                     range: ValueRange(Bounds.course), bearing: true, unit: "°", "true wind's direction, magnetic (MWD)"),
        ReportMember("wangler", \.apparentWindAngle, path: "apparentWindAngle", decimals: 1,
                     range: ValueRange(Bounds.course), bearing: true, unit: "°", "apparent wind's angle from the bow (MWV)"),
        ReportMember("wanglet", \.trueWindDirection, path: "trueWindDirection", decimals: 1,
                     range: ValueRange(Bounds.course), bearing: true, unit: "°", "true wind's direction, true (MWD)"),
        ReportMember("wspeedr", \.apparentWindSpeed, path: "apparentWindSpeed", decimals: 1,
                     range: ValueRange(Bounds.windSpeed), unit: "m/s", "apparent wind's speed (MWV)"),
        ReportMember("wspeedt", \.trueWindSpeed, path: "trueWindSpeed", decimals: 1,
                     range: ValueRange(Bounds.windSpeed), unit: "m/s", "true wind's speed (MWD, MWV)"),
        ReportMember("wtemp", \.waterTemperature, path: "waterTemperature", decimals: 1,
                     range: ValueRange(Bounds.waterTemperature), unit: "°C", "water temperature (MTW)"),
    ]

    /// ATT: the attitude of `Fix.attitude` (HDT, THS, HDG, HDM, ROT, XDR), written after its
    /// epoch's TPV; precision as gpsd 3.22 writes `heading` and `pitch`.
    public static let att: [ReportMember<Attitude>] = [
        ReportMember("heading", \.heading, path: "heading", decimals: 3,
                     range: ValueRange(Bounds.course), bearing: true, unit: "°", "heading, true (HDT, THS)"),
        ReportMember("mheading", \.magneticHeading, path: "magneticHeading", decimals: 3,
                     range: ValueRange(Bounds.course), bearing: true, unit: "°", "heading, magnetic (HDM, HDG)"),
        ReportMember("pitch", \.pitch, path: "pitch", decimals: 2,
                     range: ValueRange(Bounds.pitch), unit: "°", "pitch, bow up positive (XDR)"),
        ReportMember("roll", \.roll, path: "roll", decimals: 2,
                     range: ValueRange(Bounds.roll), unit: "°", "roll, starboard down positive (XDR)"),
        ReportMember("rot", \.rateOfTurn, path: "rateOfTurn", decimals: 3,
                     range: ValueRange(Bounds.rateOfTurn), unit: "°/min", "rate of turn, to starboard positive (ROT)"),
    ]

    /// TPV's latitude: a reader needs it and `longitude` for a fix.
    public static let latitude = ReportMember<Fix>("lat", \.coordinate?.latitude, path: "coordinate?.latitude", decimals: 9,
                                                   range: ValueRange(Bounds.latitude), unit: "°", "latitude, north positive")
    /// TPV's longitude.
    public static let longitude = ReportMember<Fix>("lon", \.coordinate?.longitude, path: "coordinate?.longitude", decimals: 9,
                                                    range: ValueRange(Bounds.longitude), unit: "°", "longitude, east positive")

    /// SKY's own measurements, before its satellites.
    public static let sky: [ReportMember<SkyView>] = [
        ReportMember("xdop", \.dop.longitude, path: "dop.longitude", decimals: 2,
                     range: ValueRange(Bounds.dop), unit: "", "longitude (east–west) dilution of precision"),
        ReportMember("ydop", \.dop.latitude, path: "dop.latitude", decimals: 2,
                     range: ValueRange(Bounds.dop), unit: "", "latitude (north–south) dilution of precision"),
        ReportMember("vdop", \.dop.vertical, path: "dop.vertical", decimals: 2,
                     range: ValueRange(Bounds.dop), unit: "", "vertical dilution of precision"),
        ReportMember("tdop", \.dop.time, path: "dop.time", decimals: 2,
                     range: ValueRange(Bounds.dop), unit: "", "time dilution of precision"),
        ReportMember("hdop", \.dop.horizontal, path: "dop.horizontal", decimals: 2,
                     range: ValueRange(Bounds.dop), unit: "", "horizontal dilution of precision"),
        ReportMember("gdop", \.dop.geometric, path: "dop.geometric", decimals: 2,
                     range: ValueRange(Bounds.dop), unit: "", "geometric (position and time) dilution of precision"),
        ReportMember("pdop", \.dop.position, path: "dop.position", decimals: 2,
                     range: ValueRange(Bounds.dop), unit: "", "position dilution of precision"),
    ]

    /// Each entry of a SKY's `satellites`, after its `PRN`.
    public static let satellite: [ReportMember<Satellite>] = [
        ReportMember("el", \.elevation, path: "elevation", decimals: 1,
                     range: ValueRange(Bounds.elevation), unit: "°", "elevation above the horizon"),
        ReportMember("az", \.azimuth, path: "azimuth", decimals: 1,
                     range: ValueRange(Bounds.azimuth), bearing: true, unit: "°", "azimuth, true"),
        ReportMember("ss", \.snr, path: "snr", decimals: 1,
                     range: ValueRange(Bounds.snr), unit: "dB-Hz", "signal to noise (0: not tracked)", zeroIsUnknown: true),
    ]

    /// GST: the receiver's error statistics (`Fix.errorStatistics`).
    public static let gst: [ReportMember<ErrorStatistics>] = [
        ReportMember("rms", \.rms, path: "rms", decimals: 3,
                     range: ValueRange(Bounds.accuracy), unit: "m", "RMS of the ranges' standard deviations"),
        ReportMember("major", \.semiMajor, path: "semiMajor", decimals: 3,
                     range: ValueRange(Bounds.accuracy), unit: "m", "error ellipse's semi-major axis"),
        ReportMember("minor", \.semiMinor, path: "semiMinor", decimals: 3,
                     range: ValueRange(Bounds.accuracy), unit: "m", "error ellipse's semi-minor axis"),
        ReportMember("orient", \.orientation, path: "orientation", decimals: 3,
                     range: ValueRange(Bounds.orientation), bearing: true, unit: "°", "major axis's direction from true north"),
        ReportMember("lat", \.latitudeError, path: "latitudeError", decimals: 3,
                     range: ValueRange(Bounds.accuracy), unit: "m", "latitude error, one sigma"),
        ReportMember("lon", \.longitudeError, path: "longitudeError", decimals: 3,
                     range: ValueRange(Bounds.accuracy), unit: "m", "longitude error, one sigma"),
        ReportMember("alt", \.altitudeError, path: "altitudeError", decimals: 3,
                     range: ValueRange(Bounds.accuracy), unit: "m", "altitude error, one sigma"),
    ]

    /// The classes as the README lists them: a class's name, and its rows' names, units,
    /// precision, ranges and meanings (its records differ, so each is listed in its words).
    public static let classes: [(name: String, rows: [ReportRowText])] = [
        ("TPV", tpv.map(ReportRowText.init) + tpvMarine.map(ReportRowText.init)),
        ("SKY", sky.map(ReportRowText.init)),
        ("SKY satellites[]", satellite.map(ReportRowText.init)),
        ("GST", gst.map(ReportRowText.init)),
        ("ATT", att.map(ReportRowText.init)),
    ]
}

/// A row of any class, in the words the README shows it in.
public struct ReportRowText: Sendable {
    /// The member's name (`ReportMember.name`).
    public let name: String
    /// Its Swift path in the record (`ReportMember.path`).
    public let path: String
    /// Digits printed after the point.
    public let decimals: Int
    /// What a reader accepts.
    public let range: ValueRange
    /// A direction printed 0 where it rounds to 360.
    public let isBearing: Bool
    /// Its unit ("" for a ratio).
    public let unit: String
    /// What it is.
    public let meaning: String

    /// The row's words, whatever its record.
    public init<Record>(_ member: ReportMember<Record>) {
        name = member.name
        path = member.path
        decimals = member.decimals
        range = member.range
        isBearing = member.isBearing
        unit = member.unit
        meaning = member.meaning
    }
}
