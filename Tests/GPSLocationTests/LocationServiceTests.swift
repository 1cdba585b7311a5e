import NMEA
import GPSTestSupport
import GPSLocation
import Synchronization
import Testing

/// `LocationService` against a `LocationManagerMock`, in the seed's Given-When-Then shape.
///
/// The service is held by the test for the whole test: managers hold their delegate weakly.
@Suite("LocationService", .timeLimit(.minutes(1)))
struct LocationServiceTests {
    typealias Step = LocationManagerMock.Step

    /// How long a test waits for something that should happen at once.
    let patience = Duration.seconds(5)

    // MARK: - fetchCurrentLocation(completion:)

    @Test("fetchCurrentLocation passes the manager's fix to the completion and stops the manager it started",
          .timeLimit(.minutes(1)), arguments: [LocationManagerMock.Delivery.onOwnQueue, .insideStart])
    func fetchCurrentLocationSucceeds(delivery: LocationManagerMock.Delivery) async {
        // Given
        let expected = Fix.sample()
        let locationManagerMock = LocationManagerMock.delivering(expected, delivery: delivery)
        let sut = LocationService(manager: locationManagerMock)
        let received = Eventually<Result<Fix, LocationError>>()

        // When
        sut.fetchCurrentLocation { result in
            received.fulfill(result)
        }
        let result = await received.value(within: patience)

        // Then
        #expect(result == .success(expected))
        #expect(result.flatMap { try? $0.get() }?.coordinate?.latitude == 37.6134436427887)
        #expect(result.flatMap { try? $0.get() }?.coordinate?.longitude == 126.926493082645)
        #expect(received.fulfillments == 1)
        #expect(locationManagerMock.startCount == 1)
        #expect(locationManagerMock.stopCount == 1, "started only for the request: stopped once it was answered")
        #expect(sut.lastFix == expected)
    }

    @Test("fetchCurrentLocation waits for a whole cycle's fix: a stream's first epoch cut short is passed over",
          .timeLimit(.minutes(1)))
    func fetchCurrentLocationSkipsCutEpoch() async {
        // Given a source whose first fix comes from an epoch the stream joined part-way
        var cut = Fix.sample()
        cut.isPartialEpoch = true
        cut.mode = .twoD
        cut.altitude = nil
        let whole = Fix.sample()
        let sut = LocationService(manager: LocationManagerMock.delivering([cut, whole]))
        let received = Eventually<Result<Fix, LocationError>>()

        // When
        sut.fetchCurrentLocation { received.fulfill($0) }
        let result = await received.value(within: patience)

        // Then the answer is the whole epoch's fix, though the cut one is still the latest seen first
        #expect(result == .success(whole))
        #expect(received.fulfillments == 1)
    }

    @Test("fetchCurrentLocation passes the manager's typed error to the completion", .timeLimit(.minutes(1)))
    func fetchCurrentLocationFails() async {
        // Given
        let locationManagerMock = LocationManagerMock.failing(with: .deviceGone(path: "/dev/ttyACM0"))
        let sut = LocationService(manager: locationManagerMock)
        let received = Eventually<Result<Fix, LocationError>>()

        // When
        sut.fetchCurrentLocation { received.fulfill($0) }
        let result = await received.value(within: patience)

        // Then
        #expect(result == .failure(.deviceGone(path: "/dev/ttyACM0")))
        #expect(received.fulfillments == 1)
        #expect(locationManagerMock.startCount == 1)
        #expect(sut.lastFix == nil)
    }

    @Test("A source that ends without a fix fails the request with .noFix naming the source", .timeLimit(.minutes(1)))
    func fetchCurrentLocationWhenSourceEnds() async {
        // Given
        let locationManagerMock = LocationManagerMock.ending(with: .finished(emptyStatistics))
        let sut = LocationService(manager: locationManagerMock)
        let received = Eventually<Result<Fix, LocationError>>()

        // When
        sut.fetchCurrentLocation { received.fulfill($0) }
        let result = await received.value(within: patience)

        // Then
        #expect(result == .failure(.noFix(source: "mock receiver")))
        #expect(locationManagerMock.startCount == 1)
    }

