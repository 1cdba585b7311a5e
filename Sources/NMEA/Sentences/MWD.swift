/// MWD — Wind Direction and Speed (NMEA 0183 §8.3.59).
///
/// `$--MWD,x.x,T,x.x,M,x.x,N,x.x,M*hh`: the direction the true wind blows from, in degrees
/// true and magnetic, and its speed in knots and in metres per second.
public struct MWD: Equatable, Sendable {
    /// Fields 1 and 2, degrees true, 0 up to 360 (``Bounds/heading``; 360 is read as 0); nil
    /// when field 2 is not `T`.
    public var direction: Double?
    /// Fields 3 and 4, degrees magnetic, 0 up to 360; nil when field 4 is not `M`.
    public var magneticDirection: Double?
    /// Metres per second, 0 to 150 (``Bounds/windSpeed``): fields 7 and 8 (`M`) as gpsd takes
    /// them, else fields 5 and 6 in knots (`N`).
    public var speed: Double?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of an MWD from any talker (`WIMWD`, …); the caller has matched the
    /// address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        let trueDirection = f.heading(), trueUnit = f.next().letter
        direction = trueUnit == 0x54 ? trueDirection : nil // T
        let magnetic = f.heading(), magneticUnit = f.next().letter
        magneticDirection = magneticUnit == 0x4D ? magnetic : nil // M
        let knots = f.next().double, knotsUnit = f.next().letter
        let metres = f.next().double, metresUnit = f.next().letter
        if metres != nil, metresUnit == 0x4D {
            speed = f.windSpeed(metres, unit: metresUnit)
        } else {
            speed = f.windSpeed(knots, unit: knotsUnit == 0x4E ? knotsUnit : nil)
        }
        outOfRange = f.outOfRange
    }
}

extension MWD: EpochInput {
    public static var address: StaticString { "MWD" }

    var facts: EpochAssembler.Facts { .instrument() }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if let direction { epoch.marine.trueWindDirection = direction }
        if let magneticDirection { epoch.marine.magneticWindDirection = magneticDirection }
        if let speed { epoch.marine.trueWindSpeed = speed }
    }
}
