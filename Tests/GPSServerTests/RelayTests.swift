import Foundation
import GPSLocation
import GPSServer
import GPSTestSupport
import NMEA
import Synchronization
import Testing

/// What happened, in order, across the source's thread, the relay's and the feeds'.
private final class Journal: Sendable {
    let entries = Mutex<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
    func index(of entry: String) -> Int? { all.firstIndex(of: entry) }
}

/// A source that sends a fix every 20 ms on a thread of its own until stopped, told to fail,
/// or told to finish; it writes its start and stop into the journal.
private final class TickingSource: LocationManagerInterface, @unchecked Sendable {
    // The delegate is set once, before the start; the rest is behind the lock.
    weak var delegate: (any LocationManagerDelegate)?
    let sourceDescription: String
    private let journal: Journal
    private let state = Mutex<(stopped: Bool, end: LocationEvent?)>((false, nil))

    init(_ name: String, journal: Journal) {
        sourceDescription = name
        self.journal = journal
    }

    func fail() { state.withLock { $0.end = .error(.deviceGone(path: sourceDescription)) } }
    /// Ends by itself (as a capture does; `.finished` needs statistics only a real source has).
    func finish() { state.withLock { $0.end = .status(.stopped) } }

    func startUpdatingLocation() {
        journal.add("\(sourceDescription) started")
        Thread.detachNewThread { [self] in
            delegate?.locationManager(self, didChangeStatus: .started)
            for event in Sample.events(0..<500) {
                let (stopped, end) = state.withLock { ($0.stopped, $0.end) }
                if stopped { return }
                switch end {
                case .error(let error)?: return delegate?.locationManager(self, didFailWithError: error) ?? ()
                case .status(let status)?: return delegate?.locationManager(self, didChangeStatus: status) ?? ()
                default: break
                }
                if case .fix(let fix) = event { delegate?.locationManager(self, didUpdateFix: fix) }
                usleep(20_000)
            }
        }
    }

    func stopUpdatingLocation() {
        state.withLock { $0.stopped = true }
        journal.add("\(sourceDescription) stopped")
    }
}

/// A feed that writes what it is told into the journal; it may refuse to start, or fail at
/// its third event.
private final class RecordingFeed: LocationFeed {
    struct Refusal: Error, Equatable {}
    let name: String
    let journal: Journal
    let refusesToStart: Bool
    let failsAtThird: Bool
    private let state = Mutex<(control: FeedControl?, taken: Int)>((nil, 0))

    init(_ name: String, journal: Journal, refusesToStart: Bool = false, failsAtThird: Bool = false) {
        self.name = name
        self.journal = journal
        self.refusesToStart = refusesToStart
        self.failsAtThird = failsAtThird
    }

    var taken: Int { state.withLock { $0.taken } }

    func start(_ sources: [RelaySource], control: FeedControl) throws(FeedFailure) {
        if refusesToStart { throw FeedFailure(feed: name, error: Refusal()) }
        state.withLock { $0.control = control }
        journal.add("\(name) started with \(sources.count) sources")
    }

    func take(_ event: LocationEvent, from source: RelaySource) {
        let (control, taken) = state.withLock { s in
            s.taken += 1
            return (s.control, s.taken)
        }
        if failsAtThird, taken == 3 { control?.fail(FeedFailure(feed: name, error: Refusal())) }
    }

    func willStop() { journal.add("\(name) will stop") }
    func stop() { journal.add("\(name) stopped") }
}

