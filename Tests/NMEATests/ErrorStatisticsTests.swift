import NMEA
import Testing

@Suite("GST reaches the fix whole")
struct ErrorStatisticsTests {
    private let gga = "GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
    private let rmc = "GPRMC,123519.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"

    @Test("An epoch's GST gives the fix every statistic, the ellipse included")
    func whole() throws {
        // Given an epoch with a GST that states every field
        let text = nmea([gga, "GPGST,123519.00,1.3,105.1,9.1,40.9,0.3,0.4,0.6", rmc])

        // When it is assembled
        let fix = try #require(events(text).fixes.first)

        // Then the statistics are the sentence's, and the accuracies are still derived from them
        let e = try #require(fix.errorStatistics)
        #expect(e == ErrorStatistics(rms: 1.3, semiMajor: 105.1, semiMinor: 9.1, orientation: 40.9,
                                     latitudeError: 0.3, longitudeError: 0.4, altitudeError: 0.6))
        #expect(fix.verticalAccuracy == 0.6)
        #expect(abs((fix.horizontalAccuracy ?? 0) - 0.5) < 1e-9)
    }

    @Test("A GST with empty fields is still a GST: statistics with nothing known, as gpsd reports it")
    func empty() throws {
        // Given a receiver without a solution, sending its GST with every field empty
        let text = nmea([gga, "GPGST,123519.00,,,,,,,", rmc])

        // When
        let fix = try #require(events(text).fixes.first)

        // Then
        #expect(fix.errorStatistics == ErrorStatistics())
    }

    @Test("An epoch without GST has none, even after one that had")
    func onlyItsOwn() throws {
        // Given two epochs, only the first with a GST
        let second = ["GPGGA,123520.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
                      "GPRMC,123520.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"]
        let text = nmea([gga, "GPGST,123519.00,1.3,,,,0.3,0.4,0.6", rmc] + second)

        // When
        let fixes = events(text).fixes

        // Then
        #expect(fixes.count == 2)
        #expect(fixes.first?.errorStatistics?.rms == 1.3)
        #expect(fixes.last.map { $0.errorStatistics == nil } == true)
    }
}
