import NMEA
import Dispatch
import Glibc
import GPSTestSupport
import GPSLocation
import Synchronization
import Testing

/// The rules `LocationService` keeps whoever calls it: one delivery thread per run, one service
/// per manager, a request withdrawn by its task's cancellation.
@Suite("LocationService rules", .timeLimit(.minutes(1)))
struct LocationServiceRulesTests {
    let patience = Duration.seconds(5)

    // MARK: - One delivery rule

    @Test("stop() from another thread while the source's thread is mid-delivery: .stopped follows the event in hand, on the source's thread")
    func stopDuringDelivery() async {
        // Given: a subscriber that is in the middle of taking a fix when stop() is called
        let a = Fix.sample()
        let locationManagerMock = LocationManagerMock(script: [.fix(a), .pause(.seconds(30))])
        let sut = LocationService(manager: locationManagerMock)
        let log = ThreadedLog()
        let inside = Eventually<Bool>()
        let release = DispatchSemaphore(value: 0)
        sut.subscribe { event in
            log.enter(event)
            if case .fix = event {
                inside.fulfill(true)
                release.wait()
            }
            log.leave()
        }
        #expect(await inside.value(within: patience) == true)

        // When: stopped from this thread (not the mock's)
        let stopper = pthread_self()
        sut.stop()

        // Then: nothing is delivered here, beside the subscriber still at work
        #expect(log.events == [.fix(a)])
        release.signal()
        #expect(await waitUntil { log.events.count == 2 })
        #expect(log.events == [.fix(a), .status(.stopped)])
        let threads = log.threads
        #expect(threads[0] == threads[1], ".stopped on the thread that delivered the fix")
        #expect(threads[1] != UInt(stopper))
        #expect(log.mostAtOnce == 1, "no two deliveries overlapped")
        #expect(locationManagerMock.stopCount == 1)
    }

    @Test("stop() with nothing in flight delivers .stopped on the caller's thread before it returns")
    func stopWhenIdleDeliversHere() async {
        // Given
        let locationManagerMock = LocationManagerMock.silent()
        let sut = LocationService(manager: locationManagerMock)
        let log = ThreadedLog()
        sut.subscribe { event in
            log.enter(event)
            log.leave()
        }

        // When
        sut.stop()

        // Then
        #expect(log.events == [.status(.stopped)])
        #expect(log.threads == [UInt(pthread_self())])
    }

    // MARK: - currentFix and cancellation

    @Test("currentFix throws .cancelled when its task is cancelled, and a source started for it is stopped")
    func currentFixCancelled() async {
        // Given: a request waiting on a silent source
        let locationManagerMock = LocationManagerMock.silent()
        let sut = LocationService(manager: locationManagerMock)
        let asking = Task { () -> Result<Fix, LocationError> in
            do throws(LocationError) { return .success(try await sut.currentFix(timeout: .seconds(30))) } catch { return .failure(error) }
        }
        #expect(await waitUntil { locationManagerMock.startCount == 1 })

        // When
        asking.cancel()

        // Then
        #expect(await asking.value == .failure(.cancelled))
        #expect(locationManagerMock.stopCount == 1, "started only for the request: stopped with it")
        #expect(sut.pendingRequests == 0, "the request was withdrawn")
        #expect(LocationError.cancelled.description.contains("cancelled"))
    }

    @Test("currentFix in a task already cancelled throws .cancelled at once")
    func currentFixAlreadyCancelled() async {
        // Given
        let locationManagerMock = LocationManagerMock.silent()
        let sut = LocationService(manager: locationManagerMock)

        // When
        let asking = Task { () -> Result<Fix, LocationError> in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(LocationError) { return .success(try await sut.currentFix(timeout: .seconds(30))) } catch { return .failure(error) }
        }
        let result = await withDeadline(patience) { await asking.value }

        // Then
        #expect(result == .failure(.cancelled))
        #expect(locationManagerMock.stopCount == locationManagerMock.startCount)
    }

