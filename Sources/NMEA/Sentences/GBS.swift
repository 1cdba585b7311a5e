/// GBS — GNSS Satellite Fault Detection (NMEA 0183 §8.3.39).
///
/// `$--GBS,hhmmss.ss,x.x,x.x,x.x,xx,x.x,x.x,x.x[,h,h]*hh`: expected 1-sigma errors in metres.
public struct GBS: Equatable, Sendable {
    public var time: TimeOfDay?
    public var latitudeError: Double?
    public var longitudeError: Double?
    public var altitudeError: Double?

    public init(_ s: Sentence) {
        var f = s.fields
        time = f.next().timeOfDay
        latitudeError = f.next().double
        longitudeError = f.next().double
        altitudeError = f.next().double
    }
}
