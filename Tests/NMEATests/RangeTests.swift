import NMEA
import Testing

/// Every received number is checked against its physical range (`Bounds`): outside it, the
/// value is unknown and counted, and the rest of its sentence is kept.
@Suite("Values out of range")
struct RangeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var body: String
        /// Reads the value under test from the decoded sentence: nil when it was refused.
        var read: @Sendable (any SentenceType) -> Double?
        var testDescription: String { body }
    }

    private static func gga(_ s: any SentenceType) -> GGA? { s as? GGA }
    private static func rmc(_ s: any SentenceType) -> RMC? { s as? RMC }
    private static func gsv(_ s: any SentenceType) -> GSV? { s as? GSV }

    @Test("an impossible value is unknown, counted, and its sentence kept", arguments: [
        Case(body: "GPGGA,123519,4807.038,N,01131.000,E,1,2140,0.9,545.4,M,46.9,M,,") { gga($0)?.satellitesUsed.map(Double.init) },
        Case(body: "GPGGA,123519,4807.038,N,01131.000,E,1,-3,0.9,545.4,M,46.9,M,,") { gga($0)?.satellitesUsed.map(Double.init) },
        Case(body: "GPGGA,123519,4807.038,N,01131.000,E,1,08,-1.2,545.4,M,46.9,M,,") { gga($0)?.hdop },
        Case(body: "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.0,545.4,M,46.9,M,,") { gga($0)?.hdop },
        Case(body: "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,2000000.0,M,46.9,M,,") { gga($0)?.altitude },
        Case(body: "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,460.9,M,,") { gga($0)?.geoidSeparation },
        Case(body: "GPGGA,123519,4807.038,N,01131.000,E,9,08,0.9,545.4,M,46.9,M,,") { gga($0)?.qualityIndicator.map(Double.init) },
        Case(body: "GPRMC,123519,A,4807.038,N,01131.000,E,022.4,857.7,230394,003.1,W") { rmc($0)?.course },
        Case(body: "GPRMC,123519,A,4807.038,N,01131.000,E,-3.5,084.4,230394,003.1,W") { rmc($0)?.speedKnots },
        Case(body: "GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,193.1,W") { rmc($0)?.magneticVariation },
        Case(body: "GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,300294,003.1,W") { rmc($0)?.date.map { Double($0.day) } },
        Case(body: "GPRMC,123519,A,4895.038,N,01131.000,E,022.4,084.4,230394,003.1,W") { rmc($0)?.coordinate?.latitude },
        Case(body: "GPRMC,123519,A,4807.038,N,18100.000,E,022.4,084.4,230394,003.1,W") { rmc($0)?.coordinate?.longitude },
        Case(body: "GPRMC,123519,A,9100.000,N,01131.000,E,022.4,084.4,230394,003.1,W") { rmc($0)?.coordinate?.latitude },
        Case(body: "GPRMC,256000,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W") { rmc($0)?.time.map { Double($0.milliseconds) } },
        Case(body: "GPGSV,1,1,01,07,149,120,40") { gsv($0)?.entries.first?.elevation },
        Case(body: "GPGSV,1,1,01,07,45,362,40") { gsv($0)?.entries.first?.azimuth },
        Case(body: "GPGSV,1,1,01,07,45,120,521") { gsv($0)?.entries.first?.snr },
        Case(body: "GPGSV,1,1,2140,07,45,120,40") { gsv($0)?.satellitesInView.map(Double.init) },
        Case(body: "GPZDA,123519,10,03,20180,00,00") { if let x = $0 as? ZDA { x.date.map { Double($0.year) } } else { nil } },
        Case(body: "GPZDA,123519,30,02,2024,00,00") { if let x = $0 as? ZDA { x.date.map { Double($0.year) } } else { nil } },
        Case(body: "GPVTG,400.0,T,,M,5.20,N,9.63,K,A") { if let x = $0 as? VTG { x.course } else { nil } },
        Case(body: "GPGST,123519,1.2,2.0,1.0,45.0,-1.0,1.0,2.0") { if let x = $0 as? GST { x.latitudeError } else { nil } },
        Case(body: "GPGST,123519,1.2,2.0,1.0,-181.0,1.0,1.0,2.0") { if let x = $0 as? GST { x.orientation } else { nil } },
        Case(body: "PGRME,-15.0,M,45.0,M,25.0,M") { if let x = $0 as? PGRME { x.horizontalError } else { nil } },
    ])
    func refused(_ c: Case) throws {
        // Given a sentence with one impossible value; When it is decoded
        let sentence = try #require(decoded(c.body))
        // Then that value is unknown
        #expect(c.read(sentence) == nil)
        // And the stream counts it, and nothing else in the sentence is lost
        let (parser, _) = parsed(bytes(nmea(c.body)))
        #expect(parser.statistics.sentences.outOfRange == 1)
        #expect(parser.statistics.sentences.decoded == 1)
    }

    @Test("the edges of each range are values, not errors")
    func edges() throws {
        // Given sentences at the very edges: the poles, the antimeridian, the horizon and the
        // zenith, azimuth 359, SNR 99, a leap second, 140 satellites
        let input = nmea([
            "GPRMC,235960,A,9000.000,S,18000.000,W,0.0,359.9,311216,180.0,E,A",
            "GPGGA,235960,9000.000,S,18000.000,W,1,140,0.1,-430.0,M,-107.0,M,,",
            "GPGSV,1,1,02,07,90,359,99,08,-90,0,0",
        ])
        // When parsed; Then nothing is out of range, and the values come through
        let (parser, events) = parsed(bytes(input))
        #expect(parser.statistics.sentences.outOfRange == 0)
        let fix = try #require(events.fixes.first)
        #expect(fix.coordinate == Coordinate(latitude: -90, longitude: -180))
        #expect(fix.satellitesUsed == 140)
        #expect(fix.course == 359.9)
        #expect(fix.timestamp?.time.second == 60)
        let sky = try #require(events.skies.first)
        #expect(sky.satellites.map(\.elevation) == [90, -90])
        #expect(sky.satellites.map(\.snr) == [99, 0])
    }

    @Test("an error ellipse SkyTraq orients from -180 is kept as written, as gpsd keeps it")
    func negativeOrientation() throws {
        let gst = try #require(decoded("GPGST,213122.000,15.7,22.8,11.6,-1.1,0.4,0.6,1.3") as? GST)
        #expect(gst.orientation == -1.1)
        #expect(gst.outOfRange == 0)
    }

    @Test("a hemisphere that is neither is no position")
    func hemisphere() {
        let (parser, events) = parsed(bytes(nmea("GPGLL,4807.038,X,01131.000,E,123519,A,A")))
        #expect(events.fixes.allSatisfy { $0.coordinate == nil })
        #expect(parser.statistics.sentences.decoded == 1)
    }
}