    @Test("Cancelling one request leaves the others waiting, and the source running for them")
    func cancellingOneOfTwo() async {
        // Given
        let expected = Fix.sample()
        let locationManagerMock = LocationManagerMock.silent()
        let sut = LocationService(manager: locationManagerMock)
        let other = Eventually<Result<Fix, LocationError>>()
        sut.fetchCurrentLocation(timeout: .seconds(30)) { other.fulfill($0) }
        let asking = Task { () -> Result<Fix, LocationError> in
            do throws(LocationError) { return .success(try await sut.currentFix(timeout: .seconds(30))) } catch { return .failure(error) }
        }
        #expect(await waitUntil { sut.pendingRequests == 2 })

        // When
        asking.cancel()

        // Then
        #expect(await asking.value == .failure(.cancelled))
        #expect(sut.pendingRequests == 1)
        #expect(locationManagerMock.stopCount == 0)
        sut.locationManager(locationManagerMock, didUpdateFix: expected)   // the source's fix, at last
        #expect(await other.value(within: patience) == .success(expected))
        #expect(locationManagerMock.stopCount == 1)
    }

    // MARK: - One service per manager

    @Test("A second service on a manager that has one takes nothing from it, and refuses every use with .managerInUse")
    func oneServicePerManager() async {
        // Given
        let expected = Fix.sample()
        let locationManagerMock = LocationManagerMock(script: [.pause(.milliseconds(50)), .fix(expected)])
        let first = LocationService(manager: locationManagerMock)

        // When
        let second = LocationService(manager: locationManagerMock)

        // Then the first keeps the manager
        #expect(locationManagerMock.delegate === first)
        let refusal = LocationError.managerInUse(source: "mock receiver")
        let asked = Eventually<Result<Fix, LocationError>>()
        second.fetchCurrentLocation { asked.fulfill($0) }
        #expect(await asked.value(within: patience) == .failure(refusal))
        let streamed = await drain(second.positions())
        #expect(streamed.error == refusal && streamed.elements.isEmpty)
        let told = EventLog()
        second.subscribe { told.append($0) }
        #expect(told.events == [.error(refusal)])
        second.start()
        second.stop()
        #expect(locationManagerMock.startCount == 0 && locationManagerMock.stopCount == 0, "the second never drives the manager")
        #expect(refusal.description.contains("Use that service"))

        // And the first still gets its fixes
        let fix = await withDeadline(patience) { () -> Fix? in try? await first.currentFix(timeout: .seconds(5)) }
        #expect(fix == .some(expected))
    }

    @Test("Once the first service is gone, a new one may take the manager")
    func managerFreedWithItsService() {
        // Given
        let locationManagerMock = LocationManagerMock.silent()
        var first: LocationService? = LocationService(manager: locationManagerMock)
        #expect(locationManagerMock.delegate === first)

        // When
        first = nil
        let second = LocationService(manager: locationManagerMock)

        // Then
        #expect(locationManagerMock.delegate === second)
    }
}

/// Events with the thread each came on, and how many deliveries ever overlapped.
private final class ThreadedLog: Sendable {
    private struct State {
        var events: [LocationEvent] = []
        var threads: [UInt] = []
        var inside = 0
        var mostAtOnce = 0
    }

    private let state = Mutex(State())

    func enter(_ event: LocationEvent) {
        let me = UInt(pthread_self())
        state.withLock { s in
            s.events.append(event)
            s.threads.append(me)
            s.inside += 1
            s.mostAtOnce = max(s.mostAtOnce, s.inside)
        }
    }

    func leave() { state.withLock { $0.inside -= 1 } }

    var events: [LocationEvent] { state.withLock { $0.events } }
    var threads: [UInt] { state.withLock { $0.threads } }
    var mostAtOnce: Int { state.withLock { $0.mostAtOnce } }
}
