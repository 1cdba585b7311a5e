import Foundation
import GPSTestSupport
import Glibc
import Testing

/// `gpsfix serve --device` on a real pseudo-terminal (socat), unplugged and plugged back in:
/// what a gpsd client sees of a USB receiver coming and going.
@Suite("gpsfix serve from a serial receiver", .serialized, .timeLimit(.minutes(1)),
       .enabled(if: RecordTests.socatAvailable && GPSFixBinary.isAvailable, "needs /usr/bin/socat and the built gpsfix"))
struct ServeDeviceTests {
    /// Writes one epoch every 100 ms into `feed` until cancelled, from second `from` on.
    static func feeding(_ feed: String, from: Int) -> Task<Void, Never> {
        Task.detached {
            guard let writer = FileHandle(forWritingAtPath: feed) else { return }
            var second = from
            while !Task.isCancelled {
                let text = TestCapture.epoch(second % 60).map { $0 + "\r\n" }.joined()
                try? writer.write(contentsOf: Data(text.utf8))
                second += 1
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    @Test("Watchers get TPVs; an unplug is a DEVICE with activated 0; the replug a DEVICE with its time, then TPVs again")
    func unplugAndReplug() async throws {
        // Given a receiver on a pty, served, and a client watching
        let dir = try TemporaryDirectory()
        let device = dir.path + "/gps", feed = dir.path + "/feed"
        var socat = try PtyPair(device: device, feed: feed)
        defer { socat.stop() }
        let serve = try await ServeProcess(["--device", device, "--baud", "9600"])
        // The port opens on the source's thread while the server already listens: a watch sent
        // before it opened would rightly list no device yet.
        try #require(await waitUntil(.seconds(5)) { serve.stderr.contains("open, waiting for a fix") }, "\(serve.stderr)")
        let client = try LineClient(port: serve.port)
        client.send("?WATCH={\"enable\":true,\"json\":true};")
        var feeding = Self.feeding(feed, from: 0)
        let before = client.readLines(12, within: 10)

        // When the receiver is unplugged
        feeding.cancel()
        socat.stop()
        var gone: String?
        while let line = client.readLine(within: 5) {
            if line.hasPrefix("{\"class\":\"DEVICE\"") { gone = line; break }
        }

        // And plugged back in
        socat = try PtyPair(device: device, feed: feed)
        feeding = Self.feeding(feed, from: 30)
        defer { feeding.cancel() }
        var back: [String] = []
        while let line = client.readLine(within: 10) {
            back.append(line)
            if line.contains("\"class\":\"TPV\"") && line.contains("12:00:3") { break }
        }

        // Then
        #expect(before.contains { $0.hasPrefix("{\"class\":\"DEVICES\",\"devices\":[{\"class\":\"DEVICE\",\"path\":\"\(device)\"") },
                "an open receiver is listed before it has sent anything: \(before)")
        #expect(before.contains { $0.hasPrefix("{\"class\":\"TPV\"") && $0.contains("\"lat\":48.117") }, "\(before)\n\(serve.stderr)")
        #expect(gone == "{\"class\":\"DEVICE\",\"path\":\"\(device)\",\"activated\":0}", "\(serve.stderr)")
        let reactivated = back.first { $0.hasPrefix("{\"class\":\"DEVICE\"") }
        #expect(reactivated?.contains("\"activated\":\"20") == true, "\(back)")
        #expect(back.last?.contains("\"class\":\"TPV\"") == true, "fixes resume after the replug: \(back)\n\(serve.stderr)")
        #expect(await serve.stop() == 0)
    }
}
