/// PGRME — Garmin estimated error (Garmin proprietary).
///
/// `$PGRME,h.h,M,v.v,M,e.e,M*hh`: horizontal, vertical and spherical position error, metres.
public struct PGRME: Equatable, Sendable {
    /// Field 1, the estimated horizontal position error in metres, 0…10 000 000 (``Bounds/accuracy``).
    public var horizontalError: Double?
    /// Field 3, the estimated vertical position error in metres, 0…10 000 000 (``Bounds/accuracy``).
    public var verticalError: Double?
    /// Field 5, the estimated spherical (3D) position error in metres, 0…10 000 000
    /// (``Bounds/accuracy``).
    public var sphericalError: Double?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of a `$PGRME` sentence; the caller has matched
    /// the address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        horizontalError = f.double(in: Bounds.accuracy)
        f.skip(1)
        verticalError = f.double(in: Bounds.accuracy)
        f.skip(1)
        sphericalError = f.double(in: Bounds.accuracy)
        outOfRange = f.outOfRange
    }
}

extension PGRME: EpochInput {
    public static var address: StaticString { "PGRME" }

    var facts: EpochAssembler.Facts {
        EpochAssembler.Facts()
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        epoch.horizontalAccuracy = epoch.horizontalAccuracy ?? horizontalError
        epoch.verticalAccuracy = epoch.verticalAccuracy ?? verticalError
        epoch.sphericalError = sphericalError
        // gpsd reads Garmin's figures as CEP50 and scales them to its 95 % (2.45 σ over
        // 1.18 σ), the horizontal split evenly between the two axes.
        let scale = 2.45 / 1.18
        epoch.garminErrors = ErrorEstimates(
            latitude: horizontalError.map { $0 * scale / 2.0.squareRoot() },
            longitude: horizontalError.map { $0 * scale / 2.0.squareRoot() },
            vertical: verticalError.map { $0 * scale }, spherical: sphericalError.map { $0 * scale })
    }
}