    @Test("A source that reports .stopped fails the request with .stopped", .timeLimit(.minutes(1)))
    func fetchCurrentLocationWhenSourceStops() async {
        // Given
        let locationManagerMock = LocationManagerMock.ending(with: .stopped)
        let sut = LocationService(manager: locationManagerMock)
        let received = Eventually<Result<Fix, LocationError>>()

        // When
        sut.fetchCurrentLocation { received.fulfill($0) }
        let result = await received.value(within: patience)

        // Then
        #expect(result == .failure(.stopped))
    }

    @Test("fetchCurrentLocation times out when the manager never delivers", .timeLimit(.minutes(1)))
    func fetchCurrentLocationTimesOut() async {
        // Given
        let locationManagerMock = LocationManagerMock.silent()
        let sut = LocationService(manager: locationManagerMock)
        let received = Eventually<Result<Fix, LocationError>>()
        let clock = ContinuousClock()
        let start = clock.now

        // When
        sut.fetchCurrentLocation(timeout: .milliseconds(100)) { received.fulfill($0) }
        let result = await received.value(within: patience)
        let elapsed = clock.now - start

        // Then
        #expect(result == .failure(.timeout(after: .milliseconds(100))))
        #expect(elapsed >= .milliseconds(90))
        #expect(received.fulfillments == 1)
        #expect(locationManagerMock.startCount == 1)
        #expect(locationManagerMock.stopCount == 1, "nobody else wanted the manager: stopped at the timeout")
    }

    @Test("A fix within the timeout wins, and the timeout does not call the completion again", .timeLimit(.minutes(1)))
    func fixBeforeTimeout() async {
        // Given
        let expected = Fix.sample()
        let locationManagerMock = LocationManagerMock(script: [.pause(.milliseconds(30)), .fix(expected)])
        let sut = LocationService(manager: locationManagerMock)
        let received = Eventually<Result<Fix, LocationError>>()

        // When
        sut.fetchCurrentLocation(timeout: .milliseconds(500)) { received.fulfill($0) }
        let result = await received.value(within: patience)
        try? await Task.sleep(for: .milliseconds(700))   // past the timeout

        // Then
        #expect(result == .success(expected))
        #expect(received.fulfillments == 1)
        #expect(locationManagerMock.stopCount == 1)
    }

    @Test("A fix after the timeout does not call the completion again", .timeLimit(.minutes(1)))
    func fixAfterTimeout() async {
        // Given
        let locationManagerMock = LocationManagerMock(script: [.pause(.seconds(1)), .fix(.sample())])
        let sut = LocationService(manager: locationManagerMock)
        let received = Eventually<Result<Fix, LocationError>>()

        // When
        sut.fetchCurrentLocation(timeout: .milliseconds(50)) { received.fulfill($0) }
        let result = await received.value(within: patience)
        _ = await waitUntil { locationManagerMock.playsEnded >= 1 }

        // Then
        #expect(result == .failure(.timeout(after: .milliseconds(50))))
        #expect(received.fulfillments == 1)
        #expect(sut.lastFix == nil, "the manager was stopped at the timeout: the late fix never came")
    }

    @Test("Fixes without a position (mode .noFix, or no coordinate) do not satisfy fetchCurrentLocation", .timeLimit(.minutes(1)))
    func fixesWithoutPositionAreSkipped() async {
        // Given
        var modeWithoutCoordinate = Fix.sample(second: 2)
        modeWithoutCoordinate.coordinate = nil
        let expected = Fix.sample(second: 3)
        let locationManagerMock = LocationManagerMock(script: [
            .fix(.noFix(second: 0)), .fix(.noFix(second: 1)), .fix(modeWithoutCoordinate), .fix(expected),
        ])
        let sut = LocationService(manager: locationManagerMock)
        let received = Eventually<Result<Fix, LocationError>>()

        // When
        sut.fetchCurrentLocation { received.fulfill($0) }
        let result = await received.value(within: patience)

        // Then
        #expect(result == .success(expected))
        #expect(sut.lastFix == expected)
        #expect(locationManagerMock.stopCount == 1)
    }

