import NMEA
import GPSLocation
import GPSOutput
import Testing

@Suite("GPSDJSON GST")
struct GSTReportTests {
    @Test("gpsd's member names and precision, with the device and the epoch's time")
    func whole() throws {
        // Given a fix whose epoch had a full GST
        var fix = Fix.dunedin
        fix.errorStatistics = ErrorStatistics(rms: 1.3, semiMajor: 105.1, semiMinor: 9.1, orientation: 40.9,
                                              latitudeError: 0.3, longitudeError: 0.4, altitudeError: 0.6)

        // When
        let report = try Report { GPSDJSON.gst(fix, device: GPSDJSON.Device("/dev/ttyACM0"), into: &$0) }

        // Then
        #expect(report.text == #"{"class":"GST","device":"/dev/ttyACM0","time":"2019-04-12T00:39:56.000Z","rms":1.300,"major":105.100,"minor":9.100,"orient":40.900,"lat":0.300,"lon":0.400,"alt":0.600}"# + "\n")
    }

    @Test("Unknown members are left out; the time only once the date is known")
    func unknownsLeftOut() throws {
        // Given statistics with only rms and altitude, in an epoch without a date
        var fix = Fix()
        fix.timestamp = FixTime(date: nil, time: TimeOfDay(hour: 0, minute: 39, second: 56))
        fix.errorStatistics = ErrorStatistics(rms: 235111, altitudeError: 4)

        // When
        let report = try Report { GPSDJSON.gst(fix, device: GPSDJSON.Device(nil), into: &$0) }

        // Then
        #expect(report.keys == ["class", "rms", "alt"])
        #expect(report.double("rms") == 235111)
    }

    @Test("No GST in the epoch, no report")
    func none() {
        var w = ByteWriter()
        GPSDJSON.gst(Fix.dunedin, device: GPSDJSON.Device("/dev/ttyACM0"), into: &w)
        #expect(w.bytes.isEmpty)
    }
}
