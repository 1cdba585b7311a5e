/// GST — GNSS Pseudorange Error Statistics (NMEA 0183 §8.3.48).
///
/// `$--GST,hhmmss.ss,x.x,x.x,x.x,x.x,x.x,x.x,x.x*hh`: 1-sigma errors in metres.
public struct GST: Equatable, Sendable {
    /// Field 1, the UTC time of the solution the statistics describe; nil when empty or not a time of
    /// day (counted in ``outOfRange``).
    public var time: TimeOfDay?
    /// Field 2, the RMS of the standard deviations of the range inputs, in metres,
    /// 0…10 000 000 (``Bounds/accuracy``).
    public var rms: Double?
    /// Field 3, the standard deviation of the error ellipse's semi-major axis, in metres,
    /// 0…10 000 000 (``Bounds/accuracy``).
    public var semiMajor: Double?
    /// Field 4, the standard deviation of the error ellipse's semi-minor axis, in metres,
    /// 0…10 000 000 (``Bounds/accuracy``).
    public var semiMinor: Double?
    /// Field 5, the orientation of the semi-major axis in degrees from true north, −180 up to 360
    /// (``Bounds/orientation``: some receivers write it from −180).
    public var orientation: Double?
    /// Field 6, the standard deviation of the latitude error, in metres, 0…10 000 000
    /// (``Bounds/accuracy``).
    public var latitudeError: Double?
    /// Field 7, the standard deviation of the longitude error, in metres, 0…10 000 000
    /// (``Bounds/accuracy``).
    public var longitudeError: Double?
    /// Field 8, the standard deviation of the altitude error, in metres, 0…10 000 000
    /// (``Bounds/accuracy``).
    public var altitudeError: Double?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of a GST from any talker (`GPGST`, `GNGST`, …); the caller has matched
    /// the address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        time = f.time()
        rms = f.double(in: Bounds.accuracy)
        semiMajor = f.double(in: Bounds.accuracy)
        semiMinor = f.double(in: Bounds.accuracy)
        orientation = f.double(in: Bounds.orientation)
        latitudeError = f.double(in: Bounds.accuracy)
        longitudeError = f.double(in: Bounds.accuracy)
        altitudeError = f.double(in: Bounds.accuracy)
        outOfRange = f.outOfRange
    }
}

extension GST: EpochInput {
    public static var address: StaticString { "GST" }

    var facts: EpochAssembler.Facts {
        EpochAssembler.Facts(time: time)
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        epoch.latitudeError = latitudeError
        epoch.longitudeError = longitudeError
        epoch.altitudeError = altitudeError
        epoch.errorStatistics = ErrorStatistics(
            rms: rms, semiMajor: semiMajor, semiMinor: semiMinor, orientation: orientation,
            latitudeError: latitudeError, longitudeError: longitudeError, altitudeError: altitudeError)
    }
}
