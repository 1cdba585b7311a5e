@testable import GPSGpsd
import GPSSystem
import Testing

/// gpsd's TOFF and PPS lines as `timing --gpsd` judges them: what gpsd sends is read to the
/// nanosecond; anything else a peer may send is skipped.
@Suite("gpsd's time reports, judged")
struct GpsdTimeReportsTests {
    func report(_ text: String) -> GpsdTimeReports.Report? { GpsdTimeReports.report(Array(text.utf8)) }

    @Test("gpsd 3.22's TOFF (with its space) and a PPS with precision and shm")
    func gpsds() throws {
        let toff = try #require(report(#"{"class":"TOFF","device":"/dev/ttyS0","real_sec":1796243523, "real_nsec":0,"clock_sec":1796243523,"clock_nsec":139516607}"#))
        #expect(toff.kind == .toff && toff.device == "/dev/ttyS0")
        #expect(toff.real == WallTime(seconds: 1_796_243_523, nanoseconds: 0))
        #expect(toff.clock == WallTime(seconds: 1_796_243_523, nanoseconds: 139_516_607))
        let pps = try #require(report(#"{"class":"PPS","device":"/dev/ttyS0","real_sec":1796243524,"real_nsec":0,"clock_sec":1796243523,"clock_nsec":999999999,"precision":-20,"shm":"NTP1","qErr":-1234}"#))
        #expect(pps.kind == .pps && pps.clock.nanoseconds == 999_999_999)
    }

    @Test("Out of range, fractional, missing or of another class: skipped", arguments: [
        #"{"class":"TOFF","device":"d","real_sec":1796243523,"real_nsec":1000000000,"clock_sec":1796243523,"clock_nsec":0}"#,
        #"{"class":"TOFF","device":"d","real_sec":1796243523,"real_nsec":-1,"clock_sec":1796243523,"clock_nsec":0}"#,
        #"{"class":"TOFF","device":"d","real_sec":1e300,"real_nsec":0,"clock_sec":1796243523,"clock_nsec":0}"#,
        #"{"class":"TOFF","device":"d","real_sec":12,"real_nsec":0,"clock_sec":1796243523,"clock_nsec":0}"#,
        #"{"class":"TOFF","device":"d","real_sec":1796243523.5,"real_nsec":0,"clock_sec":1796243523,"clock_nsec":0}"#,
        #"{"class":"TOFF","device":"d","real_sec":1796243523,"real_nsec":0,"clock_sec":1796243523}"#,
        #"{"class":"TOFF","real_sec":1796243523,"real_nsec":0,"clock_sec":1796243523,"clock_nsec":0}"#,
        #"{"class":"TPV","device":"d","real_sec":1796243523,"real_nsec":0,"clock_sec":1796243523,"clock_nsec":0}"#,
        #"{"class":"PPS","device":"d","real_sec":"1796243523","real_nsec":0,"clock_sec":1796243523,"clock_nsec":0}"#,
        #"{"class":"PPS","device":"d","real_sec":1796243523,"real_nsec":0,"clock_sec":1796243523,"clock_nsec":0"#,
    ])
    func hostile(_ line: String) {
        #expect(report(line) == nil)
    }

    @Test("A device name longer than any path is skipped")
    func longDevice() {
        let name = String(repeating: "x", count: 300)
        #expect(report(#"{"class":"PPS","device":""# + name + #"","real_sec":1796243523,"real_nsec":0,"clock_sec":1796243523,"clock_nsec":0}"#) == nil)
    }
}
