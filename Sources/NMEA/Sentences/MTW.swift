/// MTW — Mean Temperature of Water (NMEA 0183 §8.3.55).
///
/// `$--MTW,x.x,C*hh`: the water's temperature in degrees Celsius.
public struct MTW: Equatable, Sendable {
    /// Field 1, degrees Celsius, −10 to 100 (``Bounds/waterTemperature``); nil when field 2
    /// is not `C`, the only unit defined.
    public var temperature: Double?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of an MTW from any talker (`YXMTW`, `SDMTW`, …); the caller has
    /// matched the address, as ``SentenceTable/decode(_:)`` does. A field that is empty,
    /// malformed or outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range),
    /// never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        let value = f.next(), unit = f.next()
        temperature = unit.letter == 0x43 ? f.checked(value.double, in: Bounds.waterTemperature) : nil // C
        outOfRange = f.outOfRange
    }
}

extension MTW: EpochInput {
    public static var address: StaticString { "MTW" }

    var facts: EpochAssembler.Facts { .instrument() }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if let temperature { epoch.marine.waterTemperature = temperature }
    }
}
