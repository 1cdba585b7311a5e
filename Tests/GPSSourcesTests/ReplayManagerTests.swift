import NMEA
import GPSTestSupport
import GPSLocation
import GPSSources
import Synchronization
import Testing

@Suite("NMEA test sentences")
struct NMEASentenceTests {
    @Test("The checksum helper agrees with well-known sentences")
    func knownChecksums() {
        #expect(NMEASentence.framed("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
                == "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47")
        #expect(NMEASentence.framed("GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W")
                == "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A")
        #expect(NMEASentence.checksum("") == "00")
    }

    @Test("Every sentence of the test capture decodes")
    func captureDecodes() {
        let parser = NMEAParser()
        var fixes: [Fix] = []
        let emit: (EngineEvent) -> Void = { if case .fix(let f) = $0 { fixes.append(f) } }
        parser.parse(Array(SmallCapture.text(epochs: 3, header: false).utf8), emit: emit)
        parser.finish(emit: emit)
        #expect(parser.statistics.sentences.decoded == 9)
        #expect(parser.statistics.sentences.badChecksum == 0)
        #expect(fixes.map(\.second) == [0, 1, 2])
    }
}

@Suite("ReplayManager", .timeLimit(.minutes(1)))
struct ReplayManagerTests {
    let patience = Duration.seconds(10)

    // MARK: - Fixes, in order, then .finished

    @Test("A capture's fixes arrive in order through a LocationService, then .finished", .timeLimit(.minutes(1)))
    func fixesInOrder() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.write("drive.nmea", SmallCapture.text(epochs: 3))
        let manager = ReplayManager(path: path, speed: .maximum)
        let sut = LocationService(manager: manager)

        // When
        let streamed = await collect(sut.updates(), within: patience)

