/// Which way a vessel points, how it lies and how fast it turns, as the instruments on the
/// receiver's wire said it in one epoch: a heading sensor or a dual-antenna receiver (HDT,
/// THS), a magnetic compass (HDG, HDM), a rate-of-turn gyro (ROT), an inclinometer (XDR).
/// gpsd reports these in its `ATT` class.
///
/// Each member is nil when no instrument said it this epoch. Degrees throughout.
public struct Attitude: Hashable, Codable, Sendable {
    /// Degrees true, clockwise from north, 0 up to 360 (HDT, THS): where the bow points, which
    /// is not where the vessel goes (``Fix/course``) in a current or a crosswind. gpsd's
    /// `heading`.
    @Unknowable public var heading: Double?
    /// Degrees magnetic, 0 up to 360 (HDM; HDG's sensor reading with its deviation applied).
    /// gpsd's `mheading`.
    @Unknowable public var magneticHeading: Double?
    /// Degrees, bow up positive, −90 to 90 (XDR `PTCH` or `PITCH`). gpsd's `pitch`.
    @Unknowable public var pitch: Double?
    /// Degrees, starboard down positive, −180 to 180 (XDR `ROLL`). gpsd's `roll`.
    @Unknowable public var roll: Double?
    /// Degrees per minute, the bow turning to starboard positive (ROT). gpsd's `rot`.
    @Unknowable public var rateOfTurn: Double?

    /// An attitude with the members given, every other one unknown; not checked against
    /// ``Bounds``: for tests, and for sources that are not NMEA.
    public init(heading: Double? = nil, magneticHeading: Double? = nil, pitch: Double? = nil, roll: Double? = nil,
                rateOfTurn: Double? = nil) {
        self.heading = heading
        self.magneticHeading = magneticHeading
        self.pitch = pitch
        self.roll = roll
        self.rateOfTurn = rateOfTurn
    }

    /// Whether no member is known: such an attitude is no attitude (``Fix/attitude`` is nil).
    public var isEmpty: Bool {
        heading == nil && magneticHeading == nil && pitch == nil && roll == nil && rateOfTurn == nil
    }
}
