import Foundation
import GPSTestSupport
import Glibc
import Testing

/// Output that cannot be written: a full disk, a file at its size limit, a closed descriptor,
/// and the one failure that is no failure, a reader that went away.
@Suite("gpsfix output that cannot be written",
       .enabled(if: GPSFixBinary.isAvailable, "gpsfix binary not found beside the test bundle (build it with 'swift build')"),
       .timeLimit(.minutes(1)))
struct WriteFailureTests {
    static let fullStdout = "gpsfix: cannot write to standard output: No space left on device. Free some space, or write elsewhere.\n"

    static let watchOutputs: [[String]] = [[], ["--json"], ["--nmea"], ["--gpx"], ["--view"]]

    // MARK: - A full disk

    @Test("watch to a full disk exits 1 and says so, whatever the output", arguments: watchOutputs)
    func watchToFullDisk(output: [String]) async throws {
        // Given: a capture small enough that its reports are written only when the run ends
        let dir = try TemporaryDirectory()
        let path = try dir.drive()
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))

        // When: `gpsfix watch … > /dev/full`
        let result = try #require(await runGPSFix(["watch", "--replay", path, "--speed", "max"] + output, standardOutput: full))

        // Then: no summary claiming a complete run, only what went wrong
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == Self.fullStdout)
    }

    @Test("A looping watch stops as soon as its output fails, rather than read on for nothing", arguments: watchOutputs)
    func loopingWatchStops(output: [String]) async throws {
        // Given: a replay that never ends by itself
        let dir = try TemporaryDirectory()
        let path = try dir.drive()
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))

        // When
        let result = try #require(await runGPSFix(["watch", "--replay", path, "--loop", "--speed", "max"] + output,
                                                  standardOutput: full, limit: .seconds(20)))

        // Then: it ended, by itself, with the reason
        #expect(!result.signalled)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == Self.fullStdout)
    }

    @Test("fix, help and version to a full disk exit 1 and say so", arguments: [
        ["fix", "--replay", "CAPTURE"], ["fix", "--replay", "CAPTURE", "--json"], ["--replay", "CAPTURE"],
        ["--version"], ["--help"], ["watch", "--help"], ["help", "record"],
    ])
    func oneShotToFullDisk(arguments: [String]) async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.drive()
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))

        // When
        let result = try #require(await runGPSFix(arguments.map { $0 == "CAPTURE" ? path : $0 }, standardOutput: full))

        // Then
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == Self.fullStdout)
    }

    @Test("Output on a closed descriptor (>&-) is reported, not lost")
    func closedStdout() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.drive()

        // When: `gpsfix watch … >&-`
        let result = try #require(await runGPSFix(["watch", "--replay", path, "--json", "--speed", "max"],
                                                  launcher: ["/bin/sh", "-c", #"exec "$0" "$@" >&-"#]))

        // Then
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == "gpsfix: cannot write to standard output: Bad file descriptor. Was gpsfix started with its output closed (>&-)?\n")
    }

    // MARK: - A reader that goes away

    @Test("A reader that goes away after the first bytes ends a looping watch quietly, with 0", arguments: watchOutputs)
    func readerGoesAway(output: [String]) async throws {
        // Given: `gpsfix watch --loop … | head -c N`
        let dir = try TemporaryDirectory()
        let path = try dir.drive()
        let pipe = Pipe()
        let firstBytes = Eventually<Data>()

        // When: the reader takes the first bytes and closes its end
        let result = try #require(await runGPSFix(["watch", "--replay", path, "--loop", "--speed", "max"] + output,
                                                  standardOutput: pipe.fileHandleForWriting, limit: .seconds(20)) { _ in
            // gpsfix has its own copy of the writing end; ours would keep the reader from seeing the end.
            try? pipe.fileHandleForWriting.close()
            Thread.detachNewThread { firstBytes.fulfill(pipe.fileHandleForReading.availableData) }
            _ = await firstBytes.value(within: .seconds(10))
            try? pipe.fileHandleForReading.close()
        })

        // Then: it had started writing, ended by itself, exit 0, nothing said
        let data = await firstBytes.value(within: .seconds(1))
        #expect(data?.isEmpty == false, "nothing was written before the reader left")
        #expect(!result.signalled, "ended by a signal (SIGPIPE?)")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
    }

    @Test("A reader gone before anything is written: exit 0, nothing said", arguments: [
        ["fix", "--replay", "CAPTURE"], ["fix", "--replay", "CAPTURE", "--json"], ["watch", "--replay", "CAPTURE", "--speed", "max"],
        ["--version"], ["watch", "--help"],
    ])
    func readerAlreadyGone(arguments: [String]) async throws {
        // Given: a pipe nobody reads any more
        let dir = try TemporaryDirectory()
        let path = try dir.drive()
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()

        // When
        let result = try #require(await runGPSFix(arguments.map { $0 == "CAPTURE" ? path : $0 },
                                                  standardOutput: pipe.fileHandleForWriting))

        // Then: not even watch's summary, which would speak of output nobody got
        #expect(!result.signalled)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
    }

    // MARK: - record

    @Test("record --gpx into a full device exits 1, naming the file")
    func gpxRecordToFullDevice() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.drive()

        // When
        let result = try #require(await gpsfix("record", "--gpx", "/dev/full", "--force", "--replay", path, "--speed", "max"))

        // Then
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.hasSuffix("gpsfix: cannot write to /dev/full: No space left on device. Free some space, or write elsewhere.\n"), "\(result)")
    }

    @Test("record --gpx stops when its file reaches the size limit, and counts only what is in it")
    func gpxRecordAtSizeLimit() async throws {
        // Given: a track that would grow for ever, and a limit on file size
        let dir = try TemporaryDirectory()
        let path = try dir.drive()
        let file = dir.path + "/track.gpx"
        let limit = 3000

        // When
        let result = try #require(await runGPSFix(["record", "--gpx", file, "--replay", path, "--loop", "--speed", "max"],
                                                  launcher: ["/usr/bin/prlimit", "--fsize=\(limit)", "--"], limit: .seconds(20)))

        // Then: it stopped by itself, said why, and its count matches the whole points on disk
        #expect(!result.signalled, "killed (SIGXFSZ?)")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.hasSuffix("gpsfix: cannot write to \(file): File too large. The file has reached the largest size allowed ('ulimit -f' shows the limit).\n"), "\(result)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.utf8.count == limit)
        let whole = text.components(separatedBy: "</trkpt>").count - 1
        #expect(whole > 0)
        #expect(result.stderr.contains("gpsfix: \(whole) points in 1 segment recorded in \(file)\n"), "\(result)")
    }

    @Test("record FILE into a full device exits 1, naming the file",
          .enabled(if: RecordTests.socatAvailable, "needs /usr/bin/socat"))
    func rawRecordToFullDevice() async throws {
        // Given: a receiver's port that opens (record checks it before it writes anything)
        let dir = try TemporaryDirectory()
        let device = dir.path + "/gps", feed = dir.path + "/feed"
        let socat = try PtyPair(device: device, feed: feed)
        defer { socat.stop() }

        // When: the header is the first thing it cannot write
        let result = try #require(await gpsfix("record", "/dev/full", "--force", "--device", device, "--baud", "9600"))

        // Then
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == "gpsfix: cannot write to /dev/full: No space left on device. Free some space, or write elsewhere.\n")
    }

    @Test("record FILE from a receiver stops as soon as the file reaches the size limit, keeping what fit",
          .enabled(if: RecordTests.socatAvailable, "needs /usr/bin/socat"))
    func rawRecordAtSizeLimit() async throws {
        // Given: a receiver on a pty that sends two epochs of NMEA, then switches to a binary
        // protocol: bytes to record, but no more fixes or other events to end a run on
        let dir = try TemporaryDirectory()
        let device = dir.path + "/gps", feed = dir.path + "/feed", file = dir.path + "/rec.nmea"
        let socat = try PtyPair(device: device, feed: feed)
        defer { socat.stop() }
        let limit = 1200
        let nmea = Array((0..<2).map { TestCapture.epoch($0) }.joined().map { $0 + "\r\n" }.joined().utf8)
        let binary = (0..<1500).map { UInt8(0x80 + $0 % 0x7F) }
        let body = nmea + binary
        try #require(nmea.count < limit - 400, "the limit must fall in the binary part")
        let headerSize = Eventually<Int>()
        let fed = Eventually<ContinuousClock.Instant>()

        // When: the receiver sends its bytes in small pieces, then nothing more
        let result = try #require(await runGPSFix(["record", file, "--device", device, "--baud", "9600"],
                                                  launcher: ["/usr/bin/prlimit", "--fsize=\(limit)", "--"], limit: .seconds(20)) { _ in
            let size = { (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0 }
            guard await waitUntil(.seconds(5), { size() > 0 }) else { return }
            headerSize.fulfill(size())
            // The port is open once the header is written; give it a moment to be configured.
            try? await Task.sleep(for: .milliseconds(200))
            guard let writer = FileHandle(forWritingAtPath: feed) else { return }
            for start in stride(from: 0, to: body.count, by: 64) {
                writer.write(Data(body[start..<min(start + 64, body.count)]))
                try? await Task.sleep(for: .milliseconds(5))
            }
            fed.fulfill(ContinuousClock.now)
        })
        let ended = ContinuousClock.now

        // Then: exit 1, the reason, the file full to the limit with the receiver's first bytes
        let header = try #require(await headerSize.value(within: .seconds(1)))
        #expect(!result.signalled, "killed (SIGXFSZ?)")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.hasSuffix("gpsfix: cannot write to \(file): File too large. The file has reached the largest size allowed ('ulimit -f' shows the limit).\n"), "\(result)")
        #expect(result.stderr.contains("gpsfix: \(limit - header) bytes recorded in \(file)\n"), "\(result)")
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(data.count == limit)
        #expect(Array(data[header...]) == Array(body[..<(limit - header)]))
        if let fed = await fed.value(within: .seconds(1)) {
            #expect(ended - fed < .seconds(3), "ended \(ended - fed) after the last byte")
        }
    }
}
