import Foundation
import GPSTestSupport
import Glibc
import Testing

/// `gpsfix record` against a real pseudo-terminal pair made by socat: the receiver's side is
/// written by the test, gpsfix reads the other side as it would a USB receiver.
@Suite("gpsfix record", .serialized)
struct RecordTests {
    static var socatAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/socat") }

    @Test("SIGINT loses nothing: every byte written before it is in the file, and replays to the same fixes",
          .enabled(if: socatAvailable && GPSFixBinary.isAvailable, "needs /usr/bin/socat and the built gpsfix"),
          .timeLimit(.minutes(1)))
    func interruptedRecording() async throws {
        // Given: a pty pair, and gpsfix recording one end
        let dir = try TemporaryDirectory()
        let device = dir.path + "/gps", feed = dir.path + "/feed", file = dir.path + "/rec.nmea"
        let socat = try PtyPair(device: device, feed: feed)
        defer { socat.stop() }
        let binary = try #require(GPSFixBinary.url)
        let recorder = try RunningProgram([binary.path, "record", file, "--device", device, "--baud", "9600"])
        defer { if recorder.isRunning { recorder.terminate() } }
        #expect(await waitUntil(.seconds(5)) { FileManager.default.fileExists(atPath: file) })
        try await Task.sleep(for: .milliseconds(200))

        // When: a capture goes in, in small writes, then SIGINT
        let epochs = (0..<8).map { TestCapture.epoch($0) }
        let body = Array(epochs.joined().map { $0 + "\r\n" }.joined().utf8)
        let writer = try #require(FileHandle(forWritingAtPath: feed))
        for start in stride(from: 0, to: body.count, by: 37) {
            writer.write(Data(body[start..<min(start + 37, body.count)]))
            try await Task.sleep(for: .milliseconds(2))
        }
        try await Task.sleep(for: .milliseconds(500))
        kill(recorder.processIdentifier, SIGINT)
        let status = await recorder.status(within: .seconds(5))

        // Then: a clean exit, the header, and exactly the bytes written
        #expect(status == 0, "\(recorder.stderr)")
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("# Name: gpsfix record\n# Device: \(device)\n"))
        #expect(text.contains("# Baud: 9600\n"))
        let bodyStart = try #require(text.range(of: "\n$")).lowerBound.utf16Offset(in: text) + 1
        #expect(Array(data[bodyStart...]) == body, "recorded \(data.count - bodyStart) of \(body.count) bytes")

        // And: replaying the recording gives the fixes the bytes hold
        let original = try dir.write("original.nmea", "# Name: original\n" + String(decoding: body, as: UTF8.self))
        let replayed = try #require(await gpsfix("watch", "--replay", file, "--json", "--speed", "max"))
        let expected = try #require(await gpsfix("watch", "--replay", original, "--json", "--speed", "max"))
        let tpv = { (r: CLIResult) in r.stdoutLines.filter { $0.contains("\"TPV\"") }.map { $0.replacingOccurrences(of: file, with: "X").replacingOccurrences(of: original, with: "X") } }
        #expect(tpv(replayed).count == 8)
        #expect(tpv(replayed) == tpv(expected))
    }

    @Test("An existing file is not overwritten without --force",
          .enabled(if: GPSFixBinary.isAvailable, "needs the built gpsfix"), .timeLimit(.minutes(1)))
    func refusesOverwrite() async throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("keep.nmea", "precious")
        let result = try #require(await gpsfix("record", file, "--device", "/dev/null-gpsfix-none"))
        #expect(result.status == 1)
        #expect(result.stderr.contains("exists already"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "precious")
    }
}

extension RecordTests {
    @Test("A port that cannot be read fails with its reason before FILE is made", .enabled(if: GPSFixBinary.isAvailable, "needs the built gpsfix"),
          .timeLimit(.minutes(1)), arguments: [
              ("/dev/null", "/dev/null is not a serial port"),
              ("/dev/ttyUSB-gpsfix-none", "/dev/ttyUSB-gpsfix-none: no such device"),
          ])
    func unreadablePort(device: String, reason: String) async throws {
        // Given a file name not yet taken
        let dir = try TemporaryDirectory()
        let file = dir.path + "/rec.nmea"

        // When record is pointed at a port it cannot read
        let result = try #require(await gpsfix("record", file, "--device", device))

        // Then it fails with the reason, and has made no file to refuse the next try
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("gpsfix: " + reason), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: file))
        let again = try #require(await gpsfix("record", file, "--device", device))
        #expect(!again.stderr.contains("exists already"), "\(again)")
    }

    @Test("A recording that fails before it has kept a byte leaves no file", .enabled(if: socatAvailable && GPSFixBinary.isAvailable, "needs /usr/bin/socat and the built gpsfix"),
          .timeLimit(.minutes(1)))
    func failureBeforeAnyByte() async throws {
        // Given a port that sends bytes that are no NMEA at any rate
        let dir = try TemporaryDirectory()
        let device = dir.path + "/gps", feed = dir.path + "/feed", file = dir.path + "/rec.nmea"
        let socat = try PtyPair(device: device, feed: feed)
        defer { socat.stop() }
        let noise = NoFixMessageTests.sending(feed, NoFixMessageTests.noise)
        defer { noise.cancel() }

        // When record hunts for its rate, and gives up
        let result = try #require(await gpsfix("record", file, "--device", device))

        // Then it says why, and the header-only file is gone
        #expect(result.status == 1)
        #expect(result.stderr.contains("no NMEA sentence at 4800, 9600"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: file))
    }
}

/// `socat pty,raw,echo=0,link=DEVICE pty,raw,echo=0,link=FEED`, stopped by PID.
final class PtyPair: Sendable {
    let pid: pid_t

    init(device: String, feed: String) throws {
        pid = try spawnQuietly(["/usr/bin/socat", "pty,raw,echo=0,link=\(device)", "pty,raw,echo=0,link=\(feed)"])
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline && !(FileManager.default.fileExists(atPath: device) && FileManager.default.fileExists(atPath: feed)) {
            usleep(10_000)
        }
    }

    /// SIGKILL, not SIGTERM: a child started from the test runner's threads inherits their
    /// blocked signal mask and would ignore SIGTERM.
    func stop() {
        stopChild(pid, SIGKILL)
    }
}
