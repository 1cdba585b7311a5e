import NMEA
import Foundation
import Glibc
import GPSLocation
@testable import GPSGpsd
import GPSTestSupport
import Testing

/// GpsdManager against a peer on gpsd's port that sends what no gpsd would: the test serves the
/// socket itself (`FakeGpsd`), so each line is exactly what the test says.
@Suite("GpsdManager against a hostile gpsd peer", .serialized, .timeLimit(.minutes(1)))
struct GpsdHostilePeerTests {
    func start(_ manager: GpsdManager) -> RecordingDelegate {
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        manager.startUpdatingLocation()
        return delegate
    }

    @Test("Stray bytes, broken, binary and overlong lines between good reports: every good report comes through, each bad line is counted and skipped")
    func badLinesBetweenGoodOnes() async throws {
        // Given a peer on gpsd's port, and a GpsdManager connected to it
        let peer = try FakeGpsd()
        let manager = GpsdManager(port: peer.port, watchdog: .seconds(10), reconnect: false)
        let delegate = start(manager)
        defer { manager.stopUpdatingLocation() }
        #expect(peer.acceptClient())
        #expect(peer.request == "?WATCH={\"enable\":true,\"json\":true};\n")

        // When it sends good reports with lines between them that are no gpsd report (one of
        // them, a stray byte before the first key, never returns from libgps 3.22's parser)
        peer.send(line: #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#)
        peer.send(line: GpsdReports.tpv(second: 1))
        peer.send(line: #"{x"class":"TPV"}"#)
        peer.send(line: "not json at all")
        peer.send([0xFF, 0x00, 0xFE, 0x7B, 0x0A])
        peer.send(line: GpsdReports.tpv(second: 2))
        peer.send(line: "{\"class\":\"TPV\",\"device\":\"" + String(repeating: "a", count: 100_000) + "\"}")
        peer.send(line: #"{"class":"TPV"}"#)
        peer.send(line: #"{"class":"SKY","satellites":7}"#)
        peer.send(line: #"{"class":"ATT","devices":[1,[2,[3,{"a":[4,5,{"b":null}]}]]]}"#)
        peer.send(line: GpsdReports.skyWithDuplicates)
        peer.send(line: GpsdReports.tpv(second: 3))

        // Then the three fixes and the sky view come through, with one entry per satellite,
        // and the six lines that were no report are counted
        #expect(await waitUntil(.seconds(5)) { delegate.fixes.count == 3 })
        #expect(delegate.fixes.map(\.second) == [1, 2, 3])
        #expect(delegate.fixes.allSatisfy { $0.coordinate == Coordinate(latitude: 51.5, longitude: -0.125) })
        let skies = delegate.events.compactMap(\.sky)
        #expect(skies.count == 1)
        #expect(skies.first?.satellites.count == 2)
        // The fix after the sky view carries its count of satellites used.
        #expect(delegate.fixes.last?.satellitesUsed == 2)
        #expect(manager.linesRejected == 6)
        #expect(delegate.events.first == .status(.started))
        #expect(!delegate.events.contains { if case .error = $0 { true } else { false } })
    }

    @Test("A stop ends the run at once while the peer is halfway through a line, and the connection is closed")
    func stopMidLine() async throws {
        let peer = try FakeGpsd()
        let manager = GpsdManager(port: peer.port, watchdog: .seconds(30), reconnect: false)
        let delegate = start(manager)
        #expect(peer.acceptClient())
        peer.send(line: GpsdReports.tpv(second: 1))
        #expect(await waitUntil(.seconds(5)) { delegate.fixes.count == 1 })

        // Given a line begun and never ended
        peer.send(Array(#"{"class":"TPV","mode":3,"lat":"#.utf8))
        try await Task.sleep(for: .milliseconds(200))

        // When the manager is stopped
        let stopped = Date()
        manager.stopUpdatingLocation()

        // Then its connection is closed within a second, and nothing more is told
        #expect(await waitUntil(.seconds(2)) { !peer.send(Array(" ".utf8)) || peer.clientClosed })
        #expect(Date().timeIntervalSince(stopped) < 1.5)
        let told = delegate.events.count
        peer.send(line: "1}")
        try await Task.sleep(for: .milliseconds(200))
        #expect(delegate.events.count == told)
    }

    @Test("A peer that sends only lines gpsfix cannot use has gone silent: the watchdog disconnects and the manager connects again")
    func garbageOnlyIsSilence() async throws {
        // Given a peer that sent one fix and then nothing but lines that are no report
        let peer = try FakeGpsd()
        let manager = GpsdManager(port: peer.port, watchdog: .seconds(1), reconnect: true)
        let delegate = start(manager)
        defer { manager.stopUpdatingLocation() }
        #expect(peer.acceptClient())
        peer.send(line: GpsdReports.tpv(second: 1))
        let garbage = Task.detached {
            for _ in 0..<25 {
                guard peer.send(line: #"{x"class":"TPV"}"#) else { return }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        defer { garbage.cancel() }

        // Then within the watchdog's second (and a margin) the connection counts as lost
        let lost = await waitUntil(.seconds(4)) {
            delegate.events.contains { if case .status(.disconnected(let reason)) = $0 { reason.contains("nothing usable") } else { false } }
        }
        #expect(lost, "\(delegate.events)")
        // And the manager tries again: the peer is connected to a second time
        #expect(peer.acceptClient(seconds: 5))
        #expect(peer.clientsAccepted == 2)
        #expect(manager.linesRejected >= 5)
    }

    @Test("A heading sensor's ATT goes out in the next fix, and a TPV's depth and wind in its own; values out of range are unknown")
    func attitudeAndInstruments() async throws {
        // Given a peer on gpsd's port, and a GpsdManager connected to it
        let peer = try FakeGpsd()
        let manager = GpsdManager(port: peer.port, watchdog: .seconds(10), reconnect: false)
        let delegate = start(manager)
        defer { manager.stopUpdatingLocation() }
        #expect(peer.acceptClient())

        // When gpsd sends an ATT, then a TPV with a boat's instruments, then a TPV alone, then
        // an ATT whose heading is no heading and a last TPV
        peer.send(line: #"{"class":"ATT","device":"/dev/ttyUSB0","time":"2026-12-01T12:00:01.000Z","heading":231.5,"pitch":1.5,"roll":-2.0,"mheading":230.1}"#)
        let marine = #","depth":5.6,"wanglem":333.2,"wangler":59.9,"wanglet":334.6,"wspeedr":5.7,"wspeedt":5.8}"#
        peer.send(line: String(GpsdReports.tpv(second: 1).dropLast()) + marine)
        peer.send(line: GpsdReports.tpv(second: 2))
        peer.send(line: #"{"class":"ATT","heading":400.0,"pitch":2.5}"#)
        peer.send(line: GpsdReports.tpv(second: 3))

        // Then the first fix carries the attitude and the instruments, the second neither, and
        // the third the pitch alone
        #expect(await waitUntil(.seconds(5)) { delegate.fixes.count == 3 })
        let fixes = delegate.fixes
        #expect(fixes.first?.attitude == Attitude(heading: 231.5, pitch: 1.5, roll: -2.0))
        #expect(fixes.first?.marine == MarineData(depth: 5.6, apparentWindAngle: 59.9, apparentWindSpeed: 5.7,
                                                   trueWindDirection: 334.6, magneticWindDirection: 333.2, trueWindSpeed: 5.8))
        #expect(fixes.count == 3 && fixes[1].attitude == nil && fixes[1].marine == nil)
        #expect(fixes.count == 3 && fixes[2].attitude == Attitude(pitch: 2.5))
        #expect(manager.linesRejected == 0)
    }
}
