import Foundation
import GPSTestSupport
import Testing

/// The load test: 50 clients watch a 10 Hz source for over 10 s; one of them never
/// reads. Every reading client must get every TPV from the moment it watched, the stuck one
/// must be cut off as designed (queue bounded, then disconnected after --client-timeout), and
/// the server's memory must stay bounded.
@Suite("gpsfix serve under load", .enabled(if: GPSFixBinary.isAvailable), .timeLimit(.minutes(1)))
struct ServeLoadTests {
    /// 120 epochs at 10 Hz (12 s), the position moving every epoch so every TPV differs;
    /// 12 satellites, so each SKY is a full-size report.
    static func tenHertz(epochs: Int) -> String {
        var lines = ["# Name: gpsfix serve load test", "# Chipset: synthetic 10 Hz"]
        for i in 0..<epochs {
            let tenths = i % 10, second = i / 10
            let t = "1200" + (second < 10 ? "0\(second)" : "\(second)") + ".\(tenths)0"
            let minutes = 7.038 + Double(i) * 0.006
            let lat = "48" + String(format: "%07.4f", minutes)
            var sentences = [
                "GPRMC,\(t),A,\(lat),N,01131.0000,E,12.0,54.7,120419,,,A",
                "GPGGA,\(t),\(lat),N,01131.0000,E,1,12,0.8,545.4,M,46.9,M,,",
                "GPGSA,A,3,01,02,03,04,05,06,07,08,09,10,11,12,1.5,0.8,1.2",
            ]
            for part in 0..<3 {
                let sats = (0..<4).map { k -> String in
                    let prn = part * 4 + k + 1
                    return String(format: "%02d,%02d,%03d,%02d", prn, 10 + prn * 5, prn * 29 % 360, 30 + prn)
                }
                sentences.append("GPGSV,3,\(part + 1),12," + sats.joined(separator: ","))
            }
            lines += sentences.map(NMEASentence.framed)
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    @Test("50 clients at 10 Hz for 12 s, one never reading: every reader gets every TPV, memory stays bounded")
    func fiftyClients() async throws {
        // Given a 10 Hz capture, the TPVs the engine makes of it, and a server replaying it in real time
        let dir = try TemporaryDirectory()
        let capture = try dir.write("tenhertz.nmea", Self.tenHertz(epochs: 120))
        let reference = try #require(await gpsfix("watch", "--replay", capture, "--json", "--speed", "max"))
        let allTimes = reference.stdoutLines.compactMap(jsonObject).filter { $0["class"] as? String == "TPV" }.compactMap { $0["time"] as? String }
        #expect(allTimes.count == 120)
        let serve = try await ServeProcess(["--replay", capture, "--speed", "1", "--client-timeout", "3"])

        // When 49 clients watch and read, and one watches and never reads
        let stuck = try LineClient(port: serve.port, receiveBuffer: 1024)
        stuck.send("?WATCH={\"enable\":true,\"json\":true};")
        let readers = try (0..<49).map { _ in try LineClient(port: serve.port) }
        for reader in readers { reader.send("?WATCH={\"enable\":true,\"json\":true};\n") }
        let memoryAtStart = serve.residentKB ?? 0
        let lastTime = allTimes.last!
        let times = await Task.detached { Self.readTPVTimes(readers, until: lastTime, within: 25) }.value
        let memoryAtEnd = serve.residentKB ?? 0

        // Then every reader has every TPV from its first one on, and started within the first second
        for (i, got) in times.enumerated() {
            let start = allTimes.firstIndex(of: got.first ?? "") ?? allTimes.count
            #expect(start <= 10, "reader \(i) started at TPV \(start)")
            #expect(Array(allTimes[min(start, allTimes.count)...]) == got, "reader \(i) missed TPVs: got \(got.count) of \(allTimes.count - start)")
        }
        // The stuck client was disconnected, saying so; it never held up the others
        let stuckPort = Self.localPort(stuck.fd)
        #expect(await waitUntil(.seconds(10)) { serve.stderr.contains("client 127.0.0.1:\(stuckPort) has read nothing for 3 s") }, "\(serve.stderr)")
        #expect(stuck.waitForClose(within: 5))
        // Memory: what one stuck client may hold is bounded (256 kB queue and a 16 kB socket buffer).
        // Under AddressSanitizer freed memory is held in quarantine: RSS says nothing there.
        if ProcessInfo.processInfo.environment["GPSFIX_SANITIZER"] == nil {
            #expect(memoryAtStart > 0 && memoryAtEnd - memoryAtStart < 8 * 1024, "RSS \(memoryAtStart) kB → \(memoryAtEnd) kB")
        }
        print("serve load: 49 readers × \(allTimes.count) TPVs; RSS \(memoryAtStart) kB → \(memoryAtEnd) kB")
        #expect(await serve.stop() == 0)
    }

    /// Reads every client at once with poll until each has seen the TPV stamped `last`.
    static func readTPVTimes(_ clients: [LineClient], until last: String, within seconds: Double) -> [[String]] {
        var buffers = Array(repeating: [UInt8](), count: clients.count)
        var times = Array(repeating: [String](), count: clients.count)
        var done = Array(repeating: false, count: clients.count)
        var chunk = [UInt8](repeating: 0, count: 65536)
        let deadline = monotonicSeconds() + seconds
        while done.contains(false) && monotonicSeconds() < deadline {
            var fds = clients.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), 200) > 0 else { continue }
            for (i, p) in fds.enumerated() where p.revents != 0 && !done[i] {
                let n = chunk.withUnsafeMutableBytes { recv(p.fd, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { done[i] = true; continue }
                buffers[i].append(contentsOf: chunk[..<n])
                while let end = buffers[i].firstIndex(of: 0x0A) {
                    let line = Data(buffers[i][..<end])
                    buffers[i].removeFirst(end + 1)
                    guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
                          object["class"] as? String == "TPV", let time = object["time"] as? String else { continue }
                    times[i].append(time)
                    if time == last { done[i] = true }
                }
            }
        }
        return times
    }

    static func localPort(_ fd: Int32) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
