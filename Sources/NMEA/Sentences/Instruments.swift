// What the sentences of the instruments that share a boat's wire with its receiver have in
// common (HDT, THS, HDG, HDM, ROT, XDR, DBT, DPT, MTW, MWV, MWD): they come at each
// instrument's own rate, outside the receiver's cycle, and carry a unit letter beside most
// numbers.

extension EpochAssembler.Facts {
    /// An instrument's sentence: never a cycle's start or end (`EpochAssembler.consumeInstrument`).
    /// `variant` tells apart sentences of one type that say different things (MWV's relative
    /// and true wind), so that one is not taken for a repeat of the other.
    static func instrument(variant: Int = 0) -> Self {
        var facts = Self()
        facts.outsideCycle = true
        facts.signalID = variant
        return facts
    }
}

extension Field {
    /// The field's one letter (a unit, a reference, a status); nil when empty or longer.
    var letter: UInt8? { bytes.count == 1 ? bytes[0] : nil }
}

extension FieldCursor {
    /// The next field as a heading or a direction within ``Bounds/heading``, 360 read as 0: nil
    /// when empty, malformed or out of range, and counted when out of range.
    @inline(__always)
    mutating func heading() -> Double? {
        double(in: Bounds.heading).map { $0 == 360 ? 0 : $0 }
    }

    /// A speed in `unit` (`K` km/h, `M` m/s, `N` knots, `S` statute miles per hour) as metres
    /// per second within ``Bounds/windSpeed``: nil for an unknown unit (not counted: no value
    /// was out of range) or a speed out of range (counted).
    mutating func windSpeed(_ value: Double?, unit: UInt8?) -> Double? {
        guard let value, let factor = Self.metresPerSecond(unit) else { return nil }
        return checked(value * factor, in: Bounds.windSpeed)
    }

    private static func metresPerSecond(_ unit: UInt8?) -> Double? {
        switch unit {
        case 0x4B: 1 / 3.6 // K
        case 0x4D: 1 // M
        case 0x4E: metresPerSecondPerKnot // N
        case 0x53: 0.447_04 // S: statute miles per hour
        default: nil
        }
    }
}

/// One fathom, exactly six feet.
let metresPerFathom = 1.8288

/// A direction `degrees` plus `offset` (either may be negative), brought back within 0 up to 360.
func bearing(_ degrees: Double, plus offset: Double) -> Double {
    let sum = degrees + offset
    return sum < 0 ? sum + 360 : sum >= 360 ? sum - 360 : sum
}

extension Attitude {
    /// Whether this states a member that `other` does not (nil states none).
    func adds(to other: Attitude?) -> Bool {
        guard let other else { return !isEmpty }
        return (heading != nil && other.heading == nil) || (magneticHeading != nil && other.magneticHeading == nil)
            || (pitch != nil && other.pitch == nil) || (roll != nil && other.roll == nil)
            || (rateOfTurn != nil && other.rateOfTurn == nil)
    }
}

extension MarineData {
    /// These readings, each one not stated taken from `earlier`.
    func filled(from earlier: MarineData) -> MarineData {
        guard !earlier.isEmpty else { return self }
        var m = self
        if m.depth == nil { m.depth = earlier.depth }
        if m.transducerOffset == nil { m.transducerOffset = earlier.transducerOffset }
        if m.waterTemperature == nil { m.waterTemperature = earlier.waterTemperature }
        if m.apparentWindAngle == nil { m.apparentWindAngle = earlier.apparentWindAngle }
        if m.apparentWindSpeed == nil { m.apparentWindSpeed = earlier.apparentWindSpeed }
        if m.trueWindAngle == nil { m.trueWindAngle = earlier.trueWindAngle }
        if m.trueWindDirection == nil { m.trueWindDirection = earlier.trueWindDirection }
        if m.magneticWindDirection == nil { m.magneticWindDirection = earlier.magneticWindDirection }
        if m.trueWindSpeed == nil { m.trueWindSpeed = earlier.trueWindSpeed }
        return m
    }
}
