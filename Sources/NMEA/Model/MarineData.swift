/// What a boat's other instruments on the receiver's wire measured in one epoch: the depth
/// sounder (DBT, DPT), the water thermometer (MTW) and the wind instrument (MWV, MWD). gpsd
/// reports these as members of its TPV (`depth`, `wtemp`, `wangler`, `wspeedr`, `wanglet`,
/// `wanglem`, `wspeedt`).
///
/// Each member is the instrument's reading of this epoch, or of the epoch before until it
/// speaks again (a sounder's sentence often comes after the receiver's fix is out): nil when
/// neither epoch had one. Metres, metres per second, degrees and degrees Celsius.
public struct MarineData: Hashable, Codable, Sendable {
    /// Metres of water below the transducer, 0 to 11 000 (DBT; DPT's first field where no DBT
    /// said it). gpsd's `depth`.
    @Unknowable public var depth: Double?
    /// Metres from the transducer to the waterline (positive) or to the keel (negative), −100
    /// to 100 (DPT): ``depth`` plus this is the water's depth, or what is left under the keel.
    @Unknowable public var transducerOffset: Double?
    /// Degrees Celsius of the water, −10 to 100 (MTW). gpsd's `wtemp`.
    @Unknowable public var waterTemperature: Double?
    /// Degrees clockwise from the bow that the apparent wind (as felt on board) blows from,
    /// 0 up to 360 (MWV relative). gpsd's `wangler`.
    @Unknowable public var apparentWindAngle: Double?
    /// Metres per second of the apparent wind (MWV relative). gpsd's `wspeedr`.
    @Unknowable public var apparentWindSpeed: Double?
    /// Degrees clockwise from the bow that the true wind (the boat's own motion taken out)
    /// blows from, 0 up to 360 (MWV theoretical).
    @Unknowable public var trueWindAngle: Double?
    /// Degrees true, clockwise from north, that the true wind blows from, 0 up to 360 (MWD).
    /// gpsd's `wanglet`.
    @Unknowable public var trueWindDirection: Double?
    /// Degrees magnetic that the true wind blows from, 0 up to 360 (MWD). gpsd's `wanglem`.
    @Unknowable public var magneticWindDirection: Double?
    /// Metres per second of the true wind (MWD; MWV theoretical where no MWD said it). gpsd's
    /// `wspeedt`.
    @Unknowable public var trueWindSpeed: Double?

    /// Marine data with the members given, every other one unknown; not checked against
    /// ``Bounds``: for tests, and for sources that are not NMEA.
    public init(depth: Double? = nil, transducerOffset: Double? = nil, waterTemperature: Double? = nil,
                apparentWindAngle: Double? = nil, apparentWindSpeed: Double? = nil, trueWindAngle: Double? = nil,
                trueWindDirection: Double? = nil, magneticWindDirection: Double? = nil, trueWindSpeed: Double? = nil) {
        self.depth = depth
        self.transducerOffset = transducerOffset
        self.waterTemperature = waterTemperature
        self.apparentWindAngle = apparentWindAngle
        self.apparentWindSpeed = apparentWindSpeed
        self.trueWindAngle = trueWindAngle
        self.trueWindDirection = trueWindDirection
        self.magneticWindDirection = magneticWindDirection
        self.trueWindSpeed = trueWindSpeed
    }

    /// Whether no member is known: such data is none (``Fix/marine`` is nil).
    public var isEmpty: Bool {
        depth == nil && transducerOffset == nil && waterTemperature == nil && apparentWindAngle == nil
            && apparentWindSpeed == nil && trueWindAngle == nil && trueWindDirection == nil
            && magneticWindDirection == nil && trueWindSpeed == nil
    }
}