    @Test("A source that gives only no-fix epochs and ends fails the request with .noFix", .timeLimit(.minutes(1)))
    func onlyNoFixEpochs() async {
        // Given
        let locationManagerMock = LocationManagerMock.delivering(
            [.noFix(second: 0), .noFix(second: 1)], then: .finished(emptyStatistics))
        let sut = LocationService(manager: locationManagerMock)
        let received = Eventually<Result<Fix, LocationError>>()

        // When
        sut.fetchCurrentLocation { received.fulfill($0) }
        let result = await received.value(within: patience)

        // Then
        #expect(result == .failure(.noFix(source: "mock receiver")))
        #expect(sut.lastFix == nil)
    }

    @Test("Requests made together are all answered with the same fix; the manager starts and stops once", .timeLimit(.minutes(1)))
    func concurrentRequests() async {
        // Given
        let expected = Fix.sample()
        let locationManagerMock = LocationManagerMock(script: [.pause(.milliseconds(100)), .fix(expected)])
        let sut = LocationService(manager: locationManagerMock)
        let first = Eventually<Result<Fix, LocationError>>()
        let second = Eventually<Result<Fix, LocationError>>()

        // When
        sut.fetchCurrentLocation { first.fulfill($0) }
        sut.fetchCurrentLocation(timeout: .seconds(30)) { second.fulfill($0) }
        let results = (await first.value(within: patience), await second.value(within: patience))

        // Then
        #expect(results.0 == .success(expected))
        #expect(results.1 == .success(expected))
        #expect(locationManagerMock.startCount == 1)
        #expect(locationManagerMock.stopCount == 1)
    }

    @Test("A request answered while a stream is open leaves the manager running for the stream", .timeLimit(.minutes(1)))
    func requestDuringStream() async {
        // Given
        let expected = Fix.sample()
        let locationManagerMock = LocationManagerMock.silent()
        let sut = LocationService(manager: locationManagerMock)
        let taken = EventLog()
        let streaming = Task {
            for try await fix in sut.positions() { taken.append(.fix(fix)) }
        }
        #expect(await waitUntil { sut.streamCount == 1 })
        let received = Eventually<Result<Fix, LocationError>>()

        // When
        sut.fetchCurrentLocation { received.fulfill($0) }
        sut.locationManager(locationManagerMock, didUpdateFix: expected)   // the source's fix
        let result = await received.value(within: patience)

        // Then
        #expect(result == .success(expected))
        #expect(locationManagerMock.startCount == 1)
        #expect(locationManagerMock.stopCount == 0, "the stream still wants fixes")

        #expect(await waitUntil { taken.events == [.fix(expected)] })
        sut.stop()
        #expect((try? await streaming.value) != nil, "the stream ended without a failure")
        #expect(taken.events == [.fix(expected)])
    }

    @Test("After a source has finished, a new request starts it again", .timeLimit(.minutes(1)))
    func restartAfterFinish() async {
        // Given
        let expected = Fix.sample()
        let locationManagerMock = LocationManagerMock.delivering([expected], then: .finished(emptyStatistics))
        let sut = LocationService(manager: locationManagerMock)
        let firstRun = await collect(sut.positions())
        #expect(firstRun.finished)

        // When
        let received = Eventually<Result<Fix, LocationError>>()
        sut.fetchCurrentLocation { received.fulfill($0) }
        let result = await received.value(within: patience)

        // Then
        #expect(result == .success(expected))
        #expect(locationManagerMock.startCount == 2)
        #expect(locationManagerMock.stopCount == 1)
    }

    // MARK: - currentFix(timeout:)

    @Test("currentFix returns the manager's fix", .timeLimit(.minutes(1)))
    func currentFixSucceeds() async {
        // Given
        let expected = Fix.sample()
        let locationManagerMock = LocationManagerMock.delivering(expected)
        let sut = LocationService(manager: locationManagerMock)

        // When
        let result = await withDeadline(patience) { () -> Result<Fix, LocationError> in
            do throws(LocationError) { return .success(try await sut.currentFix(timeout: .seconds(10))) } catch { return .failure(error) }
        }

        // Then
        #expect(result == .success(expected))
        #expect(locationManagerMock.startCount == 1)
        #expect(locationManagerMock.stopCount == 1)
    }

