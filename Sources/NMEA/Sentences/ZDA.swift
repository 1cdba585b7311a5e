/// ZDA — Time and Date (NMEA 0183 §8.3.99): `$--ZDA,hhmmss.ss,dd,mm,yyyy,zh,zm*hh`.
/// The only standard source of a four-digit year.
public struct ZDA: Equatable, Sendable {
    /// Field 1, the UTC time of day; nil when empty or not a time of day (counted in ``outOfRange``).
    public var time: TimeOfDay?
    /// Fields 2–4, the UTC date with its four-digit year, 1980…2179 (``Bounds/year``); nil when any
    /// of the three is empty or the date does not exist (counted in ``outOfRange``). The local zone
    /// (fields 5 and 6) is not read.
    public var date: CalendarDate?
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of a ZDA from any talker (`GPZDA`, `GNZDA`, …); the caller has matched
    /// the address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside ``Bounds`` is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        time = f.time()
        let day = f.next(), month = f.next()
        let year = f.integer(in: Bounds.year)
        if let d = day.integer, let m = month.integer, let year {
            date = CalendarDate(year: year, month: m, day: d)
            if date == nil { f.reject(day) }
        }
        outOfRange = f.outOfRange
    }
}

extension ZDA: EpochInput {
    public static var address: StaticString { "ZDA" }

    var facts: EpochAssembler.Facts {
        EpochAssembler.Facts(time: time)
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if let d = date { epoch.date = d }
    }
}