/// The async runs are awaited without blocking the cooperative pool; a test reads its client
/// (blocking) only once the relay has started, or a pool held by blocking reads could keep
/// the task that starts it from running at all.
@Suite("LocationRelay: sources and feeds started, stopped and failed in one order", .serialized, .timeLimit(.minutes(1)))
struct RelayTests {
    @Test("Feeds start before the source, hear willStop before it stops, and stop after it, in reverse order")
    func order() async throws {
        // Given a source and two feeds
        let journal = Journal()
        let source = TickingSource("src", journal: journal)
        let first = RecordingFeed("first", journal: journal), second = RecordingFeed("second", journal: journal)
        let relay = LocationRelay(LocationService(manager: source), feeds: [first, second])

        // When it runs a while and is stopped
        let run = Task { try await relay.run() }
        #expect(await waitUntil(.seconds(20)) { second.taken >= 3 })
        relay.stop()
        try await run.value

        // Then
        #expect(journal.all == [
            "first started with 1 sources", "second started with 1 sources", "src started",
            "first will stop", "second will stop", "src stopped", "second stopped", "first stopped",
        ])
        #expect(first.taken == second.taken, "every feed is told every event")
    }

    @Test("A feed that fails ends the relay with its failure, and the source is stopped")
    func feedFails() async throws {
        let journal = Journal()
        let source = TickingSource("src", journal: journal)
        let relay = LocationRelay(LocationService(manager: source), feeds: [RecordingFeed("mqtt", journal: journal, failsAtThird: true)])
        do {
            try await relay.run()
            Issue.record("the relay ended without the feed's failure")
        } catch .feedFailed(let failure) {
            #expect(failure.feed == "mqtt")
            #expect(failure.error as? RecordingFeed.Refusal == RecordingFeed.Refusal())
        } catch {
            Issue.record("ended with \(error)")
        }
        #expect(journal.index(of: "src stopped") != nil)
        #expect(journal.all.last == "mqtt stopped")
    }

    @Test("A feed that cannot start: the ones before it are stopped, and no source starts")
    func feedCannotStart() async throws {
        let journal = Journal()
        let source = TickingSource("src", journal: journal)
        let relay = LocationRelay(LocationService(manager: source),
                                  feeds: [RecordingFeed("a", journal: journal), RecordingFeed("b", journal: journal, refusesToStart: true)])
        await #expect(throws: RelayError.self) { try await relay.run() }
        #expect(journal.all == ["a started with 1 sources", "a stopped"])
    }

    @Test("Without a feed that outlives them, the relay ends when every source has ended; failed only if all failed")
    func sourcesEnd() async throws {
        let journal = Journal()
        let one = TickingSource("one", journal: journal), two = TickingSource("two", journal: journal)
        let relay = LocationRelay([LocationService(manager: one), LocationService(manager: two)], feeds: [RecordingFeed("f", journal: journal)])
        let run = Task { try await relay.run() }
        try await Task.sleep(for: .milliseconds(100))
        one.fail()
        try await Task.sleep(for: .milliseconds(200))
        #expect(journal.index(of: "f will stop") == nil, "one source left: still running")
        two.finish()
        // One failed, one finished: not every source failed, so it ends normally.
        try await run.value
        #expect(journal.all.last == "f stopped")
    }

    @Test("With the gpsd server (which outlives its sources) a finished source is still served; every source failing ends it")
    func serverOutlivesSources() async throws {
        let journal = Journal()
        let source = TickingSource("/dev/ttyTEST", journal: journal)
        let server = try GpsdServer(configuration: .init(address: ListenAddress(host: "127.0.0.1", port: 0), release: "test"),
                                    device: .init(path: "/dev/ttyTEST")) { _ in }
        let relay = LocationRelay(LocationService(manager: source), feeds: [server.feed()])
        let outcome = Eventually<String>()
        Thread.detachNewThread {
            do throws(RelayError) { try relay.run(); outcome.fulfill("stopped") } catch { outcome.fulfill("\(error)") }
        }
        let client = try LineClient(port: server.address.port)
        client.send("?WATCH={\"enable\":true,\"json\":true};\n")
        #expect(client.readLines(6, within: 5).contains { $0.hasPrefix("{\"class\":\"TPV\"") })
        source.finish()
        try await Task.sleep(for: .milliseconds(200))
        client.send("?POLL;\n")
        #expect(client.readLines(1, within: 5).first?.hasPrefix("{\"class\":\"POLL\"") == true, "still serving after the end")
        relay.stop()
        let ended = await outcome.value(within: .seconds(5))
        #expect(ended == "stopped", "a stop is a normal end")
        #expect(client.waitForClose(within: 3))
    }

    @Test("try await server.run(serving:) serves without holding the caller's thread; cancelling stops the source and returns")
    func asyncServeCancels() async throws {
        let journal = Journal()
        let source = TickingSource("/dev/ttyTEST", journal: journal)
        let server = try GpsdServer(configuration: .init(address: ListenAddress(host: "127.0.0.1", port: 0), release: "test"),
                                    device: .init(path: "/dev/ttyTEST")) { _ in }
        let serving = Task { try await server.run(serving: [LocationService(manager: source)]) }
        try #require(await waitUntil(.seconds(20)) { journal.index(of: "/dev/ttyTEST started") != nil })
        let client = try LineClient(port: server.address.port)
        client.send("?WATCH={\"enable\":true,\"json\":true};\n")
        #expect(client.readLines(6, within: 5).contains { $0.hasPrefix("{\"class\":\"TPV\"") })

        serving.cancel()
        try await serving.value
        #expect(journal.all == ["/dev/ttyTEST started", "/dev/ttyTEST stopped"])
        #expect(client.waitForClose(within: 3), "the server's loop has ended")
    }

    @Test("server.run(serving:) throws the source's failure once every source has failed")
    func asyncServeFails() async throws {
        let source = TickingSource("/dev/ttyTEST", journal: Journal())
        let server = try GpsdServer(configuration: .init(address: ListenAddress(host: "127.0.0.1", port: 0), release: "test"),
                                    device: .init(path: "/dev/ttyTEST")) { _ in }
        let serving = Task { try await server.run(serving: [LocationService(manager: source)]) }
        try await Task.sleep(for: .milliseconds(100))
        source.fail()
        let result = await serving.result
        guard case .failure(let error) = result else {
            Issue.record("serving ended without the failure")
            return
        }
        #expect((error as? RelayError)?.sourceFailure == .deviceGone(path: "/dev/ttyTEST"))
    }
}

/// Polls `condition` every 10 ms until it holds or `limit` passes.
private func waitUntil(_ limit: Duration, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

@Suite("LocationRelay stopped before it runs")
struct RelayStoppedEarlyTests {
    @Test("A stop before run (a task cancelled at once): the feeds start and stop, and no source is started")
    func stopBeforeRun() async throws {
        let journal = Journal()
        let relay = LocationRelay(LocationService(manager: TickingSource("src", journal: journal)),
                                  feeds: [RecordingFeed("f", journal: journal)])
        relay.stop()
        try await relay.run()
        #expect(journal.all == ["f started with 1 sources", "f will stop", "f stopped"])
    }
}
