import Foundation
import NMEA
@testable import GPSServer
import GPSOutput
import GPSTestSupport
import Testing

@Suite("gpsd-protocol server: ATT and marine members", .timeLimit(.minutes(1)))
struct AttitudeReportTests {
    @Test("A fix with an instrument's attitude is followed by gpsd's ATT, its depth and wind in the TPV")
    func attAfterTPV() async throws {
        // Given a watcher, and a fix whose epoch had an HDT, an XDR and a depth sounder's DBT
        let harness = try ServerHarness()
        let watcher = try harness.watcher()
        var fix = Sample.fix
        fix.attitude = Attitude(heading: 274.07, pitch: 1.5, roll: -0.25)
        fix.marine = MarineData(depth: 5.4, apparentWindAngle: 57.5, apparentWindSpeed: 6.7)

        // When it is published
        harness.server.publish(.fix(fix))
        let lines = watcher.readLines(3)

        // Then the TPV (with gpsd's marine members) comes first and the ATT right after it,
        // each exactly as `watch --json` prints it
        let tpv = try #require(lines.firstIndex { $0.hasPrefix("{\"class\":\"TPV\"") }, "\(lines)")
        let att = try #require(lines.firstIndex { $0.hasPrefix("{\"class\":\"ATT\"") }, "\(lines)")
        #expect(att == tpv + 1)
        #expect(lines[tpv].hasSuffix(#","depth":5.400,"wangler":57.5,"wspeedr":6.7}"#), "\(lines[tpv])")
        #expect(lines[att] == #"{"class":"ATT","device":"/dev/ttyTEST","heading":274.070,"pitch":1.50,"roll":-0.25}"#)
        #expect(await harness.stop())
    }

    @Test("A fix without an attitude brings no ATT")
    func noAttitudeNoATT() async throws {
        let harness = try ServerHarness()
        let watcher = try harness.watcher()
        harness.server.publish(.fix(Sample.fix))
        var marked = Sample.fix
        marked.altitude = 99
        harness.server.publish(.fix(marked))
        // (a DEVICE as the device comes into service, the two TPVs, and nothing more)
        let lines = watcher.readLines(4, within: 0.5)
        #expect(lines.count == 3)
        #expect(lines.filter { $0.hasPrefix("{\"class\":\"TPV\"") }.count == 2, "\(lines)")
        #expect(!lines.contains { $0.contains("\"ATT\"") })
        #expect(await harness.stop())
    }
}
