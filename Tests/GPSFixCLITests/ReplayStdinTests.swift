import Foundation
import GPSTestSupport
import Glibc
import Synchronization
import Testing

/// `--replay -` reads standard input: a capture piped in, or a live feed (`gpspipe -r | gpsfix
/// watch --replay -`) shown as it arrives.
@Suite("gpsfix --replay - (standard input)",
       .enabled(if: GPSFixBinary.isAvailable, "gpsfix binary not found beside the test bundle (build it with 'swift build')"),
       .timeLimit(.minutes(1)))
struct ReplayStdinTests {
    @Test("A capture piped to --replay - gives the same reports as the file, and the summary names standard input",
          arguments: [["--json"], []])
    func pipedWhole(format: [String]) async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.drive(epochs: 5)
        let capture = try Data(contentsOf: URL(fileURLWithPath: path))
        let fromFile = try #require(await runGPSFix(["watch", "--replay", path, "--speed", "max"] + format))
        let input = Pipe()

        // When: `cat capture | gpsfix watch --replay - --speed max`
        let piped = try #require(await runGPSFix(["watch", "--replay", "-", "--speed", "max"] + format,
                                                 standardInput: input.fileHandleForReading) { _ in
            // gpsfix has its own copy of the reading end.
            try? input.fileHandleForReading.close()
            input.fileHandleForWriting.write(capture)
            try? input.fileHandleForWriting.close()
        })

        // Then
        #expect(piped.status == 0, "\(piped)")
        #expect(fromFile.stdoutLines.count == (format.isEmpty ? 5 : 10), "\(fromFile)")
        #expect(piped.stdout == fromFile.stdout.replacingOccurrences(of: "\"device\":\"\(path)\"", with: "\"device\":\"standard input\""))
        #expect(piped.stderr == fromFile.stderr.replacingOccurrences(of: path + ":", with: "standard input:"))
    }

    @Test("A pipe is shown as it arrives: even at --speed max, reports are out while the writer pauses")
    func pipedLive() async throws {
        // Given: a writer that sends three epochs, pauses with its end open, then sends two more
        let input = Pipe(), output = Pipe()
        let lines = LineReader()
        let beforeClose = Mutex<[String]>([])

        // When
        let result = try #require(await runGPSFix(["watch", "--replay", "-", "--json", "--speed", "max"],
                                                  standardInput: input.fileHandleForReading,
                                                  standardOutput: output.fileHandleForWriting) { _ in
            try? input.fileHandleForReading.close()
            try? output.fileHandleForWriting.close()
            lines.start(output.fileHandleForReading)
            input.fileHandleForWriting.write(Data(TestCapture.text((0..<3).map(TestCapture.epoch)).utf8))
            _ = await waitUntil(.seconds(10)) { lines.tpvs.count >= 2 }
            beforeClose.withLock { $0 = lines.tpvs }
            input.fileHandleForWriting.write(Data((3..<5).flatMap(TestCapture.epoch).map { $0 + "\r\n" }.joined().utf8))
            try? input.fileHandleForWriting.close()
        })

        // Then: the first epochs were out before the writer closed; all five by the end
        #expect(result.status == 0, "\(result)")
        let early = beforeClose.withLock { $0 }
        #expect(early.count >= 2, "no report before the writer closed")
        #expect(early.first?.contains("\"time\":\"2019-04-12T12:00:00.000Z\"") == true)
        #expect(await lines.ended(within: .seconds(5)))
        #expect(lines.tpvs.count == 5)
    }

    @Test("A read error part-way (a terminal that hangs up: EIO) ends with exit 1 and the reason, after the reports so far")
    func readErrorMidStream() async throws {
        // Given: standard input is a pty's master, fed through its other side
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let output = Pipe()
        let lines = LineReader()
        let reportsBeforeError = Mutex(0)

        // When: three epochs, then the other side closes
        let result = try #require(await runGPSFix(["watch", "--replay", "-", "--json", "--speed", "max"],
                                                  standardInput: FileHandle(fileDescriptor: pty.master, closeOnDealloc: false),
                                                  standardOutput: output.fileHandleForWriting) { _ in
            try? output.fileHandleForWriting.close()
            lines.start(output.fileHandleForReading)
            pty.write(TestCapture.text((0..<3).map(TestCapture.epoch)))
            _ = await waitUntil(.seconds(10)) { lines.tpvs.count >= 2 }
            reportsBeforeError.withLock { $0 = lines.tpvs.count }
            pty.hangUp()
        })

        // Then
        #expect(reportsBeforeError.withLock { $0 } >= 2, "the read error came before any report")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == "gpsfix: standard input: cannot be read (Input/output error).\n")
    }

    @Test("--loop with a pipe or a FIFO is a usage error that says why (64)", arguments: ["pipe", "FIFO"])
    func loopNeedsAFile(kind: String) async throws {
        // Given
        let dir = try TemporaryDirectory()
        let input = Pipe()
        try input.fileHandleForWriting.close()
        let fifo = dir.path + "/feed.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let source = kind == "pipe" ? "-" : fifo

        // When
        let result = try #require(await runGPSFix(["watch", "--replay", source, "--loop"],
                                                  standardInput: input.fileHandleForReading))

        // Then
        #expect(result.status == 64, "\(result)")
        let name = kind == "pipe" ? "standard input" : fifo
        #expect(result.stderr.hasPrefix("gpsfix: watch: --loop needs a file: \(name) is a pipe or FIFO, read once as it arrives."), "\(result)")
        #expect(result.stdout.isEmpty)
    }

    @Test("--loop still loops a file, named or redirected to standard input", arguments: ["path", "stdin"])
    func loopsAFile(way: String) async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.drive()
        let file = try #require(FileHandle(forReadingAtPath: path))

        // When
        let result = try #require(await runGPSFix(["watch", "--replay", way == "path" ? path : "-", "--loop", "--speed", "max", "-n", "7"],
                                                  standardInput: way == "path" ? nil : file))

        // Then
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.map { String($0.prefix(24)) } == [0, 1, 2, 0, 1, 2, 0].map { "2019-04-12T12:00:0\($0).000Z" })
    }

    @Test("Ctrl-C while standard input is silent ends watch at once, with 0")
    func interruptIdle() async throws {
        // Given: a writer that holds the pipe open and sends nothing
        let input = Pipe()
        let sent = Eventually<ContinuousClock.Instant>()

        // When
        let result = try #require(await runGPSFix(["watch", "--replay", "-", "--json", "--speed", "max"],
                                                  standardInput: input.fileHandleForReading, limit: .seconds(20)) { pid in
            guard await waitUntil(.seconds(10), { catches(pid, SIGINT) }) else { return }
            try? await Task.sleep(for: .milliseconds(200))
            sent.fulfill(ContinuousClock.now)
            kill(pid, SIGINT)
        })
        let ended = ContinuousClock.now
        try? input.fileHandleForWriting.close()

        // Then
        let at = try #require(await sent.value(within: .seconds(1)), "gpsfix never installed its handler")
        #expect(result.status == 0, "\(result)")
        #expect(ended - at < .seconds(2), "took \(ended - at) after Ctrl-C")
    }
}

