import Foundation
@testable import GPSServer
import GPSTestSupport
import Testing

/// The bare NMEA feeds beside gpsd's protocol: a TCP port whose clients get every sentence as
/// received, and a UDP address that gets each as one datagram.
@Suite("NMEA over TCP and UDP from the server", .timeLimit(.minutes(1)))
struct NMEAFeedTests {
    @Test("An NMEA client gets every sentence with CR LF and nothing else: no VERSION, no JSON, no DEVICE")
    func sentencesOnly() async throws {
        // Given a server with an NMEA port, one client there and a JSON watcher beside it
        let harness = try ServerHarness(nmea: true)
        let nmea = try await harness.nmeaClient()
        let json = try harness.watcher()
        let sentences = TestCapture.epoch(0) + TestCapture.epoch(1)

        // When the source sends two epochs' sentences and a fix
        harness.server.publish(.status(.started))
        for sentence in sentences { harness.server.publish(.sentence(sentence)) }
        harness.server.publish(.fix(Sample.fix))

        // Then the NMEA client has exactly the sentences' bytes, each ended by CR LF
        let expected = Array(sentences.map { $0 + "\r\n" }.joined().utf8)
        var received: [UInt8] = []
        let deadline = monotonicSeconds() + 5
        while received.count < expected.count, monotonicSeconds() < deadline {
            guard let line = nmea.readLine(within: deadline - monotonicSeconds()) else { break }
            received += Array((line + "\r\n").utf8)
        }
        #expect(received == expected)
        #expect(nmea.readLine(within: 0.3) == nil, "nothing after the sentences: \(harness.log)")
        #expect(json.readLines(2).last?.hasPrefix("{\"class\":\"TPV\"") == true, "the JSON watcher gets the fix, not the sentences")
        #expect(await harness.stop())
    }

    @Test("An NMEA client that never sends a byte is not timed out, as a gpsd client without a watch is")
    func silentNMEAClientStays() async throws {
        let harness = try ServerHarness(clientTimeout: 0.5, assignmentTimeout: 0.5, nmea: true)
        let nmea = try await harness.nmeaClient()
        let gpsd = try harness.client()

        #expect(gpsd.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true)
        #expect(gpsd.readLine(within: 3)?.contains("Timed out: no request") == true)
        let sentence = TestCapture.epoch(0)[0]
        harness.server.publish(.sentence(sentence))
        #expect(nmea.readLine() == sentence, "still served after the timeout: \(harness.log)")
        #expect(await harness.stop())
    }

    @Test("What an NMEA client sends is ignored: no reply, and it is served as before")
    func clientInputIgnored() async throws {
        let harness = try ServerHarness(nmea: true)
        let talker = try await harness.nmeaClient()
        var junk = Array("?WATCH={\"enable\":true,\"json\":true};\n$GPTXT,01,01,02,hello*00\r\n".utf8)
        talker.send(bytes: &junk)
        let other = try await harness.nmeaClient()

        #expect(talker.readLine(within: 0.5) == nil, "no reply to a request on the NMEA port")
        let sentence = TestCapture.epoch(0)[0]
        harness.server.publish(.sentence(sentence))
        #expect(talker.readLine() == sentence)
        #expect(other.readLine() == sentence)
        #expect(await harness.stop())
    }

    @Test("An NMEA client that stops reading is cut off after the client timeout; a reader beside it misses nothing")
    func stuckNMEAClient() async throws {
        // Given a small queue, an NMEA client that never reads and one that does
        let harness = try ServerHarness(clientTimeout: 1, queueLimit: 16 * 1024, nmea: true)
        let stuck = try await harness.nmeaClient(receiveBuffer: 2048)
        let reader = try await harness.nmeaClient()
        let sentence = TestCapture.epoch(0)[0]

        // When 4000 sentences (about 300 kB, far more than the stuck client's buffers and queue
        // hold) come at 2000 a second
        let published = 4000
        // On a thread of its own: it must keep up with 2000 sentences a second.
        let received = onOwnThread { reader.readLines(published, within: 20) }
        // Paced on a thread of its own too: a test holding a pool thread for seconds starves others.
        let server = harness.server
        _ = await onOwnThread {
            for _ in 0..<published {
                server.publish(.sentence(sentence))
                usleep(500)
            }
            return true
        }.value(within: .seconds(30))
        let lines = await received.value(within: .seconds(30)) ?? []

        // Then
        #expect(lines.count == published && lines.allSatisfy { $0 == sentence })
        #expect(await waitUntil(.seconds(5)) { harness.log.contains("has read nothing for 1 s") })
        #expect(stuck.waitForClose(within: 5), "the stuck client was disconnected")
        #expect(await harness.stop())
    }

    @Test("Each sentence is one UDP datagram with its CR LF")
    func datagrams() async throws {
        let receiver = try DatagramReceiver()
        let harness = try ServerHarness(datagrams: ListenAddress(host: "127.0.0.1", port: receiver.port))
        let sentences = TestCapture.epoch(0)

        for sentence in sentences { harness.server.publish(.sentence(sentence)) }
        var got: [String] = []
        while got.count < sentences.count, let datagram = receiver.receive() {
            got.append(String(decoding: datagram, as: UTF8.self))
        }

        #expect(got == sentences.map { $0 + "\r\n" })
        #expect(receiver.receive(within: 0.3) == nil)
        #expect(await harness.stop())
    }

    @Test("A broadcast address reaches a listener on every address (the kernel refuses it without SO_BROADCAST)")
    func broadcast() async throws {
        // 127.255.255.255 is loopback's broadcast address: a machine without a network has it.
        let receiver = try DatagramReceiver(everyAddress: true)
        let harness = try ServerHarness(datagrams: ListenAddress(host: "127.255.255.255", port: receiver.port))
        let sentence = TestCapture.epoch(0)[0]

        harness.server.publish(.sentence(sentence))

        #expect(receiver.receive().map { String(decoding: $0, as: UTF8.self) } == sentence + "\r\n", "\(harness.log)")
        #expect(await harness.stop())
    }

    @Test("A datagram address nobody listens on costs nothing: the TCP clients are still served")
    func nobodyListening() async throws {
        let port = try freeLoopbackPort()
        let harness = try ServerHarness(nmea: true, datagrams: ListenAddress(host: "127.0.0.1", port: port))
        let nmea = try await harness.nmeaClient()
        let sentences = TestCapture.epoch(0)

        for sentence in sentences { harness.server.publish(.sentence(sentence)) }

        #expect(nmea.readLines(sentences.count) == sentences)
        #expect(await harness.stop())
    }

    @Test("An NMEA port in use is refused, and so is an unresolvable datagram host, before anything starts")
    func setupErrors() async throws {
        let first = try ServerHarness(nmea: true)
        let taken = try #require(first.server.nmeaAddress)
        let any = ListenAddress(host: "127.0.0.1", port: 0)

        #expect(throws: ServerError.addressInUse(taken)) {
            _ = try GpsdServer(configuration: ServerConfiguration(address: any, release: "x", nmeaAddress: taken),
                               device: DeviceDescription(path: "x")) { _ in }
        }
        #expect(throws: ServerError.self) {
            _ = try GpsdServer(configuration: ServerConfiguration(address: any, release: "x",
                                                                  nmeaDatagramAddress: ListenAddress(host: "no.such.host.invalid", port: 10110)),
                               device: DeviceDescription(path: "x")) { _ in }
        }
        #expect(await first.stop())
    }
}
