import Foundation
import GPSLocation
@testable import GPSMQTT
import GPSOutput
import NMEA
import Testing

@Suite("MQTT: the ATT topic, and the instruments' TPV members read back")
struct MQTTInstrumentTests {
    @Test("An attitude goes to PREFIX/att, or PREFIX/NAME/att for a named device")
    func attTopic() {
        let t = MQTTTopics(prefix: "fleet/van7")
        #expect(t.att() == "fleet/van7/att")
        #expect(t.att(device: "/dev/ttyUSB0") == "fleet/van7/ttyUSB0/att")
    }

    @Test("The ATT payload is watch --json's ATT line without its end; a fix without an attitude has none")
    func attPayload() {
        var fix = Fix()
        fix.attitude = Attitude(heading: 25.5, rateOfTurn: 1)
        let payload = String(decoding: MQTTPublisher.att(fix, GPSDJSON.Device("x")), as: UTF8.self)
        #expect(payload == #"{"class":"ATT","device":"x","heading":25.500,"rot":1.000}"#)
        #expect(MQTTPublisher.att(Fix(), GPSDJSON.Device("x")).isEmpty)
    }

    @Test("A TPV's depth, wind and water temperature read back as written; out of range is unknown")
    func marineRoundTrip() throws {
        var fix = Fix(coordinate: Coordinate(latitude: 52.85, longitude: 5.31), mode: .threeD)
        fix.marine = MarineData(depth: 5.4, waterTemperature: 14.5, apparentWindAngle: 57.5, apparentWindSpeed: 6.7,
                                trueWindDirection: 328.2, magneticWindDirection: 326.8, trueWindSpeed: 5.8)
        var w = ByteWriter()
        GPSDJSON.tpv(fix, device: "x", into: &w)
        guard case .fix(let read)? = GpsdJSONReports.report(Array(w.bytes.dropLast())) else { Issue.record("no fix"); return }
        #expect(read.marine == fix.marine)
        // A depth below the ocean floor and a wind of 500 m/s are no measurement; the rest stays
        let hostile = #"{"class":"TPV","mode":3,"lat":1,"lon":2,"depth":12000,"wspeedr":500,"wangler":90}"#
        guard case .fix(let bad)? = GpsdJSONReports.report(Array(hostile.utf8)) else { Issue.record("no fix"); return }
        #expect(bad.marine == MarineData(apparentWindAngle: 90))
        // And a TPV without any has none
        guard case .fix(let plain)? = GpsdJSONReports.report(Array(#"{"class":"TPV","mode":3,"lat":1,"lon":2}"#.utf8)) else {
            Issue.record("no fix")
            return
        }
        #expect(plain.marine == nil)
    }
}
