/// The physical range of every value a sentence states. A received value outside its range is
/// unknown (nil), never passed on, and counted (`SentenceCounts.outOfRange`): a receiver, a
/// cable or a hand-made feed that says "course 857.7" has said nothing usable about course.
///
/// The README's table of ranges is this file; keep the two together.
public enum Bounds {
    /// Degrees north of the equator, south negative; minutes of a `ddmm.mm` angle must also be
    /// below 60.
    public static let latitude = -90.0...90.0
    /// Degrees east of Greenwich; minutes of a `dddmm.mm` angle must also be below 60.
    public static let longitude = -180.0...180.0
    /// Metres: from the deepest ocean floor to the orbits where NMEA receivers still fly.
    public static let altitude = -11_000.0...1_000_000.0
    /// Metres of the geoid above the ellipsoid: EGM96 spans about −107 to +86.
    public static let geoidSeparation = -200.0...200.0
    /// Metres per second over ground, or up: faster than anything near the Earth moves.
    public static let speed = 0.0...12_000.0
    /// Metres per second up (a climb) or, negative, down: as fast as ``speed`` allows either way.
    public static let verticalSpeed = -12_000.0...12_000.0
    /// Knots over ground (RMC, VTG): ``speed``'s 12 km/s, about 23 300 knots.
    public static let speedKnots = 0.0...(12_000.0 / metresPerSecondPerKnot)
    /// Kilometres per hour over ground (VTG, PUBX): ``speed``'s 12 km/s, 43 200 km/h.
    public static let speedKilometresPerHour = 0.0...(12_000.0 * 3.6)
    /// Degrees true, clockwise from north; 360 is written 0. Printed, a bearing that rounds
    /// to 360 is written 0 too (`ByteWriter.append(bearing:decimals:)`), so it stays in range.
    public static let course = 0.0..<360.0
    /// Degrees of magnetic variation, before its E/W sign.
    public static let magneticVariation = 0.0...180.0
    /// Dilutions of precision are ratios above zero; some receivers send 0 or 99.99 for
    /// "unknown" (0 is out of range, 99.99 passes as the very poor geometry it claims).
    /// Both ends lie on the two-decimal grid DOPs are printed with (gpsd JSON, GPX), so a value
    /// in range is in range as printed: 0.001 would print as 0.00 and 999.999 as 1000.00,
    /// which a reader (gpsfix's own, over MQTT) then refuses.
    public static let dop = 0.01...999.99
    /// Metres, one sigma (GST, GBS, PUBX, PGRME); u-blox reports up to 4 294 967 m before a fix.
    public static let accuracy = 0.0...10_000_000.0
    /// Degrees of an error ellipse's orientation, from true north; some receivers (SkyTraq)
    /// write it from −180, and gpsd passes that on as written.
    public static let orientation = -180.0..<360.0
    /// Satellites used in a solution or listed in view, and in one sky view: gpsd's
    /// MAXCHANNELS in 3.22 to 3.25 (140; 3.27 raised it to 184). libgps drops a whole SKY
    /// listing more than its own, so a sky view keeps its first 140 and counts the rest.
    public static let satellites = 0...140
    /// Degrees above the horizon.
    public static let elevation = -90.0...90.0
    /// Degrees true, as GSV writes them (000–359); checked as stored (a `Float`: 359.99999
    /// becomes 360.0 there, and is out of range).
    public static let azimuth = 0.0..<360.0
    /// Carrier-to-noise density, dB-Hz (GSV's two digits).
    public static let snr = 0.0...99.0
    /// Seconds since the last differential correction (GGA field 13, GNS field 11).
    public static let differentialAge = 0.0...10_000.0
    /// The ID of a differential reference station (GGA field 14): 0000–1023 by the standard.
    public static let differentialStation = 0...1023
    /// GGA's quality indicator (0 invalid … 8 simulator).
    public static let ggaQuality = 0...8
    /// GSV sentences per set and the part number; the standard allows 9, receivers with a
    /// crowded sky send more.
    public static let gsvParts = 1...31
    /// Minutes of arc a local datum lies from its reference (DTM), before its N/S or E/W:
    /// real datums differ by a kilometre or two, a tenth of this.
    public static let datumOffset = 0.0...60.0
    /// Metres a local datum's heights lie from its reference's (DTM).
    public static let datumAltitudeOffset = -10_000.0...10_000.0
    /// Range residuals, metres (GRS): what a satellite's measured range differs from the
    /// solution's by; the standard's field holds up to ±999.
    public static let rangeResidual = -1_000.0...1_000.0
    /// Four-digit years (ZDA). GPS time began in 1980; a two-digit year keeps its pivot
    /// (80–99 are 19xx, 00–79 are 20xx), so RMC dates fall in 1980–2079.
    public static let year = 1980...2179

    // The instruments that share a boat's NMEA wire with its receiver (HDT, THS, HDG, HDM,
    // ROT, XDR, DBT, DPT, MTW, MWV, MWD).

    /// Degrees of a heading or a wind's direction, clockwise from north or from the bow. 360
    /// is north as 0 is, and some compasses write it so: read as 0.
    public static let heading = 0.0...360.0
    /// Degrees per minute of a rate of turn (ROT), to starboard positive: ten turns a second,
    /// beyond any vehicle a heading sensor rides on.
    public static let rateOfTurn = -216_000.0...216_000.0
    /// Degrees of pitch, bow up positive (XDR).
    public static let pitch = -90.0...90.0
    /// Degrees of roll, starboard down positive (XDR).
    public static let roll = -180.0...180.0
    /// Metres of water below a transducer (DBT, DPT): to the deepest ocean floor.
    public static let depth = 0.0...11_000.0
    /// Metres between a depth transducer and the waterline (positive) or the keel (negative),
    /// DPT's offset: more than any ship's draught.
    public static let transducerOffset = -100.0...100.0
    /// Degrees Celsius of water (MTW): from brine colder than freezing to boiling.
    public static let waterTemperature = -10.0...100.0
    /// Metres per second of wind (MWV, MWD): above any gust measured (113 m/s).
    public static let windSpeed = 0.0...150.0
    /// Derived values are held to the same table: climb between two fixes (`verticalSpeed`),
    /// the ellipsoidal height as MSL plus separation (`altitude`), the horizontal error from
    /// its two components (`accuracy`). A derived value outside is unknown.
}

extension FieldCursor {
    /// The next field as a number within `bounds`: nil when empty, malformed or out of range,
    /// and counted when out of range.
    @inline(__always)
    public mutating func double<R: RangeExpression<Double>>(in bounds: R) -> Double? {
        checked(next().double, in: bounds)
    }

    /// The next field as a whole number within `bounds` (a receiver's `08.0` is 8): nil when
    /// empty, malformed, fractional or out of range, and counted when out of range.
    @inline(__always)
    public mutating func integer(in bounds: ClosedRange<Int>) -> Int? {
        checked(next().integer, in: bounds)
    }

    /// A value read or derived from this sentence, kept only within `bounds`.
    @inline(__always)
    public mutating func checked<T, R: RangeExpression<T>>(_ value: T?, in bounds: R) -> T? {
        guard let value else { return nil }
        guard bounds.contains(value) else {
            outOfRange &+= 1
            return nil
        }
        return value
    }

    /// Counts a field whose text was a value of the right shape but not a real one (minute 61,
    /// 30 February).
    @inline(__always)
    public mutating func reject(_ field: Field) {
        if !field.isEmpty { outOfRange &+= 1 }
    }
}