        // Then
        #expect(streamed.finished)
        let fixes = streamed.elements.compactMap(\.fix)
        #expect(fixes.map(\.second) == [0, 1, 2])
        let first = try #require(fixes.first)
        #expect(first.timestamp == FixTime(date: CalendarDate(year: 2019, month: 4, day: 12),
                                           time: TimeOfDay(hour: 12, minute: 0, second: 0)))
        #expect(first.mode == .threeD)
        #expect(first.quality == .gps)
        #expect(abs((first.coordinate?.latitude ?? 0) - 48.1173) < 1e-9)
        #expect(abs((first.coordinate?.longitude ?? 0) - (11 + 31.0 / 60)) < 1e-9)
        #expect(first.altitude == 545.4)
        #expect(first.satellitesUsed == 8)
        guard case .status(.finished(let statistics))? = streamed.elements.last else {
            Issue.record("the last event is \(String(describing: streamed.elements.last)), not .finished")
            return
        }
        #expect(statistics.sentences.decoded == 9)
        #expect(statistics.sentences.badChecksum == 0)
        #expect(statistics.epochs.fixes == 3)
        #expect(statistics.framing.junkBytes == 0, "the # header is skipped, not read as junk")
        #expect(sut.lastFix?.second == 2)
    }

    @Test("positions() finishes at the end of the capture; a second stream replays it again", .timeLimit(.minutes(1)))
    func finishesAndReplaysAgain() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.write("drive.nmea", SmallCapture.text(epochs: 4, header: false))
        let sut = LocationService(manager: ReplayManager(path: path, speed: .maximum))

        // When
        let first = await collect(sut.positions(), within: patience)
        let second = await collect(sut.positions(), within: patience)

        // Then
        #expect(first.finished && second.finished)
        #expect(first.elements.map(\.second) == [0, 1, 2, 3])
        #expect(second.elements == first.elements)
    }

    @Test("fetchCurrentLocation answers with the capture's first fix", .timeLimit(.minutes(1)))
    func fetchCurrentLocation() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.write("drive.nmea", SmallCapture.text(epochs: 3))
        let sut = LocationService(manager: ReplayManager(path: path, speed: .factor(1)))
        let received = Eventually<Result<Fix, LocationError>>()

        // When
        sut.fetchCurrentLocation(timeout: .seconds(5)) { received.fulfill($0) }
        let result = await received.value(within: patience)

        // Then
        #expect((try? result?.get())?.second == 0)
    }

    @Test("Checked sentences are forwarded exactly as they were received", .timeLimit(.minutes(1)))
    func forwardsSentences() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.write("drive.nmea", SmallCapture.text(epochs: 2))
        let sut = LocationService(manager: ReplayManager(path: path, speed: .maximum, forwardsSentences: true))

        // When
        let streamed = await collect(sut.updates(), within: patience)

        // Then
        let sentences = streamed.elements.compactMap { if case .sentence(let s) = $0 { s } else { nil } }
        #expect(sentences == SmallCapture.sentences(epochs: 2))
    }

    @Test("The manager describes itself by its path and holds its delegate weakly")
    func wiring() throws {
        // Given
        let manager = ReplayManager(path: "/captures/x.nmea")
        var delegate: RecordingDelegate? = RecordingDelegate()

        // When
        manager.delegate = delegate
        let wasSet = manager.delegate != nil
        delegate = nil

        // Then
        #expect(manager.sourceDescription == "/captures/x.nmea")
        #expect(wasSet)
        #expect(manager.delegate == nil)
        #expect(manager.speed == .factor(1) && !manager.loop && !manager.forwardsSentences)
    }

    // MARK: - --loop

    @Test("With loop, the capture starts again when it ends, until stopped", .timeLimit(.minutes(1)))
    func loops() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.write("drive.nmea", SmallCapture.text(epochs: 3))
        let sut = LocationService(manager: ReplayManager(path: path, speed: .maximum, loop: true))
        let wanted = 8
        let seen = Mutex<[LocationEvent]>([])
        let ended = Eventually<Bool>()

        // When: the subscriber stops the replay at the eighth fix, on the replay's thread
        sut.subscribe { [weak sut] event in
            let fixes = seen.withLock { s -> Int in
                s.append(event)
                return s.count { $0.fix != nil }
            }
            if event.fix != nil && fixes == wanted { sut?.stop() }
            if event.isTerminal { ended.fulfill(true) }
        }
        let didEnd = await ended.value(within: patience)

        // Then
        #expect(didEnd == true)
        let events = seen.withLock { $0 }
        #expect(events.compactMap(\.fix).map(\.second) == [0, 1, 2, 0, 1, 2, 0, 1])
        #expect(events.last == .status(.stopped), "a looping replay never finishes on its own")
        withExtendedLifetime(sut) {}
    }

    // MARK: - Errors

    @Test("A missing file fails with .fileNotFound", .timeLimit(.minutes(1)))
    func missingFile() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = dir.path + "/no-such-capture.nmea"
        let sut = LocationService(manager: ReplayManager(path: path))
        let received = Eventually<Result<Fix, LocationError>>()

        // When
        let events = sut.updates()
        sut.fetchCurrentLocation { received.fulfill($0) }
        let streamed = await collect(events, within: patience)
        let result = await received.value(within: patience)

        // Then
        #expect(streamed.finished)
        #expect(streamed.elements == [.error(.fileNotFound(path: path))])
        #expect(result == .failure(.fileNotFound(path: path)))
    }

    @Test("A file under a missing directory fails with .fileNotFound", .timeLimit(.minutes(1)))
    func missingDirectory() async throws {
        let path = "/nonexistent-gpsfix-dir/capture.nmea"
        let sut = LocationService(manager: ReplayManager(path: path))
        let streamed = await collect(sut.updates(), within: patience)
        #expect(streamed.elements == [.error(.fileNotFound(path: path))])
    }

    @Test("A directory fails with .fileUnreadable", .timeLimit(.minutes(1)))
    func directory() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.makeDirectory("captures")
        let sut = LocationService(manager: ReplayManager(path: path))

        // When
        let streamed = await collect(sut.updates(), within: patience)

        // Then
        #expect(streamed.finished)
        #expect(streamed.elements == [.error(.fileUnreadable(path: path, reason: "it is a directory"))])
    }

    @Test("A file without NMEA fails with .notACapture", .timeLimit(.minutes(1)),
          arguments: [
            ("notes.txt", "Shopping list:\neggs\nmilk\n"),
            ("empty.nmea", ""),
            ("header-only.nmea", "# Name: nothing recorded\n# Date: 2024-05-01\n"),
            ("bad-checksums.nmea", "$GPGGA,120000.00,,,,,0,00,,,M,,M,,*00\r\n$GPRMC,120000.00,V,,,,,,,120419,,,N*00\r\n"),
          ])
    func notACapture(name: String, contents: String) async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.write(name, contents)
        let sut = LocationService(manager: ReplayManager(path: path, speed: .maximum))

        // When
        let streamed = await collect(sut.updates(), within: patience)

        // Then
        #expect(streamed.finished)
        #expect(streamed.elements == [.error(.notACapture(path: path))])
    }

    @Test("Binary junk is not a capture either, even with loop", .timeLimit(.minutes(1)))
    func binaryJunk() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("junk.bin", bytes: (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        let sut = LocationService(manager: ReplayManager(path: path, speed: .maximum, loop: true))
        let streamed = await collect(sut.updates(), within: patience)
        #expect(streamed.elements == [.error(.notACapture(path: path))])
    }

    // MARK: - Pacing

    @Test("Paced at 10x, a 3-epoch 1 Hz capture takes about 0.2 s; at .maximum, far less", .timeLimit(.minutes(1)))
    func pacing() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.write("drive.nmea", SmallCapture.text(epochs: 3))
        let clock = ContinuousClock()

        // When (each service is kept alive for its run: managers hold their delegate weakly)
        let pacedService = LocationService(manager: ReplayManager(path: path, speed: .factor(10)))
        let pacedStart = clock.now
        let paced = await collect(pacedService.positions(), within: patience)
        let pacedElapsed = clock.now - pacedStart

        let fastService = LocationService(manager: ReplayManager(path: path, speed: .maximum))
        let fastStart = clock.now
        let fast = await collect(fastService.positions(), within: patience)
        let fastElapsed = clock.now - fastStart
        withExtendedLifetime((pacedService, fastService)) {}

        // Then
        #expect(paced.finished && fast.finished)
        #expect(paced.elements.count == 3 && fast.elements.count == 3)
        // The lower bound is the pacing; the upper ones only catch a runaway wait. They are
        // generous because other suites (gpsd, ptys) run beside this one on two cores.
        #expect(pacedElapsed >= .milliseconds(150) && pacedElapsed <= .seconds(3), "paced replay took \(pacedElapsed)")
        #expect(fastElapsed < .seconds(1), "unpaced replay took \(fastElapsed)")
        #expect(fastElapsed < pacedElapsed)
    }

    // MARK: - stop()

    @Test("stop() mid-replay ends the stream promptly, and the manager reports nothing more", .timeLimit(.minutes(1)))
    func stopMidReplay() async throws {
        // Given: a minute of capture replayed in real time
        let dir = try TemporaryDirectory()
        let path = try dir.write("long.nmea", SmallCapture.text(epochs: 60))
        let manager = ReplayManager(path: path, speed: .factor(1))
        let sut = LocationService(manager: manager)
        let events = sut.updates()
        let streaming = Task { await collect(events, within: .seconds(30)) }
        #expect(await waitUntil(patience) { sut.lastFix != nil })
        let clock = ContinuousClock()

        // When
        let stopAt = clock.now
        sut.stop()
        let streamed = await streaming.value
        let elapsed = clock.now - stopAt

        // Then
        #expect(streamed.finished)
        #expect(elapsed < .milliseconds(500))
        #expect(streamed.elements.last == .status(.stopped))
        #expect(streamed.elements.compactMap(\.fix).count <= 2)
    }

    @Test("stopUpdatingLocation() cuts a paced wait short; no .finished follows", .timeLimit(.minutes(1)))
    func stopUpdatingLocationDirectly() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.write("long.nmea", SmallCapture.text(epochs: 30))
        let manager = ReplayManager(path: path, speed: .factor(1))
        let recorder = RecordingDelegate()
        manager.delegate = recorder
        manager.startUpdatingLocation()
        #expect(await waitUntil(patience) { !recorder.fixes.isEmpty })

        // When
        manager.stopUpdatingLocation()
        let countAtStop = recorder.events.count
        try await Task.sleep(for: .milliseconds(1500))

        // Then: at most the fix already on its way, then silence
        #expect(recorder.events.count <= countAtStop + 1)
        #expect(recorder.fixes.count <= 2)
        #expect(!recorder.events.contains { if case .status(.finished) = $0 { true } else { false } })
        withExtendedLifetime(recorder) {}
    }

    // MARK: - Sky

    @Test("A standard 17-field GSA gives the sky view its PDOP, HDOP and VDOP", .timeLimit(.minutes(1)))
    func skyViewDOP() async throws {
        // Given: GSA with 12 satellite fields, PDOP 2.5, HDOP 1.3, VDOP 2.1 (NMEA 0183 before 4.10)
        let dir = try TemporaryDirectory()
        let gsv = [
            NMEASentence.framed("GPGSV,2,1,05,04,45,120,40,05,30,200,35,09,60,300,42,12,10,050,20"),
            NMEASentence.framed("GPGSV,2,2,05,24,70,010,45"),
        ]
        let lines = SmallCapture.epoch(0) + gsv + SmallCapture.epoch(1) + gsv
        let path = try dir.write("sky.nmea", lines.map { $0 + "\r\n" }.joined())
        let sut = LocationService(manager: ReplayManager(path: path, speed: .maximum))

        // When
        let streamed = await collect(sut.updates(), within: patience)

        // Then
        let sky = try #require(streamed.elements.compactMap(\.sky).first)
        #expect(sky.satellites.count == 5)
        #expect(sky.satellitesUsed == 5)
        #expect(sky.satellites.map(\.id.svid) == [4, 5, 9, 12, 24])
        #expect(sky.dop.position == 2.5 && sky.dop.horizontal == 1.3 && sky.dop.vertical == 2.1)
        // The rest from the five satellites' geometry, as gpsd's fill_dop (numpy's inverse of
        // GᵀG for these elevations and azimuths: x 1.18446, y 0.91499, t 1.39438, g 2.80807).
        #expect(abs((sky.dop.longitude ?? 0) - 1.1844571737018363) < 1e-9)
        #expect(abs((sky.dop.latitude ?? 0) - 0.914993581330588) < 1e-9)
        #expect(abs((sky.dop.time ?? 0) - 1.3943814024368584) < 1e-9)
        #expect(abs((sky.dop.geometric ?? 0) - 2.80806879285122) < 1e-9)
    }

    // MARK: - Edge cases that once failed

    @Test("A request made from a completion handler starts the replay again", .timeLimit(.minutes(1)))
    func requestFromCompletion() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.write("drive.nmea", SmallCapture.text(epochs: 3))
        let sut = LocationService(manager: ReplayManager(path: path, speed: .factor(1)))
        let first = Eventually<Result<Fix, LocationError>>()
        let second = Eventually<Result<Fix, LocationError>>()

        // When: the first answer (on the replay's thread) asks for another fix at once
        sut.fetchCurrentLocation(timeout: .seconds(5)) { [weak sut] result in
            first.fulfill(result)
            sut?.fetchCurrentLocation(timeout: .seconds(1)) { second.fulfill($0) }
        }
        let firstResult = await first.value(within: patience)
        let secondResult = await second.value(within: patience)

        // Then
        #expect((try? firstResult?.get())?.second == 0)
        #expect((try? secondResult?.get())?.second == 0, "got \(String(describing: secondResult))")
    }

    @Test("Pacing is kept after a replay was stopped and started again", .timeLimit(.minutes(1)))
    func pacingAfterRestart() async throws {
        // Given: a replay stopped by a request right after its first fix
        let dir = try TemporaryDirectory()
        let path = try dir.write("drive.nmea", SmallCapture.text(epochs: 3))
        let manager = ReplayManager(path: path, speed: .factor(5))
        let sut = LocationService(manager: manager)
        let first = Eventually<Result<Fix, LocationError>>()
        sut.fetchCurrentLocation(timeout: .seconds(5)) { first.fulfill($0) }
        #expect((try? await first.value(within: patience)?.get())?.second == 0)
        try await Task.sleep(for: .milliseconds(300))   // the stopped run's thread has ended

        // When
        let clock = ContinuousClock()
        let arrivals = Mutex<[ContinuousClock.Instant]>([])
        let done = Eventually<Bool>()
        sut.subscribe { event in
            if case .fix = event { arrivals.withLock { $0.append(clock.now) } }
            if event.isTerminal { done.fulfill(true) }
        }
        _ = await done.value(within: patience)

        // Then: 200 ms between fixes, as in the first run
        let times = arrivals.withLock { $0 }
        #expect(times.count == 3)
        guard times.count == 3 else { return }
        #expect(times[1] - times[0] >= .milliseconds(150), "gap \(times[1] - times[0])")
        #expect(times[2] - times[1] >= .milliseconds(150), "gap \(times[2] - times[1])")
    }
}
