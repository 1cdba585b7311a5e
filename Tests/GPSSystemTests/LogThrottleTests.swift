import Synchronization
import Testing
@testable import GPSSystem

@Suite("LogThrottle: peers do not decide how much is logged")
struct LogThrottleTests {
    final class FakeClock: Sendable {
        let t = Mutex(0.0)
        func advance(_ s: Double) { t.withLock { $0 += s } }
        var now: Double { t.withLock { $0 } }
    }

    @Test func writesTheBurstThenCountsAndTellsTheCountOnceTheWindowEnds() {
        let clock = FakeClock()
        let throttle = LogThrottle(window: .seconds(60), burst: 3, now: { clock.now })
        var written: [String] = []
        for i in 0..<315 {
            written += throttle.admit("refused", summary: "connections refused") { "refused \(i)" }
        }
        #expect(written == ["refused 0", "refused 1", "refused 2"])
        #expect(throttle.due().isEmpty, "nothing is told before the window ends")
        clock.advance(61)
        #expect(throttle.due() == ["315 connections refused in the last minute (312 not logged one by one)"])
        #expect(throttle.due().isEmpty, "a count is told once")
        #expect(throttle.admit("refused", summary: "connections refused") { "again" } == ["again"])
    }

    @Test func theNextEventOfAKindTellsTheEndedWindowsCountFirst() {
        let clock = FakeClock()
        let throttle = LogThrottle(window: .seconds(10), burst: 1, now: { clock.now })
        _ = throttle.admit("reset", summary: "resets") { "a" }
        _ = throttle.admit("reset", summary: "resets") { "b" }
        clock.advance(10)
        #expect(throttle.admit("reset", summary: "resets") { "c" }
                == ["2 resets in the last 10 s (1 not logged one by one)", "c"])
    }

    @Test func kindsAreCountedApartAndFlushTellsWhatIsHeld() {
        let clock = FakeClock()
        let throttle = LogThrottle(window: .seconds(60), burst: 0, now: { clock.now })
        #expect(throttle.admit("a", summary: "as") { "x" }.isEmpty)
        #expect(throttle.admit("b", summary: "bs") { "y" }.isEmpty)
        #expect(throttle.flush() == ["1 as in the last minute (1 not logged one by one)",
                                     "1 bs in the last minute (1 not logged one by one)"])
    }

    @Test func theNumberOfKindsIsBounded() {
        let throttle = LogThrottle(window: .seconds(60), burst: 1)
        var written = 0
        for i in 0..<(LogThrottle.maxKinds * 2) {
            written += throttle.admit("k\(i)", summary: "ks") { "line" }.count
        }
        #expect(written == LogThrottle.maxKinds)
    }
}
