import NMEA
import GPSTestSupport
import GPSLocation
import Testing

/// `updates()` and `positions()` as CoreLocation's `liveUpdates()` behave: started on
/// iteration, bounded, stopped by the last consumer leaving, ended at once by `stop()`.
@Suite("LocationUpdates", .timeLimit(.minutes(1)))
struct LocationUpdatesTests {
    let patience = Duration.seconds(5)

    @Test("A stream starts its source on the first next(), not when it or its iterator is made")
    func startsOnIteration() async throws {
        // Given
        let locationManagerMock = LocationManagerMock.delivering(Fix.sample(), delivery: .insideStart)
        let sut = LocationService(manager: locationManagerMock)

        // When
        let stream = sut.positions()
        var iterator = stream.makeAsyncIterator()
        let startsBeforeNext = locationManagerMock.startCount
        let first = try await iterator.next()

        // Then
        #expect(startsBeforeNext == 0)
        #expect(first == .sample())
        #expect(locationManagerMock.startCount == 1)
    }

    @Test("A consumer that falls behind keeps the newest bufferLimit elements; the rest are counted as dropped",
          arguments: [1, 10, 100])
    func boundedKeepsNewest(limit: Int) async {
        // Given: a source that hands over 1000 fixes and its end before the consumer takes any
        let fixes = (0..<1000).map { Fix.sample(second: $0 % 60, latitude: 37 + Double($0) / 10_000) }
        let locationManagerMock = LocationManagerMock.delivering(fixes, then: .finished(emptyStatistics), delivery: .insideStart)
        let sut = LocationService(manager: locationManagerMock)
        let positions = sut.positions(bufferLimit: limit)

        // When
        let taken = await drain(positions)

        // Then: the newest `limit` fixes, in order, and the stream ended normally
        #expect(taken.finished && taken.error == nil)
        #expect(taken.elements == Array(fixes.suffix(limit)))
        #expect(positions.dropped == 1000 - limit)
        #expect(positions.bufferLimit == limit)
    }

    @Test("The terminal status is never the one dropped: updates() ends with .finished however far behind")
    func terminalIsKept() async {
        // Given
        let fixes = (0..<50).map { Fix.sample(second: $0) }
        let locationManagerMock = LocationManagerMock.delivering(fixes, then: .finished(emptyStatistics), delivery: .insideStart)
        let sut = LocationService(manager: locationManagerMock)
        let updates = sut.updates(bufferLimit: 5)

        // When
        let taken = await drain(updates)

        // Then
        #expect(taken.elements == fixes.suffix(5).map { .fix($0) } + [.status(.finished(emptyStatistics))])
        #expect(updates.dropped == 45)
    }

    @Test("By default a stream holds 100 elements, and a consumer that keeps up loses none")
    func defaultLimit() async {
        // Given: fixes handed over one at a time, to a consumer waiting for each
        let fixes = (0..<300).map { Fix.sample(second: $0 % 60) }
        let locationManagerMock = LocationManagerMock.delivering(fixes, then: .finished(emptyStatistics))
        let sut = LocationService(manager: locationManagerMock)
        let positions = sut.positions()

        // When
        let taken = await drain(positions)

        // Then
        #expect(positions.bufferLimit == 100)
        #expect(LocationService.defaultBufferLimit == 100)
        #expect(taken.elements.count + positions.dropped == 300)
        #expect(taken.elements.last == fixes.last)
    }

    @Test("break out of the loop stops a source the stream started")
    func breakStopsSource() async throws {
        // Given: a source that would go on for ever
        let locationManagerMock = LocationManagerMock(script: [.fix(.sample()), .pause(.seconds(30))])
        let sut = LocationService(manager: locationManagerMock)

        // When
        for try await _ in sut.positions() { break }

        // Then
        #expect(locationManagerMock.stopCount == 1)
        #expect(!locationManagerMock.isRunning)
        #expect(sut.streamCount == 0)
    }

    @Test("Cancelling the iterating task ends next() with nil and stops the source")
    func cancellationStopsSource() async {
        // Given: a consumer waiting on a silent source
        let locationManagerMock = LocationManagerMock.silent()
        let sut = LocationService(manager: locationManagerMock)
        let consumer = Task { () -> Result<[Fix], LocationError> in
            var taken: [Fix] = []
            do throws(LocationError) {
                for try await fix in sut.positions() { taken.append(fix) }
            } catch {
                return .failure(error)
            }
            return .success(taken)
        }
        #expect(await waitUntil { sut.streamCount == 1 })

        // When
        consumer.cancel()

        // Then: the cancellation itself stopped the source (its handler, or the loop's next
        // look if the task was between two waits), with nothing arriving to wake the loop
        #expect(await waitUntil(.seconds(2)) { locationManagerMock.stopCount == 1 })
        #expect(await consumer.value == .success([]), "the loop ended normally, with nothing")
        #expect(!locationManagerMock.isRunning)
    }

