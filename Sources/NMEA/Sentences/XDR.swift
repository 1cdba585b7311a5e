/// XDR — Transducer Measurements (NMEA 0183 §8.3.97).
///
/// `$--XDR,a,x.x,a,c--c,…*hh`: any number of measurements, four fields each: the kind of
/// transducer (`A` angular displacement, `C` temperature, `P` pressure, …), the value, its
/// unit (`D` degrees for an angle) and the transducer's name. An attitude sensor names its
/// angles, and gpsd takes two of them: pitch (`PTCH` or `PITCH`) and roll (`ROLL`), in
/// degrees. Every other measurement is passed over.
///
///     $HCXDR,A,-0.8,D,PITCH,A,0.8,D,ROLL,G,122,,MAGX,G,1838,,MAGY*…
public struct XDR: Equatable, Sendable {
    /// The angle named `PTCH` or `PITCH`, degrees, bow up positive, −90 to 90
    /// (``Bounds/pitch``); the last such one when several are.
    public var pitch: Double?
    /// The angle named `ROLL`, degrees, starboard down positive, −180 to 180 (``Bounds/roll``).
    public var roll: Double?
    /// How many measurements the sentence held, read or passed over.
    public var measurements = 0
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of an XDR from any talker (`HCXDR`, `IIXDR`, …); the caller has matched
    /// the address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        while !f.isAtEnd {
            let type = f.next(), value = f.next(), unit = f.next(), name = f.next()
            measurements += 1
            // An angle in degrees (a unit left empty taken as degrees, the only one defined).
            guard type.letter == 0x41, unit.isEmpty || unit.letter == 0x44 else { continue } // A, D
            if name.spells("PTCH") || name.spells("PITCH") {
                pitch = f.checked(value.double, in: Bounds.pitch) ?? pitch
            } else if name.spells("ROLL") {
                roll = f.checked(value.double, in: Bounds.roll) ?? roll
            }
        }
        outOfRange = f.outOfRange
    }
}

extension Field {
    /// Whether the field's text is exactly `word`.
    fileprivate func spells(_ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let w = word.utf8Start
        for i in 0..<bytes.count where bytes[i] != w[i] { return false }
        return true
    }
}

extension XDR: EpochInput {
    public static var address: StaticString { "XDR" }

    var facts: EpochAssembler.Facts { .instrument() }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if let pitch { epoch.attitude.pitch = pitch }
        if let roll { epoch.attitude.roll = roll }
    }
}
