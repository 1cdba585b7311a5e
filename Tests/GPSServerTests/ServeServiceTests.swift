import Foundation
import GPSLocation
import GPSServer
import GPSTestSupport
import Synchronization
import Testing

/// A source a test scripts: opens, reports its rate once it has "found" it, sends fixes until
/// told to fail, then fails. Delivered on a thread of its own, as every manager does.
private final class ScriptedSource: LocationManagerInterface, @unchecked Sendable {
    // The delegate is set once, before start; `failNow` and `baud` are guarded.
    weak var delegate: (any LocationManagerDelegate)?
    let sourceDescription = "/dev/ttyTEST"
    private let state = Mutex<(baud: Int?, fail: Bool, stopped: Bool)>((nil, false, false))

    var reception: Reception? { Reception(source: sourceDescription, baud: state.withLock { $0.baud }) }

    func failNow() { state.withLock { $0.fail = true } }

    func startUpdatingLocation() {
        Thread.detachNewThread { [self] in
            delegate?.locationManager(self, didChangeStatus: .started)
            for (i, event) in Sample.events(0..<200).enumerated() {
                if i == 2 { state.withLock { $0.baud = 4800 } }
                let (fail, stopped) = state.withLock { ($0.fail, $0.stopped) }
                if stopped { return }
                if fail { return delegate?.locationManager(self, didFailWithError: .deviceGone(path: sourceDescription)) ?? () }
                if case .fix(let fix) = event { delegate?.locationManager(self, didUpdateFix: fix) }
                usleep(20_000)
            }
        }
    }

    func stopUpdatingLocation() { state.withLock { $0.stopped = true } }
}

@Suite("GpsdServer.serve: a gpsd for an app's own source, in a few lines", .timeLimit(.minutes(1)))
struct ServeServiceTests {
    @Test("serves the source's fixes, tells the rate once it is known, and returns the source's failure")
    func serveService() async throws {
        // Given a server and a source that finds its rate (4800) a little after it opens
        let configuration = ServerConfiguration(address: ListenAddress(host: "127.0.0.1", port: 0), release: "gpsfix test")
        let server = try GpsdServer(configuration: configuration, device: DeviceDescription(path: "/dev/ttyTEST")) { _ in }
        let source = ScriptedSource()
        let returned = Eventually<LocationError?>()

        // When an app serves it
        Thread.detachNewThread { returned.fulfill(server.serve(LocationService(manager: source))) }
        let client = try LineClient(port: server.address.port)
        #expect(client.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true)
        client.send("?WATCH={\"enable\":true,\"json\":true};\n")
        let lines = client.readLines(12, within: 5)

        // Then the watcher gets TPVs, and a DEVICE that says the rate once it was found
        #expect(lines.contains { $0.hasPrefix("{\"class\":\"TPV\"") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("{\"class\":\"DEVICE\"") && $0.contains("\"bps\":4800") }, "\(lines)")

        // And when the source fails, serve returns its error and the clients are let go
        source.failNow()
        let outcome = await returned.value(within: .seconds(5))
        #expect(outcome == .some(.deviceGone(path: "/dev/ttyTEST")))
        #expect(client.waitForClose(within: 3))
    }
}
