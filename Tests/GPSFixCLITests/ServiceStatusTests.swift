import GPSLocation
import NMEA
import Testing
@testable import GPSFixCLI

/// What `systemctl status` shows of serve, and how often it changes. Times are given, so
/// the pacing is checked without waiting.
@Suite("serve's status for the service manager")
struct ServiceStatusTests {
    static func fix(_ mode: FixMode, used: Int?) -> LocationEvent {
        var fix = Fix()
        fix.mode = mode
        fix.satellitesUsed = used
        return .fix(fix)
    }

    static func status(_ event: LocationEvent) -> ServiceStatus? {
        ServiceStatus.after(event, source: "/dev/ttyACM0", reception: nil)
    }

    @Test("Fixes read as their mode and the satellites used; the source's news as serve logs it")
    func words() {
        #expect(Self.status(Self.fix(.threeD, used: 9))?.text == "/dev/ttyACM0: 3D fix, 9 satellites used")
        #expect(Self.status(Self.fix(.twoD, used: 1))?.text == "/dev/ttyACM0: 2D fix, 1 satellite used")
        #expect(Self.status(Self.fix(.noFix, used: nil))?.text == "/dev/ttyACM0: no fix")
        #expect(Self.status(.status(.started))?.text == "/dev/ttyACM0: open, waiting for a fix")
        #expect(Self.status(.status(.waiting(reason: "not plugged in")))?.text == "/dev/ttyACM0: not plugged in — waiting for it to appear")
        #expect(Self.status(.status(.disconnected(reason: "unplugged")))?.text == "/dev/ttyACM0: unplugged — waiting for it to come back")
        #expect(Self.status(.error(.deviceGone(path: "/dev/ttyACM0")))?.kind == .failed)
        #expect(Self.status(.sentence("$GPGGA")) == nil && Self.status(.status(.reconnecting(attempt: 2))) == nil)
    }

    @Test("The first status goes at once; the same words are never sent twice")
    func firstAndRepeated() {
        var pacer = StatusPacer()
        let three = ServiceStatus(text: "a: 3D fix, 9 satellites used", kind: .fix(.threeD))

        #expect(pacer.offer(three, now: 100) == three)
        #expect(pacer.offer(three, now: 200) == nil)
        #expect(pacer.due(now: 300) == nil)
    }

    @Test("A change of kind waits out a second; a change of detail ten; the newest is what goes")
    func pacing() {
        var pacer = StatusPacer()
        let nine = ServiceStatus(text: "a: 3D fix, 9 satellites used", kind: .fix(.threeD))
        let ten = ServiceStatus(text: "a: 3D fix, 10 satellites used", kind: .fix(.threeD))
        let eleven = ServiceStatus(text: "a: 3D fix, 11 satellites used", kind: .fix(.threeD))
        let lost = ServiceStatus(text: "a: no fix", kind: .fix(.noFix))
        _ = pacer.offer(nine, now: 0)

        // Detail: held for ten seconds, then the newest goes.
        #expect(pacer.offer(ten, now: 1) == nil)
        #expect(pacer.offer(eleven, now: 2) == nil)
        #expect(pacer.due(now: 9.9) == nil)
        #expect(pacer.due(now: 10) == eleven)
        #expect(pacer.due(now: 11) == nil, "sent once")

        // Kind: a second after the last.
        #expect(pacer.offer(lost, now: 10.5) == nil)
        #expect(pacer.due(now: 11) == lost)
    }

    @Test("Going back to what was last sent cancels what was held")
    func backToSent() {
        var pacer = StatusPacer()
        let nine = ServiceStatus(text: "a: 3D fix, 9 satellites used", kind: .fix(.threeD))
        let ten = ServiceStatus(text: "a: 3D fix, 10 satellites used", kind: .fix(.threeD))
        _ = pacer.offer(nine, now: 0)

        #expect(pacer.offer(ten, now: 1) == nil)
        #expect(pacer.offer(nine, now: 2) == nil)
        #expect(pacer.due(now: 20) == nil)
    }
}
