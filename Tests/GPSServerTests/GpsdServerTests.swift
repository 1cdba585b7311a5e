import Foundation
import NMEA
@testable import GPSServer
import GPSOutput
import GPSTestSupport
import Testing

@Suite("gpsd-protocol server", .timeLimit(.minutes(1)))
struct GpsdServerTests {
    @Test("A client is greeted with VERSION; a watch gets DEVICES, then WATCH, then every report")
    func watchFlow() async throws {
        // Given a server whose device has delivered one epoch
        let harness = try ServerHarness()
        harness.server.publish(.status(.started))
        for event in Sample.events(0..<1) { harness.server.publish(event) }
        let client = try harness.client()

        // When the client watches, then two more epochs arrive
        let version = client.readLine()
        client.send("?WATCH={\"enable\":true,\"json\":true};")
        let replies = client.readLines(2)
        let events = Sample.events(1..<3)
        for event in events { harness.server.publish(event) }
        let reports = client.readLines(events.count)

        // Then
        #expect(version?.hasPrefix("{\"class\":\"VERSION\",\"release\":\"gpsfix test\"") == true)
        #expect(replies.count == 2 && replies[0].hasPrefix("{\"class\":\"DEVICES\",\"devices\":[{\"class\":\"DEVICE\",\"path\":\"/dev/ttyTEST\""), "\(replies)")
        #expect(replies.last?.hasPrefix("{\"class\":\"WATCH\",\"enable\":true,\"json\":true,") == true)
        // Each report is exactly what `gpsfix watch --json` prints, ended by CR LF.
        let expected = events.map { event -> String in
            var w = ByteWriter()
            switch event {
            case .fix(let f): GPSDJSON.tpv(f, device: "/dev/ttyTEST", into: &w)
            case .sky(let s): GPSDJSON.sky(s, device: "/dev/ttyTEST", into: &w)
            default: break
            }
            return String(decoding: w.bytes.dropLast(), as: UTF8.self)
        }
        #expect(reports == expected)
        #expect(await harness.stop())
    }

    @Test("Only watchers get reports; NMEA watchers get the sentences and JSON watchers do not")
    func policies() async throws {
        let harness = try ServerHarness()
        let idle = try harness.client()
        _ = idle.readLine()
        let json = try harness.watcher()
        let nmea = try harness.watcher("{\"enable\":true,\"nmea\":true}")
        let sentence = TestCapture.epoch(0)[0]

        harness.server.publish(.sentence(sentence))
        harness.server.publish(.fix(Sample.fix))

        #expect(nmea.readLine() == sentence)
        let report = json.readLine()
        #expect(report?.hasPrefix("{\"class\":\"DEVICE\"") == true, "the device's first data activates it: \(report ?? "nothing")")
        #expect(json.readLine()?.hasPrefix("{\"class\":\"TPV\"") == true)
        #expect(nmea.readLine(within: 0.3) == nil, "no JSON for an NMEA-only watcher")
        #expect(idle.readLine(within: 0.3) == nil, "nothing for a client that does not watch")
        #expect(await harness.stop())
    }

    @Test("An unplugged device is a DEVICE with activated 0; its return is a DEVICE with the time")
    func deviceComesAndGoes() async throws {
        let harness = try ServerHarness()
        harness.server.publish(.fix(Sample.fix))
        let client = try harness.watcher()

        harness.server.publish(.status(.disconnected(reason: "unplugged")))
        let gone = client.readLine()
        client.send("?DEVICES;")
        let listed = client.readLine()
        harness.server.publish(.fix(Sample.fix))
        let back = client.readLine()

        #expect(gone == "{\"class\":\"DEVICE\",\"path\":\"/dev/ttyTEST\",\"activated\":0}")
        #expect(listed == "{\"class\":\"DEVICES\",\"devices\":[]}")
        let activated = try #require(back.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(activated["class"] as? String == "DEVICE")
        #expect((activated["activated"] as? String)?.hasSuffix("Z") == true)
        #expect(client.readLine()?.hasPrefix("{\"class\":\"TPV\"") == true)
        #expect(await harness.stop())
    }

    @Test("?POLL answers with the last fix, without watching")
    func poll() async throws {
        let harness = try ServerHarness()
        for event in Sample.events(0..<2) { harness.server.publish(event) }
        let client = try harness.client()
        _ = client.readLine()
        try await Task.sleep(for: .milliseconds(50))

        client.send("?POLL;\n")
        let line = try #require(client.readLine())

        let poll = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(poll["class"] as? String == "POLL")
        #expect(poll["active"] as? Int == 1)
        let tpv = try #require((poll["tpv"] as? [[String: Any]])?.first)
        #expect(tpv["time"] as? String == "2019-04-12T12:00:01.000Z")
        #expect((poll["sky"] as? [[String: Any]])?.first?["nSat"] as? Int == 5)
        #expect(await harness.stop())
    }

