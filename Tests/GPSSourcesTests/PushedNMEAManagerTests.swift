import Dispatch
import Foundation
import GPSLocation
import GPSSources
import GPSTestSupport
import NMEA
import Synchronization
import Testing

@Suite("PushedNMEAManager: bytes an app receives itself, through the same reader")
struct PushedNMEAManagerTests {
    func start(_ manager: PushedNMEAManager) -> RecordingDelegate {
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        manager.startUpdatingLocation()
        return delegate
    }

    @Test("Bytes fed in small pieces from another thread give the fixes a replay of them gives, then .finished")
    func sameFixesAsReplay() async throws {
        let text = SmallCapture.text(epochs: 5, header: false)
        let manager = PushedNMEAManager(name: "BLE GNSS")
        let delegate = start(manager)
        defer { manager.stopUpdatingLocation() }
        let bytes = Array(text.utf8)
        let fed = Eventually<Bool>()
        spawnFeeder {
            var all = true
            for start in stride(from: 0, to: bytes.count, by: 7) {
                all = manager.feed(bytes[start..<min(start + 7, bytes.count)]) && all
            }
            manager.finish()
            fed.fulfill(all)
        }
        #expect(await fed.value(within: .seconds(10)) == true)
        #expect(await waitUntil(.seconds(10)) { delegate.ended })

        let directory = try TemporaryDirectory()
        let replay = ReplayManager(path: try directory.write("five.nmea", SmallCapture.text(epochs: 5)), speed: .maximum)
        let replayed = RecordingDelegate()
        replay.delegate = replayed
        replay.startUpdatingLocation()
        #expect(await waitUntil(.seconds(10)) { replayed.ended })

        #expect(delegate.fixes.count == 5)
        #expect(delegate.fixes == replayed.fixes)
        #expect(delegate.arrivals.allSatisfy { $0 != nil })
        #expect(delegate.events.first == .status(.started))
        guard case .status(.finished(let statistics))? = delegate.events.last else {
            Issue.record("ended with \(String(describing: delegate.events.last))")
            return
        }
        #expect(statistics.epochs.fixes == 5)
        #expect(manager.statistics?.epochs.fixes == 5)
        #expect(manager.reception?.bytes == bytes.count)
        #expect(manager.reception?.source == "BLE GNSS")
        #expect(!manager.feed("late"))
    }

    @Test("fail(_:) ends the run with that error once what was fed before it is read")
    func failAfterBytes() async {
        let manager = PushedNMEAManager(name: "ws://rover")
        let delegate = start(manager)
        defer { manager.stopUpdatingLocation() }
        #expect(manager.feed(SmallCapture.text(epochs: 2)))
        manager.fail(.streamUnavailable(peer: "ws://rover", reason: "the websocket closed"))
        #expect(await waitUntil(.seconds(10)) { delegate.ended })
        #expect(delegate.fixes.count == 2)
        #expect(delegate.events.last == .error(.streamUnavailable(peer: "ws://rover", reason: "the websocket closed")))
        #expect(!manager.feed("$GPGGA"))
        // Released before it was told: a start now begins a new run.
        manager.startUpdatingLocation()
        #expect(manager.feed(SmallCapture.text(epochs: 1)))
        manager.finish()
        #expect(await waitUntil(.seconds(10)) { delegate.fixes.count == 3 && delegate.ended })
    }

    @Test("Bytes fed before a start or after a stop are refused, and the delegate hears nothing after the stop")
    func refusedOutsideARun() async {
        let manager = PushedNMEAManager(name: "test feed")
        #expect(!manager.feed(SmallCapture.text(epochs: 1)))
        let delegate = start(manager)
        // An epoch is told when the next one begins: two fed, one told.
        #expect(manager.feed(SmallCapture.text(epochs: 2, header: false)))
        #expect(await waitUntil(.seconds(10)) { delegate.fixes.count >= 1 })
        manager.stopUpdatingLocation()
        let heard = delegate.events.count
        #expect(!manager.feed(SmallCapture.text(epochs: 1)))
        try? await Task.sleep(for: .milliseconds(100))
        #expect(delegate.events.count == heard)
    }

    @Test("A delegate slower than the feed holds the feeding thread back, not memory; a stop releases it",
          arguments: [1, 320])
    func boundedWhileTheDelegateIsBusy(epochsAFeed: Int) async {
        let manager = PushedNMEAManager(name: "fast feed")
        let busy = DispatchSemaphore(value: 0)
        let delegate = BlockingDelegate(busy)
        manager.delegate = delegate
        manager.startUpdatingLocation()
        defer { busy.signal() }
        let epoch = Array(SmallCapture.text(epochs: epochsAFeed, header: false).utf8)
        let accepted = Atomic<Int>(0)
        let returned = Eventually<Bool>()
        spawnFeeder {
            // 4 MiB and more, were nothing holding it back.
            for _ in 0..<(4 << 20) / epoch.count {
                guard manager.feed(epoch) else { break }
                accepted.add(epoch.count, ordering: .relaxed)
            }
            returned.fulfill(true)
        }
        #expect(await waitUntil(.seconds(10)) { delegate.calls > 0 })
        try? await Task.sleep(for: .milliseconds(300))
        let held = accepted.load(ordering: .relaxed)
        print("PushedNMEAManager: \(held) bytes taken, \(epoch.count) a feed, while the delegate was busy")
        #expect(held < 1 << 20, "\(held) bytes taken while nothing read them")
        #expect(returned.fulfillments == 0)
        manager.stopUpdatingLocation()
        #expect(await returned.value(within: .seconds(2)) == true)
    }
}

private final class BlockingDelegate: LocationManagerDelegate {
    private let busy: DispatchSemaphore
    private let count = Atomic<Int>(0)
    init(_ busy: DispatchSemaphore) { self.busy = busy }
    var calls: Int { count.load(ordering: .relaxed) }
    func locationManager(_ manager: any LocationManagerInterface, didUpdateFix fix: Fix) {
        count.add(1, ordering: .relaxed)
        busy.wait()
        busy.signal()
    }
    func locationManager(_ manager: any LocationManagerInterface, didFailWithError error: LocationError) {}
}

/// Feeds from a thread of its own, as a transport's callback would (never the test's pool).
private func spawnFeeder(_ body: @escaping @Sendable () -> Void) {
    Thread.detachNewThread(body)
}
