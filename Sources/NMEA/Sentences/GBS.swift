/// GBS — GNSS Satellite Fault Detection (NMEA 0183 §8.3.39).
///
/// `$--GBS,hhmmss.ss,x.x,x.x,x.x,xx,x.x,x.x,x.x[,h,h]*hh`: expected 1-sigma errors in metres.
public struct GBS: Equatable, Sendable {
    public var time: TimeOfDay?
    public var latitudeError: Double?
    public var longitudeError: Double?
    public var altitudeError: Double?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

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
    }
}
