/// GBS — GNSS Satellite Fault Detection (NMEA 0183 §8.3.39).
///
/// `$--GBS,hhmmss.ss,x.x,x.x,x.x,xx,x.x,x.x,x.x[,h,h]*hh`: expected 1-sigma errors in metres.
public struct GBS: Equatable, Sendable {
    /// Field 1, the UTC time of the solution checked; nil when empty or not a time of day (counted in
    /// ``outOfRange``).
    public var time: TimeOfDay?
    /// Field 2, the expected error in latitude, in metres, 0…10 000 000 (``Bounds/accuracy``).
    public var latitudeError: Double?
    /// Field 3, the expected error in longitude, in metres, 0…10 000 000 (``Bounds/accuracy``).
    public var longitudeError: Double?
    /// Field 4, the expected error in altitude, in metres, 0…10 000 000 (``Bounds/accuracy``).
    public var altitudeError: Double?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of a GBS from any talker (`GPGBS`, `GNGBS`, …); the caller has matched
    /// the address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        time = f.time()
        latitudeError = f.double(in: Bounds.accuracy)
        longitudeError = f.double(in: Bounds.accuracy)
        altitudeError = f.double(in: Bounds.accuracy)
        outOfRange = f.outOfRange
    }
}

extension GBS: EpochInput {
    public static var address: StaticString { "GBS" }

    var facts: EpochAssembler.Facts {
        EpochAssembler.Facts(time: time)
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        epoch.latitudeError = epoch.latitudeError ?? latitudeError
        epoch.longitudeError = epoch.longitudeError ?? longitudeError
        epoch.altitudeError = epoch.altitudeError ?? altitudeError
        // gpsd puts a GBS's errors in its TPV (a GST's it does not): so do gpsd's estimates.
        epoch.faultErrors = ErrorEstimates(latitude: latitudeError, longitude: longitudeError, vertical: altitudeError)
    }
}
