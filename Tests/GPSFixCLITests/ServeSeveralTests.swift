import Foundation
import GPSTestSupport
import Glibc
import Testing

/// `serve` with two receivers at once (two socat ptys, each fed like a USB receiver), read by
/// gpspipe and by a client watching one device, as on a boat with two GPSes.
@Suite("gpsfix serve with two receivers", .serialized, .timeLimit(.minutes(1)),
       .enabled(if: RecordTests.socatAvailable && GPSFixBinary.isAvailable && ServeTools.has(ServeTools.gpspipe),
                "needs /usr/bin/socat, gpspipe and the built gpsfix"))
struct ServeSeveralTests {
    @Test("Both are devices: DEVICES lists both, each TPV carries its own, and a watch of one device gets that one only")
    func twoReceivers() async throws {
        let dir = try TemporaryDirectory()
        let first = dir.path + "/gps0", second = dir.path + "/gps1"
        let socat0 = try PtyPair(device: first, feed: dir.path + "/feed0")
        defer { socat0.stop() }
        let socat1 = try PtyPair(device: second, feed: dir.path + "/feed1")
        defer { socat1.stop() }
        let serve = try await ServeProcess(["--device", first, "--device", second, "--baud", "9600"])
        try #require(await waitUntil(.seconds(5)) {
            serve.stderr.contains("\(first): open, waiting for a fix") && serve.stderr.contains("\(second): open, waiting for a fix")
        }, "\(serve.stderr)")
        #expect(serve.stderr.contains("from \(first), \(second); Ctrl-C to stop"))
        let feeding0 = ServeDeviceTests.feeding(dir.path + "/feed0", from: 0)
        defer { feeding0.cancel() }
        let feeding1 = ServeDeviceTests.feeding(dir.path + "/feed1", from: 30)
        defer { feeding1.cancel() }

        // gpspipe, as a gpsd user would read it
        let piped = try await runTool(ServeTools.gpspipe, ["-w", "-n", "30", "127.0.0.1:\(serve.port)"])
        #expect(piped.status == 0, "\(piped.err)")
        let reports = piped.out.components(separatedBy: .newlines).compactMap { jsonObject($0) }
        let tpvDevices = Set(reports.filter { $0["class"] as? String == "TPV" }.compactMap { $0["device"] as? String })
        #expect(tpvDevices == [first, second], "\(piped.out)")

        // A client watching the second receiver alone
        let client = try LineClient(port: serve.port)
        _ = client.readLine()
        client.send("?WATCH={\"enable\":true,\"json\":true,\"device\":\"\(second)\"};")
        let greeting = try #require(client.readLine())
        let devices = try #require(jsonObject(greeting)?["devices"] as? [[String: Any]])
        #expect(Set(devices.compactMap { $0["path"] as? String }) == [first, second])
        #expect(client.readLine()?.contains("\"device\":\"\(second)\"") == true, "the WATCH says which device")
        let watched = client.readLines(10, within: 5).compactMap { jsonObject($0) }
        #expect(watched.count == 10)
        #expect(watched.allSatisfy { $0["device"] as? String == second }, "\(watched)")
        #expect(await serve.stop() == 0)
    }

    @Test("A source that fails is logged and the others are served on")
    func oneFails() async throws {
        let dir = try TemporaryDirectory()
        let capture = try dir.drive(epochs: 60)
        let notNMEA = try dir.write("words.txt", String(repeating: "no sentences here\n", count: 20))
        let serve = try await ServeProcess(["--replay", capture, "--replay", notNMEA, "--speed", "4"])
        #expect(await waitUntil(.seconds(5)) { serve.stderr.contains("(still serving the other sources)") }, "\(serve.stderr)")
        let client = try LineClient(port: serve.port)
        _ = client.readLine()
        client.send("?WATCH={\"enable\":true,\"json\":true};")
        let lines = client.readLines(6, within: 5)
        #expect(lines.contains { $0.contains("\"class\":\"TPV\"") && $0.contains(capture) }, "\(lines)")
        #expect(serve.process.isRunning)
        #expect(await serve.stop() == 0)
    }
}