    @Test("A fix with the receiver's error statistics is followed by gpsd's GST; ?POLL still answers with the TPV alone")
    func gstAfterTPV() async throws {
        // Given a watcher, and a fix whose epoch had a GST
        let harness = try ServerHarness()
        let watcher = try harness.watcher()
        var fix = Sample.fix
        fix.errorStatistics = ErrorStatistics(rms: 1.3, semiMajor: 2.1, semiMinor: 1.2, orientation: 40.9,
                                              latitudeError: 1.5, longitudeError: 1.1, altitudeError: 3.2)

        // When it is published
        harness.server.publish(.fix(fix))
        let lines = watcher.readLines(3)

        // Then the TPV comes first and the GST right after it, as gpsd sends them
        let tpv = lines.firstIndex { $0.hasPrefix("{\"class\":\"TPV\"") }
        let gst = try #require(lines.firstIndex { $0.hasPrefix("{\"class\":\"GST\"") }, "\(lines)")
        #expect(tpv.map { $0 + 1 } == gst)
        #expect(lines[gst].contains("\"rms\":1.300") && lines[gst].contains("\"orient\":40.900"), "\(lines[gst])")
        // And a poll's TPV is the TPV, not the pair
        let client = try harness.client()
        _ = client.readLine()
        client.send("?POLL;\n")
        let reply = try #require(client.readLine())
        let poll = try #require(try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any])
        #expect((poll["tpv"] as? [[String: Any]])?.count == 1)
        #expect(await harness.stop())
    }