    @Test("A request that times out carries what the source had received", .timeLimit(.minutes(1)))
    func timeoutCarriesReception() async {
        // Given a source that has read bytes, none of them NMEA, and gives no fix
        let heard = Reception(source: "/dev/ttyS0", bytes: 300, baud: 4800)
        let sut = LocationService(manager: NoisyPort(reception: heard))

        // When a fix is asked for with a short timeout
        let received = Eventually<Result<Fix, LocationError>>()
        sut.fetchCurrentLocation(timeout: .milliseconds(50)) { received.fulfill($0) }
        let result = await received.value(within: patience)

        // Then the timeout says what had arrived
        #expect(result == .failure(.timeout(after: .milliseconds(50), reception: heard)))
    }

    @Test("currentFix throws .timeout when the manager never delivers", .timeLimit(.minutes(1)))
    func currentFixTimesOut() async {
        // Given
        let locationManagerMock = LocationManagerMock.silent()
        let sut = LocationService(manager: locationManagerMock)

        // When
        let result = await withDeadline(patience) { () -> Result<Fix, LocationError> in
            do throws(LocationError) { return .success(try await sut.currentFix(timeout: .milliseconds(100))) } catch { return .failure(error) }
        }

        // Then
        #expect(result == .failure(.timeout(after: .milliseconds(100))))
        #expect(locationManagerMock.stopCount == 1)
    }

    @Test("currentFix throws the source's error", .timeLimit(.minutes(1)))
    func currentFixFails() async {
        // Given
        let locationManagerMock = LocationManagerMock.failing(with: .notACapture(path: "notes.txt"))
        let sut = LocationService(manager: locationManagerMock)

        // When
        let result = await withDeadline(patience) { () -> Result<Fix, LocationError> in
            do throws(LocationError) { return .success(try await sut.currentFix(timeout: .seconds(10))) } catch { return .failure(error) }
        }

        // Then
        #expect(result == .failure(.notACapture(path: "notes.txt")))
    }

    // MARK: - Streams

    @Test("positions() yields every fix in order and finishes when the source reports .finished",
          .timeLimit(.minutes(1)), arguments: [LocationManagerMock.Delivery.onOwnQueue, .insideStart])
    func fixesStream(delivery: LocationManagerMock.Delivery) async {
        // Given
        let fixes = (0..<5).map { Fix.sample(second: $0, latitude: 37.6 + Double($0) / 1000) }
        let locationManagerMock = LocationManagerMock.delivering(fixes, then: .finished(emptyStatistics), delivery: delivery)
        let sut = LocationService(manager: locationManagerMock)

        // When
        let streamed = await collect(sut.positions())

        // Then
        #expect(streamed.finished, "the stream must finish at .finished")
        #expect(streamed.elements == fixes)
        #expect(locationManagerMock.startCount == 1)
        #expect(sut.lastFix == fixes.last)
    }

    @Test("positions() leaves out epochs without a position, so a coordinate is never nil; updates() has them all",
          .timeLimit(.minutes(1)))
    func positionsLeaveOutNoFix() async {
        // Given: a cold start's epochs (no fix, then a mode without a coordinate) around a fix
        let good = Fix.sample(second: 1)
        var modeWithoutCoordinate = Fix.sample(second: 3)
        modeWithoutCoordinate.coordinate = nil
        let epochs = [Fix.noFix(second: 0), good, .noFix(second: 2), modeWithoutCoordinate]
        let locationManagerMock = LocationManagerMock.delivering(epochs, then: .finished(emptyStatistics))
        let sut = LocationService(manager: locationManagerMock)

        // When
        let positions = await collect(sut.positions())
        let updates = await collect(sut.updates())

        // Then
        #expect(positions.finished)
        #expect(positions.elements == [good])
        #expect(positions.elements.allSatisfy { $0.coordinate != nil && $0.hasFix })
        #expect(updates.elements == epochs.map { .fix($0) } + [.status(.finished(emptyStatistics))])
        #expect(sut.lastFix == good)
    }

