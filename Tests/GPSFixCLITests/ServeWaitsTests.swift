import Foundation
import GPSTestSupport
import Glibc
import Testing

/// A service comes up before its receiver: `serve` waits for what is not there yet (a device
/// not plugged in, gpsd or a network stream not started) and says so, where a one-shot `fix`
/// fails at once.
@Suite("gpsfix serve waits for its source", .serialized, .timeLimit(.minutes(1)),
       .enabled(if: RecordTests.socatAvailable && GPSFixBinary.isAvailable, "needs /usr/bin/socat and the built gpsfix"))
struct ServeWaitsTests {
    @Test("A receiver plugged in after serve started is opened and served")
    func deviceAppears() async throws {
        let dir = try TemporaryDirectory()
        let device = dir.path + "/gps", feed = dir.path + "/feed"
        let serve = try await ServeProcess(["--device", device, "--baud", "9600"])
        defer { _ = serve.process.isRunning ? serve.process.terminate() : () }
        #expect(await waitUntil(.seconds(5)) { serve.stderr.contains("gpsfix: \(device): no such device. Is the receiver plugged in? — waiting for it to appear") },
                "\(serve.stderr)")
        #expect(!serve.stderr.contains("\(device): \(device)"), "the path is said once")
        #expect(serve.process.isRunning)

        // When the receiver is plugged in
        let socat = try PtyPair(device: device, feed: feed)
        defer { socat.stop() }
        #expect(await waitUntil(.seconds(5)) { serve.stderr.contains("\(device): open, waiting for a fix") }, "\(serve.stderr)")
        let client = try LineClient(port: serve.port)
        client.send("?WATCH={\"enable\":true,\"json\":true};")
        let feeding = ServeDeviceTests.feeding(feed, from: 0)
        defer { feeding.cancel() }
        var tpv: String?
        while let line = client.readLine(within: 10) {
            if line.contains("\"class\":\"TPV\"") { tpv = line; break }
        }
        #expect(tpv?.contains("\"device\":\"\(device)\"") == true, "\(serve.stderr)")
        #expect(await serve.stop() == 0)

        // A one-shot fix on a missing device still fails at once.
        let fix = try #require(await gpsfix("fix", "--device", dir.path + "/none", limit: .seconds(5)))
        #expect(fix.status == 1)
        #expect(fix.stderr.contains("no such device"))
    }

    @Test("watch waits for a receiver too (a person plugs it in after starting), but not for gpsd")
    func watchWaitsForReceiver() async throws {
        let dir = try TemporaryDirectory()
        let device = dir.path + "/gps", feed = dir.path + "/feed"
        let watch = try await GPSFixProcess(["watch", "--device", device, "--baud", "9600", "--json"],
                                            announcement: "— waiting for it to appear")
        #expect(watch.process.isRunning)
        let socat = try PtyPair(device: device, feed: feed)
        defer { socat.stop() }
        #expect(await waitUntil(.seconds(5)) { watch.stderr.contains("\(device): open, waiting for a fix") }, "\(watch.stderr)")
        #expect(await watch.stop(SIGINT) == 0)

        let port = try freeLoopbackPort()
        let gpsd = try #require(await gpsfix("watch", "--gpsd", "127.0.0.1:\(port)", limit: .seconds(10)))
        #expect(gpsd.status == 1, "watch does not wait for gpsd: \(gpsd)")
    }

    @Test("With no receiver named and none plugged in, serve waits for the first one discovery finds")
    func discoveryWaits() async throws {
        // This machine has no GPS: discovery finds nothing (checked first, or the test says nothing).
        let found = try #require(await gpsfix("devices", limit: .seconds(10)))
        try #require(found.stdout.contains("No GPS receiver") || found.status != 0 || found.stdoutLines.isEmpty, "a receiver is plugged in here: \(found)")
        let serve = try await ServeProcess([])
        #expect(await waitUntil(.seconds(5)) { serve.stderr.contains("— waiting for it to appear") }, "\(serve.stderr)")
        #expect(serve.stderr.contains("from a GPS receiver; Ctrl-C to stop"), "\(serve.stderr)")
        try await Task.sleep(for: .milliseconds(500))
        #expect(serve.process.isRunning)
        #expect(await serve.stop() == 0)
    }

    @Test("serve --gpsd and --nmea-tcp wait for a peer that is not up yet")
    func peersAbsent() async throws {
        let port = try freeLoopbackPort()
        for source in [["--gpsd", "127.0.0.1:\(port)"], ["--nmea-tcp", "127.0.0.1:\(port)"]] {
            let serve = try await ServeProcess(source)
            #expect(await waitUntil(.seconds(5)) { serve.stderr.contains("— waiting for it to appear") }, "\(serve.stderr)")
            try await Task.sleep(for: .milliseconds(600))
            #expect(serve.process.isRunning, "\(source): \(serve.stderr)")
            #expect(await serve.stop() == 0)
        }
    }
}
