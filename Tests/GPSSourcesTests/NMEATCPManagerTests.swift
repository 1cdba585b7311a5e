import NMEA
import Foundation
import Glibc
import GPSLocation
@testable import GPSSources
import GPSSystem
import GPSTestSupport
import Testing

/// NMEATCPManager against a real peer: socat serving a capture on a loopback TCP port, as a
/// receiver or a phone app serving NMEA does, dropped and started again.
@Suite("NMEATCPManager against socat serving NMEA", .serialized, .timeLimit(.minutes(1)),
       .enabled(if: access(GpsdTools.socat, X_OK) == 0, "skipped: needs /usr/bin/socat (apt-get install socat)"))
struct NMEATCPManagerTests {
    /// socat serving `file` to the first client on `port`, then closing the connection and exiting.
    func serve(_ file: String, on port: Int) async throws -> ChildProcess {
        let socat = try ChildProcess([GpsdTools.socat, "-u", "FILE:\(file)", "TCP-LISTEN:\(port),reuseaddr,bind=127.0.0.1"])
        _ = await waitUntil(.seconds(5)) { Loopback.listens(port) }
        return socat
    }

    func start(_ manager: NMEATCPManager) -> RecordingDelegate {
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        manager.startUpdatingLocation()
        return delegate
    }

    @Test("A stream gives the fixes a replay of the same capture gives")
    func sameFixesAsReplay() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("five.nmea", SmallCapture.text(epochs: 5))
        let port = try Loopback.freePort()
        let socat = try await serve(file, on: port)
        defer { socat.kill() }

        let began = Date().timeIntervalSince1970
        let manager = NMEATCPManager(host: "127.0.0.1", port: port, options: .init(reconnect: false))
        let delegate = start(manager)
        defer { manager.stopUpdatingLocation() }
        #expect(await waitUntil(.seconds(10)) { delegate.ended })
        let ended = Date().timeIntervalSince1970

        let replay = ReplayManager(path: file, speed: .maximum)
        let replayed = RecordingDelegate()
        replay.delegate = replayed
        replay.startUpdatingLocation()
        #expect(await waitUntil(.seconds(10)) { replayed.ended })

