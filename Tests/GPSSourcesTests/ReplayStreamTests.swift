import GPSSystem
import NMEA
import Foundation
import Glibc
import GPSTestSupport
import GPSLocation
@testable import GPSSources
import Synchronization
import Testing

/// A replay reads its input a chunk at a time, and may read a FIFO as it is written.
@Suite("ReplayManager, streaming", .timeLimit(.minutes(1)))
struct ReplayStreamTests {
    let patience = Duration.seconds(10)

    // MARK: - Chunk boundaries

    /// A capture and what the engine makes of it read whole, header skipped as
    /// `CaptureHeader(parsing:)` finds it: the replay must give the same, however it is cut.
    struct Reference: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]

        var testDescription: String { name }

        /// The engine's fixes and sky views, then `.finished` with its counts.
        var events: [LocationEvent] {
            let parser = NMEAParser()
            var events: [LocationEvent] = []
            let emit: (EngineEvent) -> Void = { event in
                switch event {
                case .fix(let fix): events.append(.fix(fix))
                case .sky(let sky): events.append(.sky(sky))
                case .note(let note): events.append(.note(note))
                }
            }
            bytes.withUnsafeBytes { raw in
                parser.parse(UnsafeRawBufferPointer(rebasing: raw[CaptureHeader(parsing: raw).bodyOffset...]), emit: emit)
            }
            parser.finish(emit: emit)
            return events + [.status(.finished(parser.statistics))]
        }
    }

    static let references: [Reference] = [
        // A three-line header (one line continued), then CRLF sentences.
        Reference(name: "test capture", bytes: Array(SmallCapture.text(epochs: 5).utf8)),
        // Junk, bad checksums and cut lines from a noisy serial line.
        Reference(name: "noisy-line.nmea", bytes: projectCapture("noisy-line.nmea")),
        // Ten epochs a second and four constellations' sky views.
        Reference(name: "multignss-10hz.nmea", bytes: projectCapture("multignss-10hz.nmea")),
        // The receiver's notes between epochs (TXT), one in three parts: each reaches the delegate
        // (`didReceiveNote`) where the engine made it, however the stream is cut.
        Reference(name: "receiver notes", bytes: Array((SmallCapture.sentences(epochs: 2)
            + ["GNTXT,01,01,02,u-blox AG - www.u-blox.com", "GNTXT,03,01,01,ANTENNA ", "GNTXT,03,02,01,SHORT ON ",
               "GNTXT,03,03,01,PIN 5"].map(NMEASentence.framed)
            + SmallCapture.sentences(epochs: 4).dropFirst(6)).map { $0 + "\r\n" }.joined().utf8)),
    ]

    @Test("Read a chunk at a time, cut anywhere (inside the header, inside a sentence), a capture gives the same fixes, sky views and counts",
          arguments: references, [1, 2, 3, 7, 61, 4096])
    func chunkBoundaries(reference: Reference, chunkSize: Int) async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.write("capture.nmea", bytes: reference.bytes)
        let expected = reference.events
        #expect(reference.name != "receiver notes" || expected.filter(\.isNote).count == 2, "the notes are in what is compared")

        for speed in [ReplayManager.Speed.maximum, .factor(1_000_000)] {
            // When: unpaced (chunks straight to the engine) and paced (a line at a time, the
            // waits too short to matter)
            let sut = ReplayManager(path: path, speed: speed, loop: false, forwardsSentences: false,
                                    acceptsSimulatedFixes: false, chunkSize: chunkSize)
            let recorder = RecordingDelegate()
            sut.delegate = recorder
            sut.startUpdatingLocation()
            let ended = await waitUntil(patience) { recorder.ended }

            // Then
            #expect(ended)
            let events = recorder.events
            #expect(events.count == expected.count, "\(speed): \(events.count) events, \(expected.count) read whole")
            #expect(events == expected, "\(speed): the first difference is at \(Array(zip(events, expected)).firstIndex { $0.0 != $0.1 } ?? -1)")
        }
    }

    @Test("A loop over a file read in small chunks skips its header on every pass", .timeLimit(.minutes(1)))
    func loopSkipsHeaderEachPass() async throws {
        // Given: the header is cut across chunks of 5 bytes
        let dir = try TemporaryDirectory()
        let path = try dir.write("drive.nmea", SmallCapture.text(epochs: 3))
        let sut = ReplayManager(path: path, speed: .maximum, loop: true, forwardsSentences: false,
                                acceptsSimulatedFixes: false, chunkSize: 5)
        let recorder = RecordingDelegate()
        sut.delegate = recorder

        // When
        sut.startUpdatingLocation()
        let looped = await waitUntil(patience) { recorder.fixes.count >= 7 }
        sut.stopUpdatingLocation()

        // Then
        #expect(looped)
        #expect(recorder.fixes.prefix(7).map(\.second) == [0, 1, 2, 0, 1, 2, 0])
        #expect(sut.statistics?.framing.junkBytes == 0, "the header is skipped on every pass, not read as junk")
        #expect(!recorder.events.contains { $0.isTerminal }, "a loop ends only when stopped")
    }

    // MARK: - FIFOs

    @Test("A FIFO written slowly delivers its fixes while the writer still holds it open, then .finished", .timeLimit(.minutes(1)))
    func fifoLive() async throws {
        // Given: a replay of a FIFO, and a writer that sends three epochs and pauses
        let dir = try TemporaryDirectory()
        let path = try FIFO.make(in: dir)
        let sut = ReplayManager(path: path, speed: .maximum)
        let recorder = RecordingDelegate()
        sut.delegate = recorder
        sut.startUpdatingLocation()
        let writer = try #require(await FIFO.Writer(path, within: patience))
        writer.write(SmallCapture.text(epochs: 3))

        // When: the writer holds the FIFO open, silent
        let early = await waitUntil(patience) { recorder.fixes.count >= 2 }
        let whileOpen = recorder.events

        // Then: the epochs the engine has closed are out, and the replay is not over
        #expect(early, "fixes came only after the writer closed")
        #expect(whileOpen.compactMap(\.fix).map(\.second).prefix(2) == [0, 1])
        #expect(!whileOpen.contains { $0.isTerminal })

        // When: the rest arrives and the writer closes
        writer.write(SmallCapture.sentences(epochs: 5).dropFirst(9).map { $0 + "\r\n" }.joined())
        writer.close()
        let ended = await waitUntil(patience) { recorder.ended }

        // Then
        #expect(ended)
        #expect(recorder.fixes.map(\.second) == [0, 1, 2, 3, 4])
        guard case .status(.finished(let statistics))? = recorder.events.last else {
            Issue.record("the last event is \(String(describing: recorder.events.last)), not .finished")
            return
        }
        #expect(statistics.sentences.decoded == 15)
        #expect(statistics.framing.junkBytes == 0, "the header is skipped")
        withExtendedLifetime(recorder) {}
    }

    @Test("stop() ends a read blocked on an idle FIFO at once: the replay lets go of it", .timeLimit(.minutes(1)))
    func stopInterruptsBlockedRead() async throws {
        // Given: a replay waiting on a FIFO whose writer is open and silent
        let dir = try TemporaryDirectory()
        let path = try FIFO.make(in: dir)
        let sut = ReplayManager(path: path, speed: .factor(1))
        let recorder = RecordingDelegate()
        sut.delegate = recorder
        sut.startUpdatingLocation()
        let writer = try #require(await FIFO.Writer(path, within: patience))
        try await Task.sleep(for: .milliseconds(200))
        #expect(!writer.readerGone, "the replay holds the FIFO while it waits")

        // When
        let clock = ContinuousClock()
        let stopAt = clock.now
        sut.stopUpdatingLocation()
        let letGo = await waitUntil(.seconds(5)) { writer.readerGone }
        let elapsed = clock.now - stopAt

        // Then: the replay's thread left its read and closed the FIFO, and said nothing more
        #expect(letGo)
        #expect(elapsed < .milliseconds(500), "took \(elapsed)")
        #expect(recorder.events.isEmpty, "got \(recorder.events)")
        writer.close()
    }

    @Test("A FIFO cannot loop: .cannotLoop, before anything is read", .timeLimit(.minutes(1)))
    func fifoCannotLoop() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try FIFO.make(in: dir)
        let sut = LocationService(manager: ReplayManager(path: path, speed: .maximum, loop: true))

        // When
        let streamed = await collect(sut.updates(), within: patience)

        // Then
        #expect(streamed.finished)
        #expect(streamed.elements == [.error(.cannotLoop(path: path))])
        #expect(LocationError.cannotLoop(path: path).description.contains("Save it to a file"))
    }

    @Test("readsLiveInput: a FIFO is live; a file, a directory and a missing path are not")
    func readsLiveInput() throws {
        let dir = try TemporaryDirectory()
        #expect(ReplayManager(path: try FIFO.make(in: dir)).readsLiveInput)
        #expect(!ReplayManager(path: try dir.write("drive.nmea", SmallCapture.text(epochs: 1))).readsLiveInput)
        #expect(!ReplayManager(path: dir.path).readsLiveInput)
        #expect(!ReplayManager(path: dir.path + "/missing.nmea").readsLiveInput)
        #expect(ReplayManager(path: "-").sourceDescription == "standard input")
    }
}

