/// PGRME — Garmin estimated error (Garmin proprietary).
///
/// `$PGRME,h.h,M,v.v,M,e.e,M*hh`: horizontal, vertical and spherical position error, metres.
public struct PGRME: Equatable, Sendable {
    public var horizontalError: Double?
    public var verticalError: Double?
    public var sphericalError: Double?

    public init(_ s: Sentence) {
        var f = s.fields
        horizontalError = f.next().double
        f.skip(1)
        verticalError = f.next().double
        f.skip(1)
        sphericalError = f.next().double
    }
}
