import NMEA
import Dispatch
import GPSLocation
import Synchronization

// MARK: - Sample values

extension Fix {
    /// A 3D fix at the seed's coordinates (Seoul), `second` seconds past noon on 2024-05-01.
    static func sample(second: Int = 0, latitude: Double = 37.6134436427887, longitude: Double = 126.926493082645,
                       mode: FixMode = .threeD) -> Fix {
        var fix = Fix()
        fix.timestamp = FixTime(date: CalendarDate(year: 2024, month: 5, day: 1),
                                time: TimeOfDay(hour: 12, minute: 0, second: second))
        fix.mode = mode
        fix.quality = mode >= .twoD ? .gps : nil
        fix.coordinate = Coordinate(latitude: latitude, longitude: longitude)
        fix.altitude = 38.5
        fix.speed = 1.25
        fix.satellitesUsed = 9
        return fix
    }

    /// An epoch in which the receiver had no position (`mode` 1, no coordinate).
    static func noFix(second: Int = 0) -> Fix {
        var fix = Fix()
        fix.timestamp = FixTime(date: CalendarDate(year: 2024, month: 5, day: 1),
                                time: TimeOfDay(hour: 12, minute: 0, second: second))
        fix.mode = .noFix
        fix.satellitesUsed = 2
        return fix
    }
}

extension SkyView {
    static var sample: SkyView {
        SkyView(satellites: [
            Satellite(id: SatelliteID(constellation: .gps, svid: 4), elevation: 45, azimuth: 120, snr: 40, used: true),
            Satellite(id: SatelliteID(constellation: .glonass, svid: 7), elevation: 12, azimuth: 300, snr: 22, used: false),
        ], dop: DilutionOfPrecision(position: 2.5, horizontal: 1.3, vertical: 2.1))
    }
}

/// Statistics of an empty run: what `.finished` carries in these tests.
let emptyStatistics = NMEAParser().statistics
