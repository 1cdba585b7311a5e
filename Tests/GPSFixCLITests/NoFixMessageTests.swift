import Foundation
import GPSTestSupport
import Glibc
import Testing
@testable import GPSFixCLI
import GPSLocation

/// `gpsfix fix` on a port that sends nothing, noise, or NMEA without a fix: each gets the
/// message that fits what arrived, and only the last is told to look at the sky.
@Suite("Messages that fit what arrived", .serialized, .timeLimit(.minutes(1)),
       .enabled(if: RecordTests.socatAvailable && GPSFixBinary.isAvailable, "needs /usr/bin/socat and the built gpsfix"))
struct NoFixMessageTests {
    /// Writes `chunks` into `feed`, one every 50 ms and round again, until cancelled.
    static func sending(_ feed: String, _ chunks: [[UInt8]]) -> Task<Void, Never> {
        Task.detached {
            guard let writer = FileHandle(forWritingAtPath: feed) else { return }
            var next = 0
            while !Task.isCancelled {
                try? writer.write(contentsOf: Data(chunks[next % chunks.count]))
                next += 1
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// Chunks of 64 random bytes that hold no sentence: no `$` or `!` can start one.
    static var noise: [[UInt8]] {
        var random = SplitMix64(seed: 42)
        return (0..<20).map { _ in
            (0..<64).map { _ in random.nextByte() }.map { $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: "!") ? 0x7e : $0 }
        }
    }

    /// A receiver without a fix: an epoch of RMC and GGA a chunk.
    static var noFix: [[UInt8]] {
        (0..<60).map { Array(TestCapture.noFixEpoch($0).map { $0 + "\r\n" }.joined().utf8) }
    }

    @Test("What fix --timeout 2 says, by what the port sends", arguments: [
        ("nothing", [String](), "nothing received from DEVICE. Is the receiver powered and plugged in, and is this its port?"),
        ("noise", ["--baud", "9600"], "DEVICE sent * bytes, but no NMEA sentences at 9600 baud. Is 9600 baud its rate? Name another with --baud"),
        ("noise", [], "DEVICE sent * bytes, but no NMEA sentences. Is the receiver set to a binary protocol (UBX, SiRF)?"),
        ("NMEA without a fix", [], "DEVICE sends NMEA (* sentences), but no fix yet. Is the antenna's view of the sky clear?"),
    ])
    func timeoutMessage(sends: String, options: [String], expected: String) async throws {
        // Given a pty that sends `sends`
        let dir = try TemporaryDirectory()
        let device = dir.path + "/gps", feed = dir.path + "/feed"
        let socat = try PtyPair(device: device, feed: feed)
        defer { socat.stop() }
        let sender: Task<Void, Never>? = switch sends {
        case "noise": Self.sending(feed, Self.noise)
        case "NMEA without a fix": Self.sending(feed, Self.noFix)
        default: nil
        }
        defer { sender?.cancel() }

        // When a fix is asked for, for two seconds
        let result = try #require(await runGPSFix(["fix", "--device", device, "--timeout", "2"] + options))

        // Then it fails with the message that fits, and only NMEA gets the sky's advice
        #expect(result.status == 1)
        let parts = expected.replacingOccurrences(of: "DEVICE", with: device).split(separator: "*").map(String.init)
        let message = result.stderr
        #expect(message.hasPrefix("gpsfix: No fix within 2 s: "), "\(result)")
        var rest = message[...]
        for part in parts {
            guard let range = rest.range(of: part) else {
                Issue.record("'\(part)' not in: \(message)")
                break
            }
            rest = rest[range.upperBound...]
        }
        #expect(message.contains("sky") == (sends == "NMEA without a fix"), "\(message)")
    }

    @Test("A stale port is described by what it sent before it fell quiet")
    func staleWords() {
        let port = "/dev/ttyUSB0"
        let never = StatusWords.line(.stale(after: .seconds(5.2)), source: port, reception: Reception(source: port, baud: 9600))
        let noise = StatusWords.line(.stale(after: .seconds(5)), source: port, reception: Reception(source: port, bytes: 80, baud: 4800))
        let nmea = StatusWords.line(.stale(after: .seconds(5)), source: port, reception: Reception(source: port, bytes: 800, sentences: 12))
        let unknown = StatusWords.line(.stale(after: .seconds(5)), source: port)

        #expect(never == "/dev/ttyUSB0: nothing received in the 5 s since it was opened (is the receiver on and connected, and is this its port?)")
        #expect(noise == "/dev/ttyUSB0: nothing received for 5 s; before that, 80 bytes but no NMEA sentences at 4800 baud")
        #expect(nmea == "/dev/ttyUSB0: nothing received for 5 s (unplugged, or switched off?)")
        #expect(unknown == "/dev/ttyUSB0: nothing received for 5 s (is the receiver on, and connected?)")
        for text in [never, noise, nmea, unknown] { #expect(text?.contains("baud rate?") == false) }
    }
}
