import Testing
import GPSTestSupport
import GPSSystem

@Suite("Sockets: a listener, connections, datagrams, all through GPSSystem")
struct SocketTests {
    @Test("A listener on port 0 tells the port it got; a connection to it is accepted, and bytes go both ways")
    func listenConnectAccept() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        #expect(listener.port > 0 && listener.host == "127.0.0.1" && listener.isLoopback)
        guard case .none = listener.accept() else { Issue.record("nobody connected yet"); return }
        let wakeup = try #require(Wakeup())
        let client = try TCPConnection.connect(host: "localhost", port: listener.port, timeout: .seconds(5), wakeup: wakeup)
        #expect(client.peer == "localhost:\(listener.port)")
        #expect(try listener.descriptor.wait(for: .readable, within: .seconds(5), beside: wakeup) == .ready)
        guard case .connection(let accepted) = listener.accept() else { Issue.record("not accepted"); return }
        defer { accepted.descriptor.close() }
        #expect(accepted.host == "127.0.0.1" && accepted.port > 0)
        try client.sendAll(Array("?WATCH;".utf8), timeout: .seconds(5), wakeup: wakeup)
        #expect(try accepted.descriptor.wait(for: .readable, within: .seconds(5), beside: wakeup) == .ready)
        var buffer = [UInt8](repeating: 0, count: 32)
        let got = try buffer.withUnsafeMutableBytes { try accepted.descriptor.receive(into: $0) }
        #expect(got == .processed(7))
        #expect(try buffer.withUnsafeMutableBytes { try accepted.descriptor.receive(into: $0) } == .wouldBlock)
        _ = try Array("{}\n".utf8).withUnsafeBytes { try accepted.descriptor.send($0) }
        #expect(try client.waitReadable(within: .seconds(5), wakeup: wakeup) == .ready)
        #expect(try buffer.withUnsafeMutableBytes { try client.receive(into: $0) } == .processed(3))
    }

    @Test("A port nobody listens on is .refused; a name that does not resolve is .unresolvable")
    func connectFailures() throws {
        let wakeup = try #require(Wakeup())
        let port = try freeLoopbackPort()
        #expect(throws: SocketError.refused) {
            try TCPConnection.connect(host: "127.0.0.1", port: port, timeout: .seconds(5), wakeup: wakeup)
        }
        do {
            _ = try TCPConnection.connect(host: "no.such.host.invalid", port: port, timeout: .seconds(5), wakeup: wakeup)
            Issue.record("resolved")
        } catch {
            guard case .unresolvable(let host, _) = error else { Issue.record("\(error)"); return }
            #expect(host == "no.such.host.invalid")
        }
    }

    @Test("Binding a port in use is .addressInUse; an address of no interface here is .addressNotAvailable")
    func bindFailures() throws {
        let first = try TCPListener(host: "127.0.0.1", port: 0)
        #expect(throws: SocketError.addressInUse) { try TCPListener(host: "127.0.0.1", port: first.port) }
        #expect(throws: SocketError.addressNotAvailable) { try TCPListener(host: "192.0.2.1", port: 0) }
    }

    @Test("A socket handed over is taken only when it is a listening TCP one")
    func adopting() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        let copy = try listener.descriptor.duplicate()
        let adopted = try TCPListener(adopting: copy)
        #expect(adopted.port == listener.port)
        let wakeup = try #require(Wakeup())
        do {
            _ = try TCPListener(adopting: wakeup.descriptor)
            Issue.record("a pipe was taken")
        } catch {
            #expect(error == .notAListeningSocket(descriptor: wakeup.descriptor, reason: "not a socket"))
        }
    }

    @Test("A datagram goes to its address whole")
    func datagrams() throws {
        let receiver = try DatagramReceiver()
        let sender = try DatagramSender(host: "127.0.0.1", port: receiver.port)
        try sender.send(Array("$GPGGA\r\n".utf8))
        #expect(receiver.receive(within: 5) == Array("$GPGGA\r\n".utf8))
    }

    @Test("A unix datagram to a path nobody made is .noSuchFile; a name too long is refused")
    func unixDatagrams() throws {
        let dir = try TemporaryDirectory()
        let sender = try UnixDatagramSender(path: Array((dir.path + "/chrony.sock").utf8))
        #expect(throws: SystemError.noSuchFile) { try sender.send([1, 2, 3]) }
        #expect(throws: UnixDatagramSender.NameError.badLength) {
            try UnixDatagramSender(path: Array(repeating: UInt8(ascii: "a"), count: UnixDatagramSender.nameLimit))
        }
        #expect(throws: UnixDatagramSender.NameError.badLength) { try UnixDatagramSender(path: []) }
    }

    @Test("IPv6 literals are told from what is not one, zones allowed")
    func ipv6() {
        #expect(SocketAddress.isIPv6("::1") && SocketAddress.isIPv6("fe80::1%eth0"))
        #expect(!SocketAddress.isIPv6("fe80::1%") && !SocketAddress.isIPv6("127.0.0.1") && !SocketAddress.isIPv6("gps"))
    }
}
