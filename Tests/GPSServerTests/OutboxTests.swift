import Foundation
@testable import GPSServer
import GPSSystem
import GPSTestSupport
import Synchronization
import Testing

/// The client's writing side that the sources' threads write to: at once when nothing waits,
/// queued behind what does, whole lines only, and never after the close.
@Suite("A client's outbox")
struct OutboxTests {
    /// An outbox on one end of a local socket pair, and the other end to read from.
    struct Pair {
        let outbox: Outbox
        let peer: FileDescriptor

        init(kind: Client.Kind = .gpsd, watch: WatchPolicy.Change? = .init(enable: true, json: true), limit: Int = 256 * 1024,
             sendBuffer: Int32? = nil) throws {
            let (mine, theirs) = try FileDescriptor.socketPair()
            if let sendBuffer {
                mine.setSendBuffer(sendBuffer)
                theirs.setReceiveBuffer(sendBuffer)
            }
            outbox = Outbox(descriptor: mine, kind: kind, peer: "test",
                            queue: OutputQueue(limit: limit, replyLimit: 4096), now: 0)
            peer = theirs
            if let watch {
                var policy = WatchPolicy()
                policy.apply(watch)
                outbox.watch(policy)
            }
        }

        /// Everything readable on the peer's end now, without waiting.
        func readNow() -> [UInt8] {
            var got: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = buffer.withUnsafeMutableBytes { raw -> Int in
                    guard case .processed(let n)? = try? peer.receive(into: raw) else { return 0 }
                    return n
                }
                if n == 0 { return got }
                got += buffer[..<n]
            }
        }

        func close() {
            outbox.close()
            peer.close()
        }
    }

    static func line(_ i: Int, size: Int = 200) -> [UInt8] {
        let head = Array("{\"class\":\"TPV\",\"n\":\(i),\"pad\":\"".utf8)
        return head + [UInt8](repeating: 0x78, count: size - head.count - 4) + Array("\"}\r\n".utf8)
    }

    @Test("With nothing queued, a line is written on the offering thread at once: the peer reads it with no flush")
    func writtenAtOnce() throws {
        let pair = try Pair()
        defer { pair.close() }
        let offered = pair.outbox.offer(Self.line(1), .report, path: "/dev/gps0", now: 1)
        #expect(offered.taken && !offered.queued && !offered.firstDrop)
        #expect(pair.readNow() == Self.line(1))
        #expect(pair.outbox.isEmpty)
    }

    @Test("A socket that takes only part: the rest is queued (the loop told once), later lines wait behind it, and the peer reads whole lines in order")
    func partialThenQueued() throws {
        // Given a small socket buffer and a queue bounded at 8 kB
        let pair = try Pair(limit: 8 * 1024, sendBuffer: 4096)
        defer { pair.close() }

        // When more lines are offered than the socket and the queue hold
        var results: [Outbox.Offered] = []
        for i in 0..<400 { results.append(pair.outbox.offer(Self.line(i), .report, path: "/dev/gps0", now: 1)) }

        // Then the loop is asked to poll for room once (when the queue stopped being empty),
        // and the first drop is flagged once
        #expect(results.filter(\.queued).count == 1)
        #expect(results.filter(\.firstDrop).count == 1)
        let dropped = pair.outbox.dropped
        #expect(dropped > 0)
        // And reading and flushing in turn gives whole lines in the order offered, with no gap
        // before the drops began
        var stream: [UInt8] = []
        for _ in 0..<200 {
            stream += pair.readNow()
            if case .drained = pair.outbox.flush(now: 2).progress, pair.outbox.isEmpty { stream += pair.readNow(); break }
        }
        let lines = stream.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map { Array($0) + [0x0A] }
        #expect(!lines.isEmpty)
        #expect(lines == (0..<lines.count).map { Self.line($0) }, "the lines the peer read are 0, 1, 2… whole")
        #expect(lines.count + dropped == 400, "every line is read or counted as dropped")
        #expect(pair.outbox.dropped == 0, "the count starts again once the queue has drained")
    }

    @Test("Who takes what: an NMEA client the sentences only; a gpsd client what its watch asks for, of the device it watches")
    func choosing() throws {
        let nmea = try Pair(kind: .nmea, watch: nil)
        let idle = try Pair(watch: nil)
        let json = try Pair()
        let sentences = try Pair(watch: .init(enable: true, nmea: true))
        let one = try Pair(watch: .init(enable: true, json: true, device: "/dev/gps1"))
        defer { for p in [nmea, idle, json, sentences, one] { p.close() } }
        func takes(_ pair: Pair, _ what: Outbox.Line, _ path: String = "/dev/gps0") -> Bool {
            pair.outbox.offer(Array("x\r\n".utf8), what, path: path, now: 1).taken
        }
        #expect(takes(nmea, .sentence) && !takes(nmea, .report) && !takes(nmea, .deviceNews))
        #expect(!takes(idle, .sentence) && !takes(idle, .report) && !takes(idle, .deviceNews))
        #expect(!takes(json, .sentence) && takes(json, .report) && takes(json, .deviceNews))
        #expect(takes(sentences, .sentence) && !takes(sentences, .report) && !takes(sentences, .deviceNews))
        #expect(!takes(one, .report, "/dev/gps0") && takes(one, .report, "/dev/gps1"))
    }

    @Test("After the close nothing is written: the descriptor, which the system may give to a new socket, is not touched")
    func closed() throws {
        let pair = try Pair()
        defer { pair.peer.close() }
        pair.outbox.close()
        // The peer sees the end, then nothing: an offer after the close neither writes nor queues.
        let offered = pair.outbox.offer(Self.line(1), .report, path: "/dev/gps0", now: 1)
        #expect(!offered.taken && !offered.queued)
        #expect(pair.readNow().isEmpty)
        #expect(pair.outbox.isEmpty)
    }

    @Test("Sources on several threads and the loop's flushes never interleave lines")
    func threads() async throws {
        // A queue that holds everything: what is tested is the lines, not the bound.
        let pair = try Pair(limit: 4 * 1024 * 1024, sendBuffer: 8192)
        defer { pair.close() }
        let done = Atomic<Int>(0)
        // Four publishers, each its own lines; the test's thread plays the loop and the reader.
        for t in 0..<4 {
            let outbox = pair.outbox
            Thread.detachNewThread {
                for i in 0..<500 { _ = outbox.offer(Self.line(t * 1000 + i, size: 150 + t * 50), .report, path: "p", now: 1) }
                done.add(1, ordering: .sequentiallyConsistent)
            }
        }
        var stream: [UInt8] = []
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            stream += pair.readNow()
            _ = pair.outbox.flush(now: 1)
            if done.load(ordering: .sequentiallyConsistent) == 4 && pair.outbox.isEmpty {
                stream += pair.readNow()
                break
            }
        }
        let lines = stream.split(separator: 0x0A).map { Array($0) + [0x0A] }
        var seen: [Int: [Int]] = [:]
        for line in lines {
            let text = String(decoding: line, as: UTF8.self)
            let n = try #require(text.split(separator: ",").dropFirst().first.flatMap { Int($0.dropFirst(4)) }, "not a whole line: \(text.prefix(60))")
            #expect(line == Self.line(n, size: 150 + (n / 1000) * 50), "line \(n) arrived whole")
            seen[n / 1000, default: []].append(n % 1000)
        }
        // Every publisher's lines arrive, all of them, in its order.
        #expect(seen.count == 4)
        for (_, numbers) in seen { #expect(numbers == Array(0..<500)) }
    }
}