    @Test("Junk gets an ERROR and the connection goes on; gpsd's requests still work after it")
    func junk() async throws {
        let harness = try ServerHarness()
        let client = try harness.client()
        _ = client.readLine()

        var junk: [UInt8] = [0x00, 0xFF, 0xB5, 0x62, 0x01, 0x07, 0x0A]
        client.send(bytes: &junk)
        client.send("GET / HTTP/1.1\r\n?NONSENSE;?VERSION;")

        let lines = client.readLines(4)
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.prefix(3).allSatisfy { $0.hasPrefix("{\"class\":\"ERROR\",\"message\":\"Unrecognized request") }, "\(lines)")
        #expect(lines.dropFirst(2).first?.contains("'?NONSENSE'") == true)
        #expect(lines.last?.hasPrefix("{\"class\":\"VERSION\"") == true)
        #expect(await harness.stop())
    }

    @Test("An endless line gets an ERROR and is disconnected, and the server serves on")
    func endlessLine() async throws {
        let harness = try ServerHarness()
        let client = try harness.client()
        _ = client.readLine()

        client.send(String(repeating: "?", count: 5000))

        #expect(client.readLine()?.contains("Request too long") == true)
        #expect(client.waitForClose(within: 2))
        #expect(harness.log.contains("sent more than 1024 bytes without ending a request; disconnecting it"))
        let next = try harness.client()
        #expect(next.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true)
        #expect(await harness.stop())
    }

    @Test("By gpsd's rules: a client that asks nothing goes after the assignment timeout, a poller after the poller timeout since its last request; a quiet watcher stays")
    func silentClient() async throws {
        // The watcher-that-does-not-read timeout is short here: it must not be what cuts them.
        let harness = try ServerHarness(clientTimeout: 0.3, assignmentTimeout: 1, pollerTimeout: 2.5)
        let silent = try harness.client()
        let poller = try harness.client()
        poller.send("?POLL;")
        let watcher = try harness.watcher()
        let started = monotonicSeconds()

        #expect(silent.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true)
        #expect(silent.readLine(within: 3)?.contains("Timed out: no request for 1 s") == true)
        #expect(silent.waitForClose(within: 2))
        let silentGone = monotonicSeconds() - started
        #expect(silentGone > 0.8, "not before the assignment timeout: \(silentGone) s")
        #expect(poller.readLines(2).last?.hasPrefix("{\"class\":\"POLL\"") == true)
        #expect(poller.readLine(within: 4)?.contains("Timed out: no request for 2 s") == true)
        #expect(monotonicSeconds() - started > 2.2, "the poller outlives the silent client")
        harness.server.publish(.fix(Sample.fix))
        #expect(watcher.readLines(2).last?.hasPrefix("{\"class\":\"TPV\"") == true, "the watcher is still served")
        #expect(await harness.stop())
    }

    @Test("A watcher that stops reading has reports dropped, then is disconnected; the others get every report")
    func stuckClient() async throws {
        // Given a small per-client queue, a reader, and a watcher that never reads
        let harness = try ServerHarness(clientTimeout: 1, queueLimit: 16 * 1024)
        let stuck = try harness.client(receiveBuffer: 2048)
        stuck.send("?WATCH={\"enable\":true,\"json\":true};")
        let reader = try harness.watcher()
        _ = reader.readLine(within: 0.2)

        // When 1000 reports (about 340 kB, far more than the stuck client's buffers and queue
        // hold) are published at 2000 a second, a 200 Hz receiver's pace
        let sky = Sample.events(0..<1).compactMap { if case .sky(let s) = $0 { s } else { nil } }[0]
        let published = 1000
        // The device's first data also brings a DEVICE line.
        // On a thread of its own: it must keep up with 2000 reports a second.
        let received = onOwnThread { reader.readLines(published + 1, within: 20) }
        // Paced on a thread of its own too: a test holding a pool thread for seconds starves others.
        let server = harness.server
        _ = await onOwnThread {
            for _ in 0..<published {
                server.publish(.sky(sky))
                usleep(500)
            }
            return true
        }.value(within: .seconds(30))
        let lines = await received.value(within: .seconds(30)) ?? []

        // Then the reader has all of them, and the stuck client was dropped and cut off
        #expect(lines.filter { $0.hasPrefix("{\"class\":\"SKY\"") }.count == published)
        #expect(await waitUntil(.seconds(5)) { harness.log.contains("has read nothing for 1 s") })
        #expect(harness.log.contains("is not reading; dropping reports for it"))
        #expect(stuck.waitForClose(within: 5), "the stuck client was disconnected")
        #expect(await harness.stop())
    }

    @Test("Clients sending random bytes get errors or are cut off; a watcher beside them misses nothing")
    func randomBytes() async throws {
        // Given a watcher, and 20 clients each sending 20 kB of seeded random bytes
        let harness = try ServerHarness()
        let watcher = try harness.watcher()
        var generator = SplitMix64(seed: 2026)
        let noisy = try (0..<20).map { _ in try harness.client() }
        for client in noisy {
            var junk = (0..<20_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            client.send(bytes: &junk)
        }

        // When 50 reports are published
        let sky = Sample.events(0..<1).compactMap { if case .sky(let s) = $0 { s } else { nil } }[0]
        for _ in 0..<50 { harness.server.publish(.sky(sky)) }

        // Then the watcher has them all (after the device's DEVICE), and every noisy client got
        // only VERSION and ERRORs before the server closed it or it went quiet
        let lines = watcher.readLines(51, within: 10)
        #expect(lines.filter { $0.hasPrefix("{\"class\":\"SKY\"") }.count == 50)
        for client in noisy {
            let replies = client.readLines(1000, within: 0.1)
            #expect(replies.first?.hasPrefix("{\"class\":\"VERSION\"") == true)
            #expect(replies.dropFirst().allSatisfy { $0.hasPrefix("{\"class\":\"ERROR\"") }, "\(replies.prefix(5))")
        }
        let late = try harness.client()
        #expect(late.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true, "still serving")
        #expect(await harness.stop())
    }

    @Test("Past the client limit, a newcomer is told why and closed")
    func tooMany() async throws {
        let harness = try ServerHarness(maxClients: 2)
        let a = try harness.client(), b = try harness.client()
        _ = (a.readLine(), b.readLine())

        let c = try harness.client()

        #expect(c.readLine()?.contains("Too many clients (2)") == true)
        #expect(c.waitForClose(within: 2))
        #expect(await harness.stop())
    }

    @Test("A port in use is refused with what to do about it")
    func portInUse() async throws {
        let first = try ServerHarness()
        let taken = ListenAddress(host: "127.0.0.1", port: first.port)

        #expect(throws: ServerError.addressInUse(taken)) {
            _ = try GpsdServer(configuration: ServerConfiguration(address: taken, release: "x"), device: DeviceDescription(path: "x")) { _ in }
        }
        #expect(ServerError.addressInUse(.gpsdDefault).description.contains("Is gpsd running?"))
        #expect(await first.stop())
    }

    @Test("stop() ends the loop and closes every client")
    func stopCloses() async throws {
        let harness = try ServerHarness()
        let client = try harness.watcher()

        #expect(await harness.stop())
        #expect(client.waitForClose(within: 2))
    }
}
