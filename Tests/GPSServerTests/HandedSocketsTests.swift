import Foundation
import Glibc
import GPSServer
import GPSSystem
import GPSTestSupport
import Synchronization
import Testing

/// A server that listens on sockets someone else made (what systemd's socket activation
/// hands over), and the heartbeat its loop gives while it runs.
@Suite("gpsd-protocol server on sockets handed over", .timeLimit(.minutes(1)))
struct HandedSocketsTests {
    @Test("Two listening sockets handed over: clients of each are greeted, and the addresses are theirs")
    func twoSockets() async throws {
        // Given two sockets made, bound and set listening as a service manager does (blocking)
        let first = try Socket(listening: true), second = try Socket(listening: true)
        let server = try GpsdServer(configuration: .init(release: "gpsfix test"), listeningOn: [first.take(), second.take()].map(FileDescriptor.init(rawValue:)),
                                    device: .init(path: "/dev/ttyTEST")) { _ in }
        let ended = Eventually<Void>()
        Thread.detachNewThread {
            server.run()
            ended.fulfill(())
        }

        // When a client connects to each
        let a = try LineClient(port: first.port), b = try LineClient(port: second.port)

        // Then both are served, and the server says where it listens
        #expect(a.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true)
        #expect(b.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true)
        #expect(server.addresses == [ListenAddress(host: "127.0.0.1", port: first.port), ListenAddress(host: "127.0.0.1", port: second.port)])
        #expect(server.isLoopback && server.exposed.isEmpty)
        server.stop()
        #expect(await ended.value(within: .seconds(5)) != nil)
    }

    @Test("A socket that cannot be listened on is refused, saying what it is")
    func refused() throws {
        let udp = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(udp) }
        let unbound = try Socket(listening: false)
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }

        for (descriptor, reason) in [(udp, "datagram"), (unbound.descriptor, "not listening"), (ends[0], "not a socket")] {
            do {
                _ = try GpsdServer(configuration: .init(release: "gpsfix test"), listeningOn: [FileDescriptor(rawValue: descriptor)], device: .init(path: "/dev/ttyTEST")) { _ in }
                Issue.record("descriptor \(descriptor) was taken")
            } catch {
                guard case .notAListeningSocket(let named, let why) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(named.rawValue == descriptor)
                #expect(why.contains(reason), "\(why)")
            }
        }
    }

    @Test("The loop beats while it runs, as often as asked, never sooner")
    func heartbeat() async throws {
        let server = try GpsdServer(configuration: .init(address: ListenAddress(host: "127.0.0.1", port: 0), release: "gpsfix test"),
                                    device: .init(path: "/dev/ttyTEST")) { _ in }
        let beats = Mutex<[Double]>([])
        let ended = Eventually<Void>()
        Thread.detachNewThread {
            server.run(heartbeat: Heartbeat(every: .milliseconds(50)) { beats.withLock { $0.append(monotonicSeconds()) } })
            ended.fulfill(())
        }

        // Far more often than the loop's own 250 ms pace: the heartbeat sets the poll's timeout.
        let enough = await waitUntil(.seconds(10)) { beats.withLock { $0.count } >= 8 }
        server.stop()
        #expect(await ended.value(within: .seconds(5)) != nil)
        let times = beats.withLock { $0 }

        #expect(enough, "\(times.count) beats")
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(gaps.allSatisfy { $0 >= 0.05 }, "never sooner than asked: \(gaps)")
    }
}

/// A TCP socket on 127.0.0.1, bound to a port of the kernel's choice; listening when asked.
/// Closed when released unless taken.
private final class Socket {
    private(set) var descriptor: Int32
    let port: Int

    init(listening: Bool) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = descriptor
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok, !listening || listen(fd, 16) == 0 else {
            close(fd)
            throw SpawnError(description: "cannot make a socket: \(String(cString: strerror(errno)))")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Hands the descriptor over: whoever takes it closes it.
    func take() -> Int32 {
        defer { descriptor = -1 }
        return descriptor
    }

    deinit { if descriptor >= 0 { close(descriptor) } }
}
