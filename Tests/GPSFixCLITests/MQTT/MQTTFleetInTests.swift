import Foundation
import GPSTestSupport
import Testing

/// `serve --mqtt-in`: a fleet on a real mosquitto, two publishers, re-served over gpsd's
/// protocol with one device per vehicle, read by gpspipe.
@Suite("serve --mqtt-in re-serves a fleet", .serialized,
       .enabled(if: GPSFixBinary.isAvailable && MQTTBroker.isAvailable && ServeTools.has(ServeTools.gpspipe),
                "needs mosquitto, mosquitto-clients, gpspipe and the built gpsfix"),
       .timeLimit(.minutes(1)))
struct MQTTFleetInTests {
    @Test("Two publishers under fleet/ are two devices to gpspipe, each TPV carrying its vehicle")
    func twoVehicles() async throws {
        let broker = try await MQTTBroker()
        let dir = try TemporaryDirectory()
        let a = try dir.write("a.nmea", TestCapture.text((0..<40).map(TestCapture.epoch)))
        let b = try dir.write("b.nmea", TestCapture.text((10..<50).map { TestCapture.epoch($0 % 60) }))
        let van1 = try await mqttServe(broker, prefix: "fleet/van1", ["--replay", a, "--speed", "4"])
        let van2 = try await mqttServe(broker, prefix: "fleet/van2", ["--replay", b, "--speed", "4"])

        let url = "mqtt://127.0.0.1:\(broker.port)/fleet/+"
        let fleet = try await ServeProcess(["--mqtt-in", url])
        #expect(fleet.stderr.contains("one device per publisher"))
        // A vehicle is a device once its first report has come through the broker (a quarter
        // of a second into its replay, and its first fix later in a debug build): wait for
        // both to be heard before gpspipe asks.
        let asker = try LineClient(port: fleet.port)
        _ = asker.readLine()
        var heard = false
        for _ in 0..<50 where !heard {
            asker.send("?DEVICES;")
            let devices = asker.readLine(within: 2) ?? ""
            heard = devices.contains("\"path\":\"van1\"") && devices.contains("\"path\":\"van2\"")
            if !heard { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(heard, "no vehicle heard within 5 s")
        let piped = try await runTool(ServeTools.gpspipe, ["-w", "-n", "24", "127.0.0.1:\(fleet.port)"])
        #expect(piped.status == 0, "\(piped.err)")
        let reports = piped.out.components(separatedBy: .newlines).compactMap { jsonObject($0) }
        let tpvDevices = Set(reports.filter { $0["class"] as? String == "TPV" }.compactMap { $0["device"] as? String })
        #expect(tpvDevices == ["van1", "van2"], "\(piped.out)\n\(fleet.stderr)")
        let listed = reports.first { $0["class"] as? String == "DEVICES" }?["devices"] as? [[String: Any]]
        #expect(listed?.isEmpty == false, "DEVICES lists the vehicles heard of by then: \(piped.out)")

        // A vehicle that goes dark (its publisher killed: the broker says offline) is a device gone.
        let watcher = try LineClient(port: fleet.port)
        _ = watcher.readLine()
        watcher.send("?WATCH={\"enable\":true,\"json\":true,\"device\":\"van2\"};")
        _ = watcher.readLines(2)
        kill(van2.pid, SIGKILL)
        var gone = false
        while let line = watcher.readLine(within: 5) {
            if line.contains("\"class\":\"DEVICE\"") && line.contains("\"path\":\"van2\"") && line.contains("\"activated\":0") {
                gone = true
                break
            }
        }
        #expect(gone, "\(fleet.stderr)")
        #expect(await fleet.stop() == 0)
        _ = await van1.stop()
    }

    @Test("--mqtt-in alone: other sources or --no-listen beside it are usage errors")
    func refusals() async throws {
        let dir = try TemporaryDirectory()
        let capture = try dir.drive()
        for extra in [["--replay", capture], ["--no-listen"]] {
            let result = try #require(await runGPSFix(["serve", "--mqtt-in", "mqtt://127.0.0.1:1/fleet/+"] + extra))
            #expect(result.status == 64, "\(extra): \(result)")
        }
    }
}
