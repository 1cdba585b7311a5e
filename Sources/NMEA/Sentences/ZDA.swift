/// ZDA — Time and Date (NMEA 0183 §8.3.99): `$--ZDA,hhmmss.ss,dd,mm,yyyy,zh,zm*hh`.
/// The only standard source of a four-digit year.
public struct ZDA: Equatable, Sendable {
    public var time: TimeOfDay?
    public var date: CalendarDate?

    public init(_ s: Sentence) {
        var f = s.fields
        time = f.next().timeOfDay
        let day = f.next().integer, month = f.next().integer, year = f.next().integer
        if let day, let month, let year, year >= 1980 {
            date = CalendarDate(year: year, month: month, day: day)
        }
    }
}
