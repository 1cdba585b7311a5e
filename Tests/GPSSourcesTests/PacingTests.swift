import NMEA
import GPSTestSupport
import GPSLocation
import GPSSystem
@testable import GPSSources
import Synchronization
import Testing

/// Pacing on a virtual clock: a test moves the time on instead of sleeping through it, so
/// the intervals are exact whatever else the machine is doing.
@Suite("Replay pacing on a virtual clock")
struct PacingTests {
    @Test("Paced fixes are spaced by the capture's interval divided by the speed: at 4×, each waits 0.25 s of the clock, not less", .timeLimit(.minutes(1)))
    func pacingIntervals() async throws {
        // Given: four epochs a second apart, replayed at 4× on a clock that only moves when told
        // (steps of a power of two, so that the sums are exact)
        let dir = try TemporaryDirectory()
        let path = try dir.write("drive.nmea", SmallCapture.text(epochs: 4))
        let clock = VirtualClock()
        let manager = ReplayManager(path: path, speed: .factor(4), loop: false, forwardsSentences: false,
                                    acceptsSimulatedFixes: false, chunkSize: 1 << 16, clock: clock)
        let sut = LocationService(manager: manager)
        let arrivals = Mutex<[Double]>([])
        let done = Eventually<Bool>()
        sut.subscribe { event in
            if case .fix = event { arrivals.withLock { $0.append(clock.now) } }
            if event.isTerminal { done.fulfill(true) }
        }
        func count() -> Int { arrivals.withLock { $0.count } }

        // The first at once; the next waits on the clock
        #expect(await waitUntil(.seconds(10)) { count() == 1 && clock.sleepers == 1 })
        for expected in 2...4 {
            // When the clock has moved less than the interval, nothing more comes
            clock.advance(by: .milliseconds(125))
            try await Task.sleep(for: .milliseconds(30))
            #expect(count() == expected - 1, "a fix came before its time")
            // When it reaches the interval, the next fix does
            clock.advance(by: .milliseconds(125))
            #expect(await waitUntil(.seconds(10)) { count() == expected && (expected == 4 || clock.sleepers == 1) })
        }
        #expect(await done.value(within: .seconds(10)) == true)

        // Then: 0.25 s apart on the clock, the first at its start
        let times = arrivals.withLock { $0 }
        #expect(times.count == 4)
        for (index, time) in times.enumerated() {
            #expect(time == 0.25 * Double(index), "fix \(index) at \(time)")
        }
    }

    @Test("A stop cuts a wait on the virtual clock short: the run ends without the time moving", .timeLimit(.minutes(1)))
    func stopEndsTheWait() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("drive.nmea", SmallCapture.text(epochs: 4))
        let clock = VirtualClock()
        let manager = ReplayManager(path: path, speed: .factor(1), loop: false, forwardsSentences: false,
                                    acceptsSimulatedFixes: false, chunkSize: 1 << 16, clock: clock)
        let sut = LocationService(manager: manager)
        let ended = Eventually<LocationEvent>()
        let fixes = Mutex(0)
        sut.subscribe { event in
            if case .fix = event { fixes.withLock { $0 += 1 } }
            if event.isTerminal { ended.fulfill(event) }
        }
        #expect(await waitUntil(.seconds(10)) { fixes.withLock { $0 } == 1 && clock.sleepers == 1 })
        sut.stop()
        #expect(await waitUntil(.seconds(10)) { clock.sleepers == 0 })
        #expect(clock.now == 0)
        #expect(fixes.withLock { $0 } == 1)
    }
}
