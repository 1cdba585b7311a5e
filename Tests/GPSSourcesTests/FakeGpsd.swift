import Foundation
import Glibc
import Synchronization

/// A socket the test serves on loopback in gpsd's place: it accepts one client at a time, keeps
/// what the client asked (its ?WATCH), and writes whatever the test says, well-formed or not,
/// as a gpsd on another machine (or another program on gpsd's port) could.
final class FakeGpsd: Sendable {
    let port: Int
    private let listener: Int32
    private let client = Mutex<Int32>(-1)
    private let asked = Mutex<[UInt8]>([])
    private let accepted = Atomic<Int>(0)

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw PTYError.failed("fake gpsd: cannot listen: \(reason)")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        dropClient()
        close(listener)
    }

    /// Waits up to `seconds` for a client and its ?WATCH line; true when both came.
    func acceptClient(seconds: Double = 5) -> Bool {
        var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
        guard poll(&fds, 1, Int32(seconds * 1000)) == 1 else { return false }
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { return false }
        let earlier = client.withLock { old -> Int32 in defer { old = fd }; return old }
        if earlier >= 0 { close(earlier) }
        accepted.add(1, ordering: .relaxed)
        // The client speaks first: one request line.
        var line: [UInt8] = []
        var byte: UInt8 = 0
        let deadline = Date().addingTimeInterval(seconds)
        var reader = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        while Date() < deadline, line.last != 0x0A {
            guard poll(&reader, 1, 100) >= 0 else { return false }
            if reader[0].revents != 0 {
                guard recv(fd, &byte, 1, 0) == 1 else { return false }
                line.append(byte)
            }
        }
        asked.withLock { $0 = line }
        return line.last == 0x0A
    }

    /// Whether the client has closed its end (a read would see the end of the stream).
    var clientClosed: Bool {
        let fd = client.withLock { $0 }
        guard fd >= 0 else { return true }
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        guard poll(&fds, 1, 0) == 1 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) <= 0
    }

    var clientsAccepted: Int { accepted.load(ordering: .relaxed) }
    var request: String { String(decoding: asked.withLock { $0 }, as: UTF8.self) }

    /// Writes `bytes` to the client, all of them (false once the client is gone).
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        let fd = client.withLock { $0 }
        guard fd >= 0 else { return false }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    @discardableResult
    func send(line: String) -> Bool { send(Array((line + "\r\n").utf8)) }

    func dropClient() {
        let fd = client.withLock { fd -> Int32 in defer { fd = -1 }; return fd }
        if fd >= 0 { close(fd) }
    }
}

/// gpsd's reports as gpsd 3.22 writes them, for the fake.
enum GpsdReports {
    static func tpv(second: Int, latitude: Double = 51.5, longitude: Double = -0.125) -> String {
        let s = second < 10 ? "0\(second)" : "\(second)"
        return #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2026-12-01T12:00:\#(s).000Z","ept":0.005,"#
            + #""lat":\#(latitude),"lon":\#(longitude),"altHAE":100.5,"altMSL":55.25,"alt":55.25,"epx":3.5,"epy":4.5,"#
            + #""epv":5.5,"track":270.5,"magtrack":268.0,"magvar":2.5,"speed":1.5,"climb":-0.5,"eps":7.0,"epc":11.0,"geoidSep":45.25,"eph":5.8,"sep":8.1}"#
    }

    /// One satellite listed twice under two spellings: GLONASS 1 as PRN 65, and as gnssid 6 svid 1.
    static let skyWithDuplicates = #"{"class":"SKY","device":"/dev/ttyACM0","time":"2026-12-01T12:00:01.000Z","hdop":0.9,"pdop":1.6,"#
        + #""nSat":4,"uSat":2,"satellites":[{"PRN":1,"el":40.0,"az":120.0,"ss":41.0,"used":true,"gnssid":0,"svid":1},"#
        + #"{"PRN":65,"el":30.0,"az":200.0,"ss":35.0,"used":true},{"PRN":65,"el":30.0,"az":200.0,"ss":35.0,"used":true,"gnssid":6,"svid":1},"#
        + #"{"PRN":1,"el":40.0,"az":120.0,"ss":41.0,"used":true}]}"#
}
