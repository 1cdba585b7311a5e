import NMEA
import Glibc
import GPSLocation
import GPSOutput
import GPSSystem
import Testing

@Suite("TextFormat")
struct TextFormatTests {
    private func line(_ fix: Fix) -> String {
        var w = ByteWriter()
        TextFormat.line(fix, into: &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    @Test("The line of the doc comment: time, |lat| S, |lon| E, altitude, speed, course, mode, quality, satellites")
    func docExample() {
        #expect(line(.dunedin)
                == "2019-04-12T00:39:56.000Z  45.8775672 S 170.5001113 E  alt 14.2 m  0.01 m/s  course -  3D GPS  sats 12\n")
    }

    @Test("North and west, a 2D DGPS fix with course and unknown altitude")
    func northWest2D() {
        // Given
        var fix = Fix()
        fix.timestamp = FixTime(date: date(2024, 5, 1), time: TimeOfDay(hour: 8, minute: 30, second: 0, millisecond: 200))
        fix.mode = .twoD
        fix.quality = .dgps
        fix.coordinate = Coordinate(latitude: 51.4778, longitude: -0.0014)
        fix.speed = 12.345
        fix.course = 271.26

        // When
        let text = line(fix)

        // Then
        #expect(text == "2024-05-01T08:30:00.200Z  51.4778000 N 0.0014000 W  alt -  12.35 m/s  course 271.3  2D DGPS  sats -\n")
    }

    @Test("Unknown speed and quality")
    func unknowns() {
        var fix = Fix.dunedin
        fix.speed = nil
        fix.quality = nil
        #expect(line(fix) == "2019-04-12T00:39:56.000Z  45.8775672 S 170.5001113 E  alt 14.2 m  - m/s  course -  3D  sats 12\n")
    }

    @Test("No fix: the time and the satellites, nothing invented")
    func noFix() {
        var fix = Fix()
        fix.timestamp = FixTime(date: nil, time: TimeOfDay(hour: 12, minute: 0, second: 0))
        fix.satellitesUsed = 3
        #expect(line(fix) == "12:00:00.000  no fix  sats 3\n")
        #expect(line(Fix()) == "(no time)  no fix\n")
    }

    @Test("A 3D mode without a coordinate is shown as no fix")
    func modeWithoutCoordinate() {
        var fix = Fix.dunedin
        fix.coordinate = nil
        #expect(line(fix) == "2019-04-12T00:39:56.000Z  no fix  sats 12\n")
    }

    @Test("A position with mode 1 is not shown")
    func positionWithoutFix() {
        var fix = Fix.dunedin
        fix.mode = .noFix
        #expect(line(fix) == "2019-04-12T00:39:56.000Z  no fix  sats 12\n")
    }
}

@Suite("GPSOutputStream")
struct OutputStreamTests {
    /// A pipe; returns (read end, write end).
    private func pipeFDs() throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        return (fds[0], fds[1])
    }

    private func readAvailable(_ fd: Int32) -> String {
        var flags = fcntl(fd, F_GETFL)
        flags |= O_NONBLOCK
        _ = fcntl(fd, F_SETFL, flags)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
    }

    @Test("Reports are held until the threshold or a flush, then written in one piece")
    func buffering() throws {
        // Given
        let (r, w) = try pipeFDs()
        defer { close(r); close(w) }
        let sut = GPSOutputStream(descriptor: FileDescriptor(rawValue: w), threshold: 16)

        // When / Then
        sut.writer.append("short\n")
        sut.commit()
        #expect(readAvailable(r) == "", "below the threshold: held")
        sut.writer.append("and now long enough\n")
        sut.commit()
        #expect(readAvailable(r) == "short\nand now long enough\n")
        sut.writer.append("x\n")
        sut.commit(flushNow: true)
        #expect(readAvailable(r) == "x\n")
        #expect(sut.writer.bytes.isEmpty)
        #expect(!sut.failed)
    }

    @Test("A reader that went away is a failure of its own kind, not a killed process")
    func closedReader() throws {
        // Given
        signal(SIGPIPE, SIG_IGN)   // as gpsfix does
        let (r, w) = try pipeFDs()
        close(r)
        defer { close(w) }
        let sut = GPSOutputStream(descriptor: FileDescriptor(rawValue: w))

        // When
        sut.writer.append("nobody reads this\n")
        sut.flush()

        // Then
        #expect(sut.failed)
        #expect(sut.failure == WriteFailure(.standardOutput, code: EPIPE))
        #expect(sut.failure?.readerWentAway == true)
        #expect(sut.writer.bytes.isEmpty)
    }

    @Test("A full disk is kept as a fact: where, and the errno")
    func fullDisk() throws {
        // Given
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let sut = GPSOutputStream(descriptor: FileDescriptor(rawValue: fd), destination: .file(path: "/dev/full"))

        // When
        sut.writer.append("lost\n")
        sut.flush()

        // Then
        let failure = try #require(sut.failure)
        #expect(failure == WriteFailure(.file(path: "/dev/full"), code: ENOSPC))
        #expect(!failure.readerWentAway)
        #expect(failure.description == "cannot write to /dev/full: No space left on device")
    }

    @Test("After a failed write nothing more is written: the first failure stands")
    func nothingAfterFailure() throws {
        // Given: a stream whose first write failed (a closed reader), then a descriptor that
        // works again in its place
        signal(SIGPIPE, SIG_IGN)
        let (r1, w) = try pipeFDs()
        close(r1)
        let sut = GPSOutputStream(descriptor: FileDescriptor(rawValue: w))
        sut.writer.append("first\n")
        sut.flush()
        let (r2, w2) = try pipeFDs()
        defer { close(r2); close(w2) }
        dup2(w2, w)
        defer { close(w) }

        // When
        sut.writer.append("the rest of a report cut short\n")
        sut.flush()

        // Then
        #expect(readAvailable(r2) == "")
        #expect(sut.failure?.code == EPIPE)
    }
}
