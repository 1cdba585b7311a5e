import Foundation
import GPSServer
import GPSTestSupport
import Synchronization
import Testing

/// A source's reports go out on the source's own thread, as gpsd writes them on the thread
/// that parsed: no hand-over to the server's loop between an epoch's last byte and its TPV.
@Suite("Reports written by the publishing thread", .timeLimit(.minutes(1)))
struct DirectWriteTests {
    @Test("A watcher gets its TPV while the server's loop is held up: the publishing thread wrote it")
    func whileTheLoopIsHeld() async throws {
        // Given a server whose loop can be held in its heartbeat, and a client watching
        let hold = Mutex<(asked: Bool, held: Bool)>((false, false))
        let heartbeat = Heartbeat(every: .milliseconds(5)) {
            guard hold.withLock({ $0.asked }) else { return }
            hold.withLock { $0.held = true }
            let until = Date().addingTimeInterval(10)
            while hold.withLock({ $0.asked }) && Date() < until { usleep(1000) }
            hold.withLock { $0.held = false }
        }
        let harness = try ServerHarness(heartbeat: heartbeat)
        let client = try harness.watcher()

        // When the loop is held, and the source publishes
        hold.withLock { $0.asked = true }
        #expect(await waitUntil(.seconds(5)) { hold.withLock { $0.held } })
        harness.server.publish(.status(.started))
        harness.server.publish(.fix(Sample.fix))
        let lines = client.readLines(2, within: 3)
        let stillHeld = hold.withLock { $0.held }
        hold.withLock { $0.asked = false }

        // Then the device's news and the TPV arrived all the same
        #expect(stillHeld, "the loop was held the whole time")
        #expect(lines.count == 2 && lines[0].hasPrefix("{\"class\":\"DEVICE\"") && lines[1].hasPrefix("{\"class\":\"TPV\""), "\(lines)")
        #expect(await harness.stop())
    }

    @Test("While a source publishes fast, a watch that starts gets DEVICES, WATCH, then whole TPVs; one that stops gets nothing after its WATCH")
    func repliesAndReportsInOrder() async throws {
        // Given a source publishing a fix every ~0.2 ms from its own thread
        let harness = try ServerHarness()
        harness.server.publish(.status(.started))
        let stop = Atomic<Bool>(false)
        let server = harness.server
        Thread.detachNewThread {
            while !stop.load(ordering: .relaxed) {
                server.publish(.fix(Sample.fix))
                usleep(200)
            }
        }
        defer { stop.store(true, ordering: .relaxed) }

        for round in 0..<10 {
            // When a client watches, reads some reports, and stops watching
            let client = try harness.client()
            #expect(client.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true)
            client.send("?WATCH={\"enable\":true,\"json\":true};")
            let first = client.readLines(12)
            client.send("?WATCH={\"enable\":false};")
            var afterOff: [String] = []
            var sawOff = false
            while let line = client.readLine(within: sawOff ? 0.3 : 3) {
                if sawOff { afterOff.append(line) }
                if line.hasPrefix("{\"class\":\"WATCH\",\"enable\":false") { sawOff = true }
            }

            // Then the replies come before any report, every report is whole, and nothing
            // follows the reply that stops the watch
            #expect(first.count == 12, "round \(round)")
            #expect(first.first?.hasPrefix("{\"class\":\"DEVICES\"") == true, "round \(round): \(first.prefix(2))")
            #expect(first.dropFirst().first?.hasPrefix("{\"class\":\"WATCH\",\"enable\":true") == true, "round \(round): \(first.prefix(2))")
            for line in first.dropFirst(2) {
                #expect(line.hasPrefix("{\"class\":\"TPV\"") && line.hasSuffix("}") && (try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil,
                        "round \(round): \(line.prefix(80))")
            }
            #expect(sawOff, "round \(round)")
            #expect(afterOff.isEmpty, "round \(round): \(afterOff.prefix(2))")
        }
        stop.store(true, ordering: .relaxed)
        #expect(await harness.stop())
    }
}
