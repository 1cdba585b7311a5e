import Foundation
import GPSTestSupport
import Glibc
import Testing

/// Ctrl-C or SIGTERM while `gpsfix fix` waits: it says so at once and exits as a shell
/// reports an interrupted process, rather than wait out its timeout.
@Suite("gpsfix fix interrupted",
       .enabled(if: GPSFixBinary.isAvailable, "gpsfix binary not found beside the test bundle (build it with 'swift build')"),
       .timeLimit(.minutes(1)))
struct FixInterruptTests {
    @Test("A signal during a replay without a fix: 128 + the signal, said at once", arguments: [
        (SIGINT, 130, "Ctrl-C"), (SIGTERM, 143, "SIGTERM"),
    ] as [(Int32, Int32, String)])
    func replay(signal: Int32, status: Int32, name: String) async throws {
        // Given: a minute without a fix, replayed in real time; the default 30 s timeout
        let dir = try TemporaryDirectory()
        let path = try dir.noFix(epochs: 60)

        // When: the signal comes once gpsfix is listening for it
        let sent = Eventually<ContinuousClock.Instant>()
        let result = try #require(await runGPSFix(["fix", "--replay", path, "--speed", "1"], limit: .seconds(20)) { pid in
            guard await waitUntil(.seconds(10), { catches(pid, SIGINT) && catches(pid, SIGTERM) }) else { return }
            try? await Task.sleep(for: .milliseconds(100))
            sent.fulfill(ContinuousClock.now)
            kill(pid, signal)
        })
        let ended = ContinuousClock.now

        // Then
        let at = try #require(await sent.value(within: .seconds(1)), "gpsfix never installed its handlers")
        #expect(!result.signalled, "ended by the signal's default action, not by gpsfix")
        #expect(result.status == status, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "gpsfix: Interrupted (\(name)) before a fix arrived.\n")
        #expect(ended - at < .seconds(3), "took \(ended - at) after the signal")
    }

    @Test("Ctrl-C while a silent receiver is read: 130, at once",
          .enabled(if: RecordTests.socatAvailable, "needs /usr/bin/socat"))
    func silentReceiver() async throws {
        // Given: a receiver on a pty that sends nothing
        let dir = try TemporaryDirectory()
        let device = dir.path + "/gps", feed = dir.path + "/feed"
        let socat = try PtyPair(device: device, feed: feed)
        defer { socat.stop() }

        // When
        let sent = Eventually<ContinuousClock.Instant>()
        let result = try #require(await runGPSFix(["fix", "--device", device, "--baud", "9600"], limit: .seconds(20)) { pid in
            guard await waitUntil(.seconds(10), { catches(pid, SIGINT) }) else { return }
            try? await Task.sleep(for: .milliseconds(300))
            sent.fulfill(ContinuousClock.now)
            kill(pid, SIGINT)
        })
        let ended = ContinuousClock.now

        // Then
        let at = try #require(await sent.value(within: .seconds(1)), "gpsfix never installed its handlers")
        #expect(result.status == 130, "\(result)")
        #expect(result.stderr.hasSuffix("gpsfix: Interrupted (Ctrl-C) before a fix arrived.\n"), "\(result)")
        #expect(ended - at < .seconds(3), "took \(ended - at) after the signal")
    }
}
