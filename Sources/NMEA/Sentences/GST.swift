/// GST — GNSS Pseudorange Error Statistics (NMEA 0183 §8.3.48).
///
/// `$--GST,hhmmss.ss,x.x,x.x,x.x,x.x,x.x,x.x,x.x*hh`: 1-sigma errors in metres.
public struct GST: Equatable, Sendable {
    public var time: TimeOfDay?
    public var rms: Double?
    public var semiMajor: Double?
    public var semiMinor: Double?
    public var orientation: Double?
    public var latitudeError: Double?
    public var longitudeError: Double?
    public var altitudeError: Double?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

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