/// Reads a process's output line by line as it comes, on a thread of its own.
private final class LineReader: Sendable {
    private let lines = Mutex<[String]>([])
    private let done = Eventually<Bool>()

    func start(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            var pending = Data()
            while case let data = handle.availableData, !data.isEmpty {
                pending.append(data)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    lines.withLock { $0.append(line) }
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            done.fulfill(true)
        }
    }

    var tpvs: [String] { lines.withLock { $0.filter { $0.hasPrefix("{\"class\":\"TPV\"") } } }

    /// Whether the output reached its end within `limit`.
    func ended(within limit: Duration) async -> Bool { await done.value(within: limit) ?? false }
}

/// A pseudo-terminal: the master end is a process's standard input, the other end is written
/// by the test and closed to hang up (the master then reads EIO).
private final class PseudoTerminal: Sendable {
    struct Failed: Error { let call: String }

    let master: Int32
    private let other: Mutex<Int32>

    /// The C library's posix_openpt, grantpt, unlockpt and ptsname are not visible from Swift
    /// here; these are the ioctls beneath them. The corresponding C constants are `TIOCGPTN`
    /// and `TIOCSPTLCK`.
    private static let getNumber: UInt = 0x8004_5430
    private static let setLock: UInt = 0x4004_5431

    init() throws {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw Failed(call: "open /dev/ptmx") }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, Self.setLock, &unlock) == 0, ioctl(master, Self.getNumber, &number) == 0 else {
            Glibc.close(master)
            throw Failed(call: "ioctl TIOCSPTLCK/TIOCGPTN")
        }
        let name = "/dev/pts/\(number)"
        // Close-on-exec, so that only the test holds this end and its close is a hang-up.
        let other = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard other >= 0 else {
            Glibc.close(master)
            throw Failed(call: "open \(name)")
        }
        // Raw: the bytes pass as written (no LF to CR LF, no echo).
        var settings = termios()
        tcgetattr(other, &settings)
        cfmakeraw(&settings)
        tcsetattr(other, TCSANOW, &settings)
        self.master = master
        self.other = Mutex(other)
    }

    func write(_ text: String) {
        let bytes = Array(text.utf8)
        other.withLock { fd in _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } }
    }

    func hangUp() {
        other.withLock { fd in
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
        }
    }

    func close() {
        hangUp()
        Glibc.close(master)
    }
}