/// One of the project's own captures in Captures/.
private func projectCapture(_ name: String) -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Captures/" + name)
    return (try? Array(Data(contentsOf: url))) ?? []
}

enum FIFO {
    struct Failed: Error { let call: String; let code: Int32 }

    /// A new FIFO in `dir`.
    static func make(in dir: TemporaryDirectory) throws -> String {
        let path = dir.path + "/feed.fifo"
        guard mkfifo(path, 0o600) == 0 else { throw Failed(call: "mkfifo", code: errno) }
        return path
    }

    /// The writing end, opened once a reader has the FIFO open (before then there is nobody to
    /// write to).
    final class Writer: Sendable {
        let fd: Int32

        init?(_ path: String, within limit: Duration) async {
            var opened: Int32 = -1
            _ = await waitUntil(limit) {
                opened = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
                return opened >= 0
            }
            guard opened >= 0 else { return nil }
            // Blocking from here on: a write waits for the reader rather than failing.
            _ = fcntl(opened, F_SETFL, fcntl(opened, F_GETFL) & ~O_NONBLOCK)
            fd = opened
        }

        func write(_ text: String) {
            let bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                guard n > 0 else { return }
                offset += n
            }
        }

        /// Whether the reader has closed its end: a FIFO's writer then polls as in error.
        var readerGone: Bool {
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            return poll(&p, 1, 0) == 1 && p.revents & Int16(POLLERR) != 0
        }

        func close() { Glibc.close(fd) }
    }
}