    @Test("A task cancelled before its first next() gets nil and never starts the source")
    func cancelledBeforeIteration() async {
        // Given
        let locationManagerMock = LocationManagerMock.silent()
        let sut = LocationService(manager: locationManagerMock)

        // When
        let consumer = Task { () -> Fix?? in
            withUnsafeCurrentTask { $0?.cancel() }
            var iterator = sut.positions().makeAsyncIterator()
            return try? await iterator.next()
        }

        // Then
        #expect(await consumer.value == .some(nil))
        #expect(locationManagerMock.startCount == 0)
    }

    @Test("The source stops when the last consumer leaves, not the first")
    func lastConsumerStops() async throws {
        // Given: two consumers of one silent source
        let locationManagerMock = LocationManagerMock.silent()
        let sut = LocationService(manager: locationManagerMock)
        let first = Task { for try await _ in sut.positions() {} }
        let second = Task { for try await _ in sut.updates() {} }
        #expect(await waitUntil { sut.streamCount == 2 })
        #expect(locationManagerMock.startCount == 1)

        // When the first leaves
        first.cancel()
        try await first.value

        // Then the source goes on for the second
        #expect(locationManagerMock.stopCount == 0)
        #expect(sut.streamCount == 1)

        // When the second leaves
        second.cancel()
        try await second.value

        // Then
        #expect(locationManagerMock.stopCount == 1)
        #expect(sut.streamCount == 0)
    }

    @Test("A source started with start() runs on when its last stream consumer leaves")
    func startedSourceOutlivesStreams() async throws {
        // Given
        let locationManagerMock = LocationManagerMock.silent()
        let sut = LocationService(manager: locationManagerMock)
        sut.start()

        // When a loop takes a fix and leaves
        let consumer = Task { for try await _ in sut.positions() { break } }
        #expect(await waitUntil { sut.streamCount == 1 })
        sut.locationManager(locationManagerMock, didUpdateFix: .sample())   // the source's fix
        try await consumer.value

        // Then
        #expect(locationManagerMock.stopCount == 0)
        #expect(locationManagerMock.isRunning)
        sut.stop()
        #expect(locationManagerMock.stopCount == 1)
    }

    @Test("stop() ends updates() at once: what it held is dropped, .stopped is its last element")
    func stopDropsBacklogOfUpdates() async throws {
        // Given: a consumer that took one of five fixes, the rest held
        let fixes = (0..<5).map { Fix.sample(second: $0) }
        let locationManagerMock = LocationManagerMock(script: fixes.map { .fix($0) }, delivery: .insideStart)
        let sut = LocationService(manager: locationManagerMock)
        var updates = sut.updates().makeAsyncIterator()
        let first = try await updates.next()

        // When
        sut.stop()

        // Then
        #expect(first == .fix(fixes[0]))
        #expect(try await updates.next() == .status(.stopped))
        #expect(try await updates.next() == nil)
        #expect(locationManagerMock.stopCount == 1)
    }

    @Test("stop() ends positions() at once: what it held is dropped")
    func stopDropsBacklogOfPositions() async throws {
        // Given
        let fixes = (0..<5).map { Fix.sample(second: $0) }
        let locationManagerMock = LocationManagerMock(script: fixes.map { .fix($0) }, delivery: .insideStart)
        let sut = LocationService(manager: locationManagerMock)
        var positions = sut.positions().makeAsyncIterator()
        let first = try await positions.next()

        // When
        sut.stop()

        // Then
        #expect(first == fixes[0])
        #expect(try await positions.next() == nil)
    }

    @Test("stop() after a source finished still drops what a slow consumer had not taken")
    func stopAfterFinishDropsBacklog() async throws {
        // Given
        let fixes = (0..<5).map { Fix.sample(second: $0) }
        let locationManagerMock = LocationManagerMock.delivering(fixes, then: .finished(emptyStatistics), delivery: .insideStart)
        let sut = LocationService(manager: locationManagerMock)
        var positions = sut.positions().makeAsyncIterator()
        _ = try await positions.next()

        // When
        sut.stop()

        // Then
        #expect(try await positions.next() == nil)
    }

    @Test("A failure is thrown once; the stream is over after it")
    func failureThrownOnce() async {
        // Given
        let locationManagerMock = LocationManagerMock.failing(with: .deviceGone(path: "/dev/ttyACM0"))
        let sut = LocationService(manager: locationManagerMock)
        var iterator = sut.positions().makeAsyncIterator()

        // When
        var thrown: LocationError?
        do throws(LocationError) { _ = try await iterator.next() } catch { thrown = error }
        let after = try? await iterator.next()

        // Then
        #expect(thrown == .deviceGone(path: "/dev/ttyACM0"))
        #expect(after == .some(nil))
        #expect(locationManagerMock.startCount == 1, "the stream over, next() starts nothing")
    }

    @Test("Each iteration of one stream value is a run of its own: a finished capture replays again")
    func iteratingAgainStartsAgain() async {
        // Given
        let fixes = [Fix.sample(second: 0), .sample(second: 1)]
        let locationManagerMock = LocationManagerMock.delivering(fixes, then: .finished(emptyStatistics))
        let sut = LocationService(manager: locationManagerMock)
        let positions = sut.positions()

        // When
        let first = await drain(positions)
        let second = await drain(positions)

        // Then
        #expect(first.elements == fixes && second.elements == fixes)
        #expect(locationManagerMock.startCount == 2)
        #expect(positions.dropped == 0)
    }
}
