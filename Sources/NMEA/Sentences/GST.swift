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

    public init(_ s: Sentence) {
        var f = s.fields
        time = f.next().timeOfDay
        rms = f.next().double
        semiMajor = f.next().double
        semiMinor = f.next().double
        orientation = f.next().double
        latitudeError = f.next().double
        longitudeError = f.next().double
        altitudeError = f.next().double
    }
}
