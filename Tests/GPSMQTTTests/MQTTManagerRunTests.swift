import Foundation
import Glibc
import GPSLocation
import GPSMQTT
import GPSTestSupport
import NMEA
import Synchronization
import Testing

/// MQTTManager's runs are SourceRuns': what a run that fails leaves behind.
@Suite struct MQTTManagerRunTests {
    final class Delegate: LocationManagerDelegate {
        let failures = Mutex<[LocationError]>([])
        var count: Int { failures.withLock { $0.count } }
        func locationManager(_ manager: any LocationManagerInterface, didUpdateFix fix: Fix) {}
        func locationManager(_ manager: any LocationManagerInterface, didFailWithError error: LocationError) {
            failures.withLock { $0.append(error) }
        }
    }

    /// A peer on a loopback port that is no broker: it takes each connection and closes it at
    /// once, counting them.
    final class NotABroker: Sendable {
        let port: Int
        private let descriptor: Int32
        private let taken = Atomic<Int>(0)
        private let closing = Atomic<Bool>(false)

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
            }
            guard bound, listen(fd, 16) == 0 else { throw SpawnError(description: "listen failed") }
            descriptor = fd
            port = Int(UInt16(bigEndian: address.sin_port))
            let thread = Thread { [self] in
                var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
                while !closing.load(ordering: .acquiring) {
                    guard poll(&fds, 1, 20) > 0 else { continue }
                    let client = accept(descriptor, nil, nil)
                    if client >= 0 {
                        taken.add(1, ordering: .relaxed)
                        Glibc.close(client)
                    }
                }
                Glibc.close(descriptor)
            }
            thread.start()
        }

        var connections: Int { taken.load(ordering: .relaxed) }
        func shut() { closing.store(true, ordering: .releasing) }
    }

    @Test func aBrokerNotThereAtTheStartFailsTheRunAndItsClientStopsTrying() async throws {
        // Given a port where no broker answers, and a manager that does not wait for one
        let peer = try NotABroker()
        defer { peer.shut() }
        let manager = MQTTManager(settings: MQTTSettings(host: "127.0.0.1", port: peer.port, clientID: "gone-test"),
                                  prefix: "gpsfix")
        let delegate = Delegate()
        manager.delegate = delegate
        // When it starts
        manager.startUpdatingLocation()
        // Then the run fails once, and its client stops: nothing tries the broker again for a
        // run that is over (it retried every 0.25 to 2 s, unheard, for the process's life)
        #expect(await waitUntil(.seconds(10)) { delegate.count == 1 })
        let tried = peer.connections
        try await Task.sleep(for: .milliseconds(1200))
        #expect(peer.connections == tried)
        #expect(delegate.count == 1)
        // And a start on the news begins a new run, which fails the same way
        manager.startUpdatingLocation()
        #expect(await waitUntil(.seconds(10)) { delegate.count == 2 })
        manager.stopUpdatingLocation()
    }

    /// Stops its manager from the first status it is told, on the run's thread, timing the stop.
    final class StoppingOnNews: LocationManagerDelegate {
        let took = Mutex<Duration?>(nil)
        func locationManager(_ manager: any LocationManagerInterface, didUpdateFix fix: Fix) {}
        func locationManager(_ manager: any LocationManagerInterface, didFailWithError error: LocationError) {}
        func locationManager(_ manager: any LocationManagerInterface, didChangeStatus status: SourceStatus) {
            let clock = ContinuousClock()
            let began = clock.now
            manager.stopUpdatingLocation()
            took.withLock { $0 = $0 ?? clock.now - began }
        }
    }

    @Test func aStopFromTheRunsOwnThreadReturnsAtOnce() async throws {
        let peer = try NotABroker()
        defer { peer.shut() }
        let manager = MQTTManager(settings: MQTTSettings(host: "127.0.0.1", port: peer.port, clientID: "own-stop"),
                                  prefix: "gpsfix", waitsForBroker: true)
        let delegate = StoppingOnNews()
        manager.delegate = delegate
        manager.startUpdatingLocation()
        #expect(await waitUntil(.seconds(10)) { delegate.took.withLock { $0 } != nil })
        let took = try #require(delegate.took.withLock { $0 })
        #expect(took < .milliseconds(250), "a stop from the run's thread took \(took)")
        // And the run is over: nothing tries the broker any more.
        try await Task.sleep(for: .milliseconds(100))
        let tried = peer.connections
        try await Task.sleep(for: .milliseconds(700))
        #expect(peer.connections == tried)
    }

    @Test func aManagerWhoseRunsAreOverCanGo() async throws {
        let peer = try NotABroker()
        defer { peer.shut() }
        let delegate = Delegate()
        weak var gone: MQTTManager?
        do {
            let manager = MQTTManager(settings: MQTTSettings(host: "127.0.0.1", port: peer.port, clientID: "leak-test"),
                                      prefix: "gpsfix")
            gone = manager
            manager.delegate = delegate
            manager.startUpdatingLocation()
            #expect(await waitUntil(.seconds(10)) { delegate.count == 1 })
        }
        // The run's client, its handler and the reporter naming the manager held one another.
        #expect(await waitUntil(.seconds(5)) { gone == nil })
    }
}