    @Test("updates() yields fixes, sky views, sentences, notes and statuses in order, ending with the terminal one", .timeLimit(.minutes(1)))
    func eventsStream() async {
        // Given
        let a = Fix.sample(second: 0), b = Fix.sample(second: 1)
        let finished = SourceStatus.finished(emptyStatistics)
        let note = ReceiverNote(severity: .notice, text: "ANTENNA OK")
        let locationManagerMock = LocationManagerMock(script: [
            .status(.started), .sentence("$GPGGA,120000.00,,,,,0,00,,,M,,M,,*4B"), .note(note), .fix(a), .sky(.sample),
            .status(.stale(after: .seconds(2))), .status(.streaming), .fix(b), .status(finished),
        ])
        let sut = LocationService(manager: locationManagerMock)

        // When
        let streamed = await collect(sut.updates())

        // Then
        #expect(streamed.finished)
        #expect(streamed.elements == [
            .status(.started), .sentence("$GPGGA,120000.00,,,,,0,00,,,M,,M,,*4B"), .note(note), .fix(a), .sky(.sample),
            .status(.stale(after: .seconds(2))), .status(.streaming), .fix(b), .status(finished),
        ])
        #expect(streamed.elements.filter(\.isNote) == [.note(note)])
        #expect(streamed.elements.last?.isTerminal == true)
    }

    @Test("A source's failure is thrown from next() as its LocationError, after what came before it",
          .timeLimit(.minutes(1)), arguments: [LocationManagerMock.Delivery.onOwnQueue, .insideStart])
    func failureIsThrown(delivery: LocationManagerMock.Delivery) async {
        // Given
        let a = Fix.sample()
        let locationManagerMock = LocationManagerMock(script: [.fix(a), .error(.deviceGone(path: "/dev/ttyUSB0"))],
                                                      delivery: delivery)
        let sut = LocationService(manager: locationManagerMock)

        // When
        let events = await drain(sut.updates())
        let fixes = await drain(sut.positions())

        // Then
        #expect(events.finished && fixes.finished)
        #expect(events.elements == [.fix(a)], "the error is thrown, never an element")
        #expect(events.error == .deviceGone(path: "/dev/ttyUSB0"))
        #expect(fixes.elements == [a])
        #expect(fixes.error == .deviceGone(path: "/dev/ttyUSB0"))
    }

    @Test("Two streams each get every event", .timeLimit(.minutes(1)))
    func twoStreams() async {
        // Given
        let fixes = (0..<3).map { Fix.sample(second: $0) }
        let locationManagerMock = LocationManagerMock.silent()
        let sut = LocationService(manager: locationManagerMock)

        // When: both iterate at once, and the source reports
        async let first = collect(sut.positions())
        async let second = collect(sut.updates())
        #expect(await waitUntil { sut.streamCount == 2 })
        for fix in fixes { sut.locationManager(locationManagerMock, didUpdateFix: fix) }
        sut.locationManager(locationManagerMock, didChangeStatus: .finished(emptyStatistics))
        let (a, b) = await (first, second)

        // Then
        #expect(a.finished && b.finished)
        #expect(a.elements == fixes)
        #expect(b.elements == fixes.map { .fix($0) } + [.status(.finished(emptyStatistics))])
        #expect(locationManagerMock.startCount == 1)
    }

    // MARK: - stop()

    @Test("stop() fails pending requests with .stopped, finishes streams and stops the manager", .timeLimit(.minutes(1)))
    func stopEndsEverything() async {
        // Given
        let locationManagerMock = LocationManagerMock.silent()
        let sut = LocationService(manager: locationManagerMock)
        let fixes = Task { await collect(sut.positions()) }
        let events = Task { await collect(sut.updates()) }
        let received = Eventually<Result<Fix, LocationError>>()
        sut.fetchCurrentLocation(timeout: .seconds(30)) { received.fulfill($0) }
        #expect(await waitUntil { sut.streamCount == 2 })

        // When
        sut.stop()

        // Then
        let result = await received.value(within: patience)
        let (streamedFixes, streamedEvents) = (await fixes.value, await events.value)
        #expect(result == .failure(.stopped))
        #expect(received.fulfillments == 1)
        #expect(streamedFixes.finished)
        #expect(streamedFixes.elements.isEmpty)
        #expect(streamedEvents.finished)
        #expect(streamedEvents.elements == [.status(.stopped)])
        #expect(locationManagerMock.startCount == 1)
        #expect(locationManagerMock.stopCount == 1)
        #expect(!locationManagerMock.isRunning)
    }

    @Test("stop() during a stream ends it after the fixes already delivered", .timeLimit(.minutes(1)))
    func stopMidStream() async {
        // Given
        let a = Fix.sample(second: 0)
        let locationManagerMock = LocationManagerMock(script: [.fix(a), .pause(.seconds(30)), .fix(.sample(second: 1))])
        let sut = LocationService(manager: locationManagerMock)
        let taken = EventLog()
        let consumer = Task {
            do throws(LocationError) {
                for try await event in sut.updates() { taken.append(event) }
            } catch {}
        }
        #expect(await waitUntil { taken.events == [.fix(a)] })

        // When
        sut.stop()

        // Then
        await consumer.value
        #expect(taken.events == [.fix(a), .status(.stopped)])
        #expect(locationManagerMock.stopCount == 1)
        _ = await waitUntil { locationManagerMock.playsEnded >= 1 }
        #expect(locationManagerMock.stepsDelivered == 1, "the mock's pause was cut short and nothing followed")
    }

    @Test("stop() when nothing runs does not stop the manager again", .timeLimit(.minutes(1)))
    func stopWhenIdle() {
        // Given
        let locationManagerMock = LocationManagerMock.silent()
        let sut = LocationService(manager: locationManagerMock)

        // When
        sut.stop()

        // Then
        #expect(locationManagerMock.startCount == 0)
        #expect(locationManagerMock.stopCount == 0)
    }

    // MARK: - After the end

    @Test("Events after the terminal one are dropped", .timeLimit(.minutes(1)))
    func eventsAfterTerminalAreDropped() async {
        // Given: a manager that goes on talking after it said it had finished
        let a = Fix.sample(second: 0)
        let finished = SourceStatus.finished(emptyStatistics)
        let locationManagerMock = LocationManagerMock(script: [
            .fix(a), .status(finished),
            .fix(.sample(second: 1)), .sky(.sample), .sentence("$GPTXT,late"), .status(.streaming),
            .error(.io("late")), .status(.stopped), .fix(.sample(second: 2)),
        ])
        let sut = LocationService(manager: locationManagerMock)
        let seen = Mutex<[LocationEvent]>([])

        // When
        sut.subscribe { event in seen.withLock { $0.append(event) } }
        let played = await waitUntil { locationManagerMock.playsEnded >= 1 }

        // Then
        #expect(played)
        #expect(locationManagerMock.stepsDelivered == 9)
        #expect(seen.withLock { $0 } == [.fix(a), .status(finished)])
        #expect(sut.lastFix == a)
    }

    @Test("After an error, nothing more reaches subscribers or requests", .timeLimit(.minutes(1)))
    func eventsAfterErrorAreDropped() async {
        // Given
        let locationManagerMock = LocationManagerMock(script: [
            .pause(.milliseconds(100)),   // until both the subscriber and the request are in
            .error(.deviceGone(path: "/dev/ttyACM0")), .fix(.sample()), .status(.finished(emptyStatistics)),
        ])
        let sut = LocationService(manager: locationManagerMock)
        let seen = Mutex<[LocationEvent]>([])
        let received = Eventually<Result<Fix, LocationError>>()

        // When
        sut.subscribe { event in seen.withLock { $0.append(event) } }
        sut.fetchCurrentLocation { received.fulfill($0) }
        let result = await received.value(within: patience)
        _ = await waitUntil { locationManagerMock.playsEnded >= 1 }

        // Then
        #expect(result == .failure(.deviceGone(path: "/dev/ttyACM0")))
        #expect(received.fulfillments == 1)
        #expect(seen.withLock { $0 } == [.error(.deviceGone(path: "/dev/ttyACM0"))])
        #expect(sut.lastFix == nil)
    }

    @Test("A manager's own news after stop() is dropped", .timeLimit(.minutes(1)))
    func newsAfterStopIsDropped() async {
        // Given: a manager slow to notice the stop, which still reports what it had in hand
        let locationManagerMock = LocationManagerMock.silent()
        let sut = LocationService(manager: locationManagerMock)
        let seen = Mutex<[LocationEvent]>([])
        sut.subscribe { event in seen.withLock { $0.append(event) } }

        // When
        sut.stop()
        sut.locationManager(locationManagerMock, didUpdateFix: .sample())
        sut.locationManager(locationManagerMock, didUpdateSkyView: .sample)
        sut.locationManager(locationManagerMock, didChangeStatus: .stopped)

        // Then
        #expect(seen.withLock { $0 } == [.status(.stopped)])
        #expect(sut.lastFix == nil)
    }

    // MARK: - Wiring

    @Test("The service makes itself the manager's delegate")
    func serviceIsDelegate() {
        // Given
        let locationManagerMock = LocationManagerMock.silent()

        // When
        let sut = LocationService(manager: locationManagerMock)

        // Then
        #expect(locationManagerMock.delegate === sut)
        #expect(sut.manager === locationManagerMock)
        #expect(sut.lastFix == nil)
    }

    @Test("The manager does not keep the service alive (weak delegate, no cycle)")
    func delegateIsWeak() {
        // Given
        let locationManagerMock = LocationManagerMock.silent()
        var sut: LocationService? = LocationService(manager: locationManagerMock)
        #expect(locationManagerMock.delegate != nil)

        // When
        sut = nil

        // Then
        #expect(sut == nil)
        #expect(locationManagerMock.delegate == nil)
    }

    @Test("A stream whose source ends while it is being subscribed lets go of its subscription once released",
          .timeLimit(.minutes(1)))
    func streamEndingDuringSubscribe() async {
        // Given: a source that reports everything before startUpdatingLocation() returns, as the
        // seed's mock does (a fast manager thread can do the same before the first next() returns)
        let expected = Fix.sample()
        let locationManagerMock = LocationManagerMock.delivering([expected], then: .finished(emptyStatistics),
                                                                 delivery: .insideStart)
        let sut = LocationService(manager: locationManagerMock)
        let firstRun = await collect(sut.positions())
        #expect(firstRun.finished)
        #expect(firstRun.elements == [expected])

        // When: a request, once the stream is over and gone
        let received = Eventually<Result<Fix, LocationError>>()
        sut.fetchCurrentLocation { received.fulfill($0) }
        let result = await received.value(within: patience)

        // Then: the manager was started for the request only, so it is stopped after it
        #expect(result == .success(expected))
        #expect(locationManagerMock.startCount == 2)
        #expect(locationManagerMock.stopCount == 1)
    }

    // MARK: - Edge cases that once failed

    @Test("A subscriber that calls stop() during a fix: no subscriber sees anything after .stopped",
          .timeLimit(.minutes(1)))
    func stopFromInsideSubscriber() async {
        // Given: two consumers, each of which has had enough after the second fix
        let a = Fix.sample(second: 0), b = Fix.sample(second: 1)
        let locationManagerMock = LocationManagerMock(script: [
            .pause(.milliseconds(100)),   // until both subscribers are in
            .fix(a), .fix(b), .fix(.sample(second: 2)),
        ])
        let sut = LocationService(manager: locationManagerMock)
        let logs = [EventLog(), EventLog()]
        for log in logs {
            sut.subscribe { [weak sut] event in
                log.append(event)
                if event == .fix(b) { sut?.stop() }
            }
        }

        // When
        let played = await waitUntil { locationManagerMock.playsEnded >= 1 }

        // Then
        #expect(played)
        #expect(locationManagerMock.stopCount == 1)
        #expect(logs.contains { $0.events == [.fix(a), .fix(b), .status(.stopped)] })
        for log in logs {
            #expect(log.events == [.fix(a), .fix(b), .status(.stopped)])
        }
    }

    @Test("A stream delivers and finishes even when the caller keeps only the stream", .timeLimit(.minutes(1)))
    func streamWithoutService() async {
        // Given
        let fixes = [Fix.sample(second: 0), Fix.sample(second: 1)]
        let locationManagerMock = LocationManagerMock(script: [.pause(.milliseconds(50))] + fixes.map { .fix($0) }
                                                      + [.status(.finished(emptyStatistics))])

        // When: `for try await fix in LocationService(manager: m).positions()`
        let stream = LocationService(manager: locationManagerMock).positions()
        let streamed = await collect(stream, within: .seconds(2))

        // Then
        #expect(locationManagerMock.startCount == 1)
        #expect(streamed.finished)
        #expect(streamed.elements == fixes)
    }


    @Test("A stream that ended while being subscribed, and is still held, no longer counts as a subscriber",
          .timeLimit(.minutes(1)))
    func heldStreamEndingDuringSubscribe() async {
        // Given: a source that reports everything before startUpdatingLocation() returns, and a
        // caller that keeps its (finished) stream
        let expected = Fix.sample()
        let locationManagerMock = LocationManagerMock.delivering([expected], then: .finished(emptyStatistics),
                                                                 delivery: .insideStart)
        let sut = LocationService(manager: locationManagerMock)
        let stream = sut.positions()
        let firstRun = await collect(stream)
        #expect(firstRun.finished)

        // When
        let received = Eventually<Result<Fix, LocationError>>()
        sut.fetchCurrentLocation { received.fulfill($0) }
        let result = await received.value(within: patience)

        // Then: started for the request only, so stopped once it is answered
        #expect(result == .success(expected))
        #expect(locationManagerMock.stopCount == 1)
        withExtendedLifetime(stream) {}
    }
}