        #expect(delegate.fixes.count == 5)
        #expect(delegate.fixes == replayed.fixes)
        // A live stream stamps each fix with the system time its epoch was read; a replay,
        // not live, stamps none.
        #expect(delegate.arrivals.count == 5)
        #expect(delegate.arrivals.allSatisfy { $0.map { $0 >= began && $0 <= ended } ?? false }, "\(delegate.arrivals) not within \(began)...\(ended)")
        #expect(replayed.arrivals == Array(repeating: nil, count: 5))
        // The peer closing is a loss, and without reconnecting, the end of the run.
        #expect(delegate.events.first == .status(.started))
        #expect(delegate.events.contains(.status(.disconnected(reason: "the connection was closed by the other end"))))
        #expect(delegate.events.last == .error(.streamUnavailable(peer: "127.0.0.1:\(port)", reason: "the connection was closed by the other end")))
        #expect(manager.statistics?.sentences.decoded == 15)
        #expect(manager.reception?.sentences == 15)
    }

    @Test("A dropped stream is reconnected with back-off, and fixes resume when the peer serves again")
    func reconnectsAfterDrop() async throws {
        let directory = try TemporaryDirectory()
        let first = try directory.write("first.nmea", SmallCapture.text(epochs: 3))
        let second = try directory.write("second.nmea", SmallCapture.sentences(epochs: 13).suffix(9).map { $0 + "\r\n" }.joined())
        let port = try Loopback.freePort()
        let socat = try await serve(first, on: port)
        defer { socat.kill() }

        let manager = NMEATCPManager(host: "127.0.0.1", port: port)
        let delegate = start(manager)
        defer { manager.stopUpdatingLocation() }
        #expect(await waitUntil(.seconds(10)) { delegate.events.contains { if case .status(.reconnecting) = $0 { true } else { false } } })
        #expect(delegate.fixes.compactMap(\.second) == [0, 1, 2])
        #expect(!delegate.ended, "a drop is not the end: \(delegate.events)")

        // When the peer comes back (a restarted app) with the next seconds
        let again = try await serve(second, on: port)
        defer { again.kill() }
        #expect(await waitUntil(.seconds(10)) { delegate.fixes.count == 6 })
        #expect(delegate.fixes.compactMap(\.second) == [0, 1, 2, 10, 11, 12])
        let statuses = delegate.events.compactMap { if case .status(let s) = $0 { s } else { nil } }
        #expect(statuses.contains(.streaming))
        #expect(statuses.first == .started)
    }

    @Test("The back-off doubles from its first wait to its longest, on the run's clock: each attempt waits its whole time, not less", .timeLimit(.minutes(1)))
    func backOffDoubles() async throws {
        // Given a peer that serves a capture and goes away, and a back-off on a clock that
        // moves only when the test advances it (steps of a power of two: exact sums)
        let directory = try TemporaryDirectory()
        let first = try directory.write("first.nmea", SmallCapture.text(epochs: 3))
        let port = try Loopback.freePort()
        let socat = try await serve(first, on: port)
        defer { socat.kill() }
        let clock = VirtualClock()
        let manager = NMEATCPManager(host: "127.0.0.1", port: port, options: .init(),
                                     reconnection: Reconnection(first: 0.25, longest: 1, clock: clock))
        let delegate = start(manager)
        defer { manager.stopUpdatingLocation() }
        func attempts() -> [Int] {
            delegate.events.compactMap { if case .status(.reconnecting(let attempt)) = $0 { attempt } else { nil } }
        }
        #expect(await waitUntil(.seconds(10)) { clock.sleepers == 1 }, "waiting after the drop")

        // When the clock moves through waits of 0.25, 0.5, 1 and 1 (the longest)
        for (index, wait) in [0.25, 0.5, 1, 1].enumerated() {
            clock.advance(by: .seconds(wait / 2))
            try await Task.sleep(for: .milliseconds(30))
            #expect(attempts().count == index, "attempt \(index + 1) before its time")
            clock.advance(by: .seconds(wait / 2))
            // Then the next attempt is made (refused: nobody listens any more), and the next wait begins
            #expect(await waitUntil(.seconds(10)) { attempts().count == index + 1 && clock.sleepers == 1 })
        }
        #expect(attempts() == [1, 2, 3, 4])
        #expect(clock.now == 2.75)
        #expect(!delegate.ended, "a drop is not the end: \(delegate.events)")
    }

    @Test("A peer not there at the start is a clear failure, or waited for when asked to")
    func absentPeer() async throws {
        let port = try Loopback.freePort()
        let failing = NMEATCPManager(host: "127.0.0.1", port: port)
        let refused = start(failing)
        #expect(await waitUntil(.seconds(5)) { refused.ended })
        let error = try #require(refused.events.last)
        #expect(error == .error(.streamUnavailable(peer: "127.0.0.1:\(port)", reason: "connection refused (is it listening on that port?)")))
        #expect("\(LocationError.streamUnavailable(peer: "127.0.0.1:\(port)", reason: "connection refused (is it listening on that port?)"))"
                == "Cannot connect to 127.0.0.1:\(port): connection refused (is it listening on that port?).")

        let directory = try TemporaryDirectory()
        let file = try directory.write("two.nmea", SmallCapture.text(epochs: 2))
        let waiting = NMEATCPManager(host: "127.0.0.1", port: port, options: .init(waitsForPeer: true))
        let delegate = start(waiting)
        defer { waiting.stopUpdatingLocation() }
        #expect(await waitUntil(.seconds(5)) { !delegate.events.isEmpty })
        #expect(delegate.events.first == .status(.waiting(reason: "Cannot connect to 127.0.0.1:\(port): connection refused (is it listening on that port?).")))
        let socat = try await serve(file, on: port)
        defer { socat.kill() }
        #expect(await waitUntil(.seconds(10)) { delegate.fixes.count == 2 })
        #expect(delegate.events.contains(.status(.started)))
    }

    @Test("A stop during a connection attempt to a host that does not answer ends it at once")
    func stopWhileConnecting() async throws {
        // 192.0.2.0/24 is TEST-NET-1: never routed, so a SYN there waits for no answer (or
        // fails at once where there is no route at all; either way nothing hangs).
        let manager = NMEATCPManager(host: "192.0.2.1", port: 10110, options: .init(waitsForPeer: true, connectTimeout: .seconds(30)))
        let delegate = start(manager)
        try await Task.sleep(for: .milliseconds(300))
        let stopped = monotonicSeconds()
        manager.stopUpdatingLocation()
        // A new start finds the old run gone: the stop reached the wait in poll.
        manager.startUpdatingLocation()
        manager.stopUpdatingLocation()
        #expect(monotonicSeconds() - stopped < 1)
        #expect(!delegate.events.contains { if case .error = $0 { true } else { false } })
    }
}

extension Loopback {
    /// Whether something listens on 127.0.0.1:`port`, without connecting to it (a connection
    /// would be the one client a `socat TCP-LISTEN` serves): from /proc/net/tcp.
    static func listens(_ port: Int) -> Bool {
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return false }
        let wanted = ":" + String(port, radix: 16, uppercase: true).leftPadded(to: 4)
        return table.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[1].hasSuffix(wanted) && fields[3] == "0A"
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
