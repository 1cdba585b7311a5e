import NMEA
import GPSLocation
import Testing
@testable import GPSFixCLI

/// The live view's rows for the instruments beside the receiver.
@Suite("Live view: heading, water and wind")
struct LiveViewInstrumentTests {
    func lines(_ events: [LocationEvent], unicode: Bool = true) -> [String] {
        var view = LiveView(source: "/dev/ttyUSB0", kind: .receiver, unicode: unicode)
        for event in events { view.apply(event, at: 100) }
        return view.lines(now: 100, width: 120, height: 40)
    }

    func row(_ lines: [String], _ label: String) -> String? { lines.first { $0.hasPrefix(label + " ") } }

    @Test("Without instruments there are no such rows")
    func none() {
        let drawn = lines([.fix(LiveViewTests.fix)])
        #expect(row(drawn, "Heading") == nil && row(drawn, "Water") == nil && row(drawn, "Wind") == nil)
    }

    @Test("A heading, attitude, depth and wind each have their row, and stay when a later fix has none")
    func rows() throws {
        // Given a fix with everything an instrument says, then a fix of the next second without any
        var first = LiveViewTests.fix
        first.attitude = Attitude(heading: 25.5, magneticHeading: 231.8, pitch: 1.25, roll: -2, rateOfTurn: 3)
        first.marine = MarineData(depth: 5.44, transducerOffset: 0.4, waterTemperature: 14.5, apparentWindAngle: 57.5,
                                  apparentWindSpeed: 6.7, trueWindAngle: 96.6, trueWindDirection: 328.2, trueWindSpeed: 5.8)
        let drawn = lines([.fix(first), .fix(LiveViewTests.fix)])
        // Then
        #expect(try #require(row(drawn, "Heading")).hasSuffix("25.5° true NNE   231.8° magnetic   pitch 1.3°   roll -2.0°   turn 3.0°/min"))
        #expect(try #require(row(drawn, "Water")).hasSuffix("depth 5.4 m   offset 0.4 m   14.5°C"))
        #expect(try #require(row(drawn, "Wind")).hasSuffix("apparent 58° 6.7 m/s   true 97° 5.8 m/s   from 328° NNW"))
        // And in ASCII
        let plain = lines([.fix(first)], unicode: false)
        #expect(try #require(row(plain, "Heading")).contains("25.5 true NNE   231.8 magnetic"))
    }
}
