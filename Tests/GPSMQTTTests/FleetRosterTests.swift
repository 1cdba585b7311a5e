@testable import GPSMQTT
import Testing

/// The fleet reader's bounds, on a clock the test turns: what a vehicle may cost is decided
/// here, whatever publishers do.
@Suite("A fleet's roster: the cap, names, a flood, forgetting")
struct FleetRosterTests {
    private func roster(max: Int = 3, forgetAfter: Duration = .seconds(600)) -> FleetRoster {
        var limits = FleetLimits()
        limits.maxVehicles = max
        limits.forgetAfter = forgetAfter
        return FleetRoster(limits: limits)
    }

    @Test("Vehicle N+1 is refused while N are known, and taken once one is forgotten")
    func cap() {
        var r = roster(max: 3, forgetAfter: .seconds(10))
        for name in ["van1", "van2", "van3"] { #expect(r.admit(name, creating: true, now: 0) == .new) }
        #expect(r.admit("van1", creating: true, now: 0.1) == .known)
        #expect(r.admit("van4", creating: true, now: 0.2) == .refused(.full(limit: 3)))
        #expect(r.vehicles.count == 3)
        // van1 keeps talking; the other two fall silent and are forgotten after 10 s.
        #expect(r.admit("van1", creating: true, now: 9) == .known)
        #expect(r.forget(now: 10.5).map(\.vehicle) == ["van2", "van3"])
        #expect(r.admit("van4", creating: true, now: 11) == .new)
        #expect(r.vehicles.count == 2)
    }

    @Test("A status of a vehicle never heard from makes none; an offline one is forgotten after the time, counted from offline")
    func statusesAndOffline() {
        var r = roster(forgetAfter: .seconds(5))
        #expect(r.admit("ghost", creating: false, now: 0) == nil)
        #expect(r.vehicles.isEmpty)
        #expect(r.admit("van1", creating: true, now: 0) == .new)
        let first = r.mark("van1", offline: true, now: 2)
        let second = r.mark("van1", offline: true, now: 2.5)
        #expect(first)
        #expect(!second, "offline twice is no news")
        #expect(r.forget(now: 6.5).isEmpty, "4.5 s offline")
        let gone = r.forget(now: 7.5)
        #expect(gone.map(\.vehicle) == ["van1"] && gone.first?.wasOffline == true)
        #expect(r.vehicles.isEmpty)
    }

    @Test("A name empty, over 64 bytes (of UTF-8) or not showing as itself is refused")
    func names() {
        var r = roster()
        #expect(r.admit(String(repeating: "a", count: 64), creating: true, now: 0) == .new)
        #expect(r.admit(String(repeating: "a", count: 65), creating: true, now: 0) == .refused(.badName(limit: 64)))
        // 22 × 3 bytes = 66: 22 characters, still too long.
        #expect(r.admit(String(repeating: "€", count: 22), creating: true, now: 0) == .refused(.badName(limit: 64)))
        #expect(r.admit("", creating: true, now: 0) == .refused(.badName(limit: 64)))
        // A name that would not show as itself: a bidi override, a zero-width space, a control.
        for name in ["van\u{202E}7", "van\u{200B}7", "van\u{1B}[2J"] {
            #expect(r.admit(name, creating: true, now: 0) == .refused(.badName(limit: 64)), "\(name.unicodeScalars.map(\.value))")
        }
        #expect(r.admit("fourgon-été", creating: true, now: 0) == .new, "plain text beyond ASCII is a name")
        #expect(r.vehicles.count == 2)
    }

    @Test("One vehicle's flood is cut to its rate; another vehicle is untouched by it")
    func flood() {
        var r = roster()
        var taken = 0, dropped = 0
        // 10,000 reports in one second from van1.
        for i in 0..<10_000 {
            switch r.admit("van1", creating: true, now: Double(i) / 10_000) {
            case .new?, .known?: taken += 1
            case .refused(.flooding)?: dropped += 1
            default: Issue.record("unexpected verdict")
            }
        }
        // The burst, plus what the rate refills over the second.
        #expect(taken >= 100 && taken <= 151, "\(taken)")
        #expect(dropped == 10_000 - taken)
        #expect(r.admit("van2", creating: true, now: 1) == .new)
        #expect(r.admit("van2", creating: true, now: 1) == .known)
        // And a second later van1 is read again.
        #expect(r.admit("van1", creating: true, now: 2) == .known)
    }
}
