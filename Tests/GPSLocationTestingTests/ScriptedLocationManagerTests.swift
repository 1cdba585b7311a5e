import NMEA
import GPSLocation
import GPSLocationTesting
import GPSTestSupport
import Glibc
import Testing

@Suite struct ScriptedLocationManagerTests {
    let here = Fix(coordinate: .init(latitude: 52.1, longitude: 4.3), altitude: 3)
    let there = Fix(coordinate: .init(latitude: 52.2, longitude: 4.4))
    let sky = SkyView(satellites: [Satellite(id: .init(constellation: .gps, svid: 5), snr: 38, used: true)])

    @Test func playsItsScriptInOrderOnAThreadOfItsOwnAndEndsCountingTheFixes() async {
        // Given
        let manager = ScriptedLocationManager([.status(.started), .fix(here), .sky(sky), .sentence("$GPGGA,x"),
                                               .note(ReceiverNote(severity: .notice, text: "ANTENNA OK")), .fix(Fix()), .fix(there), .end])
        let recorder = Recorder()
        manager.delegate = recorder
        // When
        manager.startUpdatingLocation()
        // Then
        #expect(await manager.played())
        var ended = Statistics()
        ended.epochs.epochs = 3
        ended.epochs.fixes = 2
        #expect(recorder.calls == [.status(.started), .fix(here), .sky(sky), .sentence("$GPGGA,x"),
                                   .note(ReceiverNote(severity: .notice, text: "ANTENNA OK")), .fix(Fix()),
                                   .fix(there), .status(.finished(ended))])
        #expect(recorder.threads.allSatisfy { pthread_equal($0, recorder.threads[0]) != 0 })
        #expect(pthread_equal(recorder.threads[0], pthread_self()) == 0)
        #expect(manager.statistics == ended)
        #expect(!manager.isRunning)
        #expect((manager.startCount, manager.stopCount, manager.playCount, manager.stepsDelivered) == (1, 0, 1, 8))
    }

    @Test func insideStartHasDeliveredEverythingWhenStartReturns() {
        let manager = ScriptedLocationManager(fixes: [here, there], delivery: .insideStart)
        let recorder = Recorder()
        manager.delegate = recorder
        manager.startUpdatingLocation()
        #expect(recorder.calls.count == 3)
        #expect(recorder.threads.allSatisfy { pthread_equal($0, pthread_self()) != 0 })
    }

    @Test func afterStopTheDelegateHearsNothingAndAPauseIsCutShort() async {
        let manager = ScriptedLocationManager([.fix(here), .pause(.seconds(30)), .fix(there), .end])
        let recorder = Recorder()
        manager.delegate = recorder
        manager.startUpdatingLocation()
        #expect(await waitUntil(.seconds(5)) { recorder.calls.count == 1 })
        #expect(manager.isRunning)
        let stopped = monotonicSeconds()
        manager.stopUpdatingLocation()
        #expect(await manager.played(within: .seconds(2)))
        #expect(monotonicSeconds() - stopped < 1)
        #expect(recorder.calls == [.fix(here)])
        #expect((manager.isRunning, manager.stopCount) == (false, 1))
    }

    @Test func aStartWhileAPlayIsUnderWayIsCountedAndDoesNothing() async {
        let manager = ScriptedLocationManager([.fix(here)])
        let recorder = Recorder()
        manager.delegate = recorder
        manager.startUpdatingLocation()
        #expect(await manager.played())
        // The script ran out without an end: running and silent, as a receiver without a sky.
        #expect(manager.isRunning)
        manager.startUpdatingLocation()
        #expect((manager.startCount, manager.playCount, recorder.calls.count) == (2, 1, 1))
        manager.stopUpdatingLocation()
        manager.startUpdatingLocation()
        #expect(await manager.played())
        #expect((manager.startCount, manager.playCount, recorder.calls.count) == (3, 2, 2))
    }

    @Test func nothingOfTheScriptFollowsATerminalStep() {
        let manager = ScriptedLocationManager([.fix(here), .failure(.deviceGone(path: "/dev/ttyACM0")), .fix(there), .end],
                                              delivery: .insideStart)
        let recorder = Recorder()
        manager.delegate = recorder
        manager.startUpdatingLocation()
        #expect(recorder.calls == [.fix(here), .failure(.deviceGone(path: "/dev/ttyACM0"))])
        #expect(!manager.isRunning)
    }

    @Test func aStartMadeOnTheNewsOfTheEndPlaysAgain() async {
        // The play is released before its end is told: a delegate that restarts on a failure
        // (a reconnecting app) gets a new play, not a start swallowed by the old one.
        let manager = ScriptedLocationManager([.fix(here), .failure(.deviceGone(path: "/dev/ttyACM0"))])
        let recorder = Recorder { recorder, call in
            if case .failure = call, recorder.calls.count == 2 { manager.startUpdatingLocation() }
        }
        manager.delegate = recorder
        manager.startUpdatingLocation()
        #expect(await waitUntil(.seconds(5)) { recorder.calls.count == 4 })
        #expect(manager.playCount == 2)
    }

    @Test func anAsyncTestWaitsForThePlayWithoutHoldingAPoolThread() async {
        let manager = ScriptedLocationManager([.pause(.milliseconds(50)), .fix(here), .end])
        let recorder = Recorder()
        manager.delegate = recorder
        #expect(await manager.played(within: .seconds(1)) == false)    // nothing started yet
        manager.startUpdatingLocation()
        #expect(await manager.played(within: .seconds(5)))
        #expect(recorder.calls.count == 2)
        manager.script = [.pause(.seconds(30))]
        manager.startUpdatingLocation()
        #expect(await manager.played(within: .milliseconds(100)) == false)
        manager.stopUpdatingLocation()
        #expect(await manager.played(within: .seconds(2)))
    }

    @Test func aServiceGetsTheScriptedFixOrTheScriptedFailure() async throws {
        let manager = ScriptedLocationManager([.fix(here)])
        let service = LocationService(manager: manager)
        let fix = try await service.currentFix(timeout: .seconds(5))
        #expect(fix == here)
        #expect(manager.startCount == 1)

        let failing = ScriptedLocationManager.failing(with: .deviceNotFound(searched: ["/dev/ttyUSB0"]))
        let other = LocationService(manager: failing)
        await #expect(throws: LocationError.deviceNotFound(searched: ["/dev/ttyUSB0"])) {
            _ = try await other.currentFix(timeout: .seconds(5))
        }
    }
}