@Suite("LocationError")
struct LocationErrorTests {
    @Test("Descriptions name the thing to fix", arguments: [
        (LocationError.timeout(after: .milliseconds(100)), "No fix within 0.1 s."),
        (.timeout(after: .seconds(30)), "No fix within 30 s."),
        (.fileNotFound(path: "x.nmea"), "x.nmea: no such file."),
        (.noFix(source: "mock receiver"), "mock receiver ended without a fix."),
        (.stopped, "Stopped before a fix arrived."),
        (.permissionDenied(path: "/dev/ttyACM0", group: "dialout"), "sudo usermod -aG dialout $USER"),
    ])
    func descriptions(error: LocationError, expected: String) {
        #expect(error.description.contains(expected))
    }

    @Test("A timeout says what arrived before it: nothing, bytes without NMEA (at the rate in use), or NMEA without a fix")
    func timeoutStatesWhatArrived() {
        let port = "/dev/ttyUSB0"
        let nothing = LocationError.timeout(after: .seconds(2), reception: Reception(source: port, baud: 9600))
        let noise = LocationError.timeout(after: .seconds(2), reception: Reception(source: port, bytes: 512, baud: 9600))
        let hunting = LocationError.timeout(after: .seconds(2), reception: Reception(source: port, bytes: 512))
        let noFix = LocationError.timeout(after: .seconds(30), reception: Reception(source: port, bytes: 4096, sentences: 60, baud: 4800))

        #expect(nothing.description == "No fix within 2 s: nothing received from /dev/ttyUSB0.")
        #expect(noise.description == "No fix within 2 s: /dev/ttyUSB0 sent 512 bytes, but no NMEA sentences at 9600 baud.")
        #expect(hunting.description == "No fix within 2 s: /dev/ttyUSB0 sent 512 bytes, but no NMEA sentences.")
        #expect(noFix.description == "No fix within 30 s: /dev/ttyUSB0 sends NMEA (60 sentences), but no fix yet.")
        #expect(LocationError.timeout(after: .seconds(30)).description == "No fix within 30 s.")
    }

