import Foundation
import GPSServer
import GPSTestSupport
import Synchronization

/// A `GpsdServer` on a free loopback port, its loop on a thread of its own, its log kept.
final class ServerHarness: Sendable {
    let server: GpsdServer
    let logs = LogLines()
    private let ended = Eventually<Void>()

    /// `nmea` also serves bare NMEA on a free loopback port; `datagrams` sends it there by UDP.
    init(clientTimeout: Double = 15, assignmentTimeout: Double = 60, pollerTimeout: Double = 900,
         queueLimit: Int = 256 * 1024, maxClients: Int = 200,
         device: DeviceDescription = DeviceDescription(path: "/dev/ttyTEST", bps: 9600),
         devices: [DeviceDescription]? = nil,
         nmea: Bool = false, datagrams: ListenAddress? = nil, heartbeat: Heartbeat? = nil,
         configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        var configuration = ServerConfiguration(address: ListenAddress(host: "127.0.0.1", port: 0), release: "gpsfix test",
                                                clientTimeout: .milliseconds(Int(clientTimeout * 1000)), queueLimit: queueLimit, maxClients: maxClients,
                                                nmeaAddress: nmea ? ListenAddress(host: "127.0.0.1", port: 0) : nil,
                                                nmeaDatagramAddress: datagrams)
        configuration.assignmentTimeout = .milliseconds(Int(assignmentTimeout * 1000))
        configuration.pollerTimeout = .milliseconds(Int(pollerTimeout * 1000))
        configure(&configuration)
        let logs = self.logs
        server = try GpsdServer(configuration: configuration, devices: devices ?? [device]) { line in logs.lines.withLock { $0.append(line) } }
        let server = self.server, ended = self.ended
        Thread.detachNewThread {
            server.run(heartbeat: heartbeat)
            ended.fulfill(())
        }
    }

    var port: Int { server.address.port }

    /// A client of gpsd's port; `from` another loopback address (127.0.0.2) for a second host.
    func client(receiveBuffer: Int32? = nil, from source: String? = nil) throws -> LineClient {
        try LineClient(port: port, receiveBuffer: receiveBuffer, from: source)
    }

    /// A client of the bare NMEA port, once the server has taken it: nothing greets it, so
    /// without the wait what is published at once could go out before it is there.
    func nmeaClient(receiveBuffer: Int32? = nil) async throws -> LineClient {
        guard let address = server.nmeaAddress else { throw SpawnError(description: "the harness serves no NMEA port") }
        let before = server.clientCount
        let client = try LineClient(port: address.port, receiveBuffer: receiveBuffer)
        guard await waitUntil(.seconds(5), { self.server.clientCount > before }) else {
            throw SpawnError(description: "the server did not take the NMEA client within 5 s")
        }
        return client
    }

    /// A client that has read VERSION and asked for `watch`, and read the DEVICES and WATCH replies.
    func watcher(_ watch: String = "{\"enable\":true,\"json\":true}") throws -> LineClient {
        let c = try client()
        _ = c.readLine()
        c.send("?WATCH=\(watch);\n")
        _ = c.readLines(2)
        return c
    }

    func stop() async -> Bool {
        server.stop()
        return await ended.value(within: .seconds(5)) != nil
    }

    var log: String { logs.lines.withLock { $0.joined(separator: "\n") } }
}

final class LogLines: Sendable {
    let lines = Mutex<[String]>([])
}

/// Starts blocking `body` on a thread of its own, now. On Swift's cooperative pool (two
/// threads on a two-core machine) a reader that must keep up may not even start while other
/// tests' blocking reads hold both threads, and the server rightly drops it as a client
/// that does not read.
func onOwnThread<T: Sendable>(_ body: sending @escaping () -> T) -> Eventually<T> {
    // `sending`: the caller gives the closure (and the client it reads) up; only the new
    // thread calls it, as Task.detached would.
    let handed = Handed(body)
    let result = Eventually<T>()
    Thread.detachNewThread { result.fulfill(handed.value()) }
    return result
}

private struct Handed<V>: @unchecked Sendable {
    let value: V
    init(_ value: V) { self.value = value }
}