    @Test("Terminal events are the terminal statuses and errors")
    func terminality() {
        #expect(LocationEvent.status(.finished(emptyStatistics)).isTerminal)
        #expect(LocationEvent.status(.stopped).isTerminal)
        #expect(LocationEvent.error(.stopped).isTerminal)
        #expect(!LocationEvent.status(.started).isTerminal)
        #expect(!LocationEvent.status(.disconnected(reason: "unplugged")).isTerminal)
        #expect(!LocationEvent.status(.reconnecting(attempt: 2)).isTerminal)
        #expect(!LocationEvent.fix(.sample()).isTerminal)
        #expect(!LocationEvent.sentence("$GPGGA").isTerminal)
    }
}

/// Events one subscriber saw, in the order it saw them.
final class EventLog: Sendable {
    private let log = Mutex<[LocationEvent]>([])
    func append(_ event: LocationEvent) { log.withLock { $0.append(event) } }
    var events: [LocationEvent] { log.withLock { $0 } }
}

/// A source that delivers nothing, and reports a fixed reception.
private final class NoisyPort: LocationManagerInterface {
    let relay = DelegateRelay()
    let reception: Reception?

    init(reception: Reception) { self.reception = reception }

    var delegate: (any LocationManagerDelegate)? {
        get { relay.delegate }
        set { relay.delegate = newValue }
    }

    var sourceDescription: String { reception?.source ?? "" }
    func startUpdatingLocation() {}
    func stopUpdatingLocation() {}
}
