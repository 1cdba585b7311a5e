import Foundation
import GPSTestSupport
import Glibc
import Testing

/// `serve --chrony-sock` and `--ntp-shm` against a real chronyd, fed by a receiver on a TCP
/// port whose epochs are written a known time after the second they carry.
///
/// The sign: chronyc shows the system clock's offset from the source, positive when the
/// system clock is ahead. An epoch stamped T and read at system time T + 0.3 makes the system
/// clock look 0.3 s ahead of the receiver: +0.3. (`struct sock_sample`'s offset is the other
/// way round, true time minus system time: -0.3.)
@Suite("gpsfix serve's time for chronyd", .serialized, .timeLimit(.minutes(2)),
       .enabled(if: ChronyDaemon.isAvailable && ServeTools.has(ServeTools.python) && GPSFixBinary.isAvailable,
                "skipped: needs chronyd and chronyc (apt-get install chrony), python3 and the built gpsfix"))
struct ChronyTests {
    struct Case: CustomTestStringConvertible, Sendable {
        /// Seconds after its second an epoch is written.
        let late: Double
        /// `--time-offset`, when given.
        let correction: Double?
        /// What chronyc should show.
        var expected: Double { late - (correction ?? 0) }
        var testDescription: String { "written \(Int(late * 1000)) ms late" + (correction.map { ", --time-offset \($0)" } ?? "") }
    }

    @Test("chronyd hears the receiver through SOCK and SHM, as far off as the stream is late",
          arguments: [Case(late: 0.3, correction: nil), Case(late: 0, correction: nil), Case(late: 0.3, correction: 0.3)])
    func offsetSeen(_ given: Case) async throws {
        let directory = try TemporaryDirectory()
        let chronyd = try await ChronyDaemon(in: directory.path, unit: try ChronyDaemon.freeUnit())
        defer { chronyd.stop() }
        let receiver = try await TimedNMEAServer(late: given.late)
        defer { receiver.stop() }

        let serve = try await ServeProcess(["--nmea-tcp", "127.0.0.1:\(receiver.port)", "--chrony-sock", chronyd.socketPath,
                                            "--ntp-shm", "\(chronyd.unit)"] + (given.correction.map { ["--time-offset", "\($0)"] } ?? []))
        defer { _ = serve.process.isRunning ? kill(serve.pid, SIGKILL) : 0 }

        let sources = try await chronyd.heard(["GPS", "SHM"])
        print("chronyc sources (\(given.testDescription)): \(sources)")
        for name in ["GPS", "SHM"] {
            let source = try #require(sources.first { $0.name == name }, "\(sources)")
            #expect(source.reach & 3 == 3, "\(name) not heard in two polls: \(sources); gpsfix: \(serve.stderr)")
            // The stream's own timing (python's sleep, the reads) is good to a few ms here.
            #expect(abs(source.offset - given.expected) < 0.05, "\(name): \(source.offset) s, expected \(given.expected): \(sources)")
        }
        #expect(serve.stderr.contains("sending 127.0.0.1:\(receiver.port)'s time to chronyd at \(chronyd.socketPath) and NTP shared memory unit \(chronyd.unit)"))
        #expect(await serve.stop() == 0)
    }

    @Test("A chronyd not yet there is said once and waited for; its samples flow when it starts")
    func chronydLate() async throws {
        let directory = try TemporaryDirectory()
        let receiver = try await TimedNMEAServer(late: 0.1)
        defer { receiver.stop() }
        let socket = directory.path + "/chrony.sock"
        let serve = try await ServeProcess(["--nmea-tcp", "127.0.0.1:\(receiver.port)", "--chrony-sock", socket])
        defer { _ = serve.process.isRunning ? kill(serve.pid, SIGKILL) : 0 }
        let absent = "gpsfix: chrony: nothing listens at \(socket): chronyd is not running, or its refclock SOCK line names another path; time samples are dropped until it listens"
        #expect(await waitUntil(.seconds(10)) { serve.stderr.contains(absent) }, "\(serve.stderr)")
        // Several epochs go unsent, and it is said only once.
        try await Task.sleep(for: .seconds(3))
        #expect(serve.stderr.components(separatedBy: absent).count == 2, "\(serve.stderr)")

        let chronyd = try await ChronyDaemon(in: directory.path, unit: try ChronyDaemon.freeUnit())
        defer { chronyd.stop() }
        let sources = try await chronyd.heard(["GPS"])
        let gps = try #require(sources.first { $0.name == "GPS" })
        #expect(gps.reach & 3 == 3, "\(sources); gpsfix: \(serve.stderr)")
        #expect(abs(gps.offset - 0.1) < 0.05, "\(sources)")
        #expect(serve.stderr.contains("gpsfix: chrony: sending 127.0.0.1:\(receiver.port)'s time to \(socket)"), "\(serve.stderr)")
        #expect(await serve.stop() == 0)
    }
}

@Suite("gpsfix serve's time options", .enabled(if: GPSFixBinary.isAvailable), .timeLimit(.minutes(1)))
struct TimeOptionTests {
    @Test("A replay is not live: its fixes carry no arrival, and serve says no time is sent")
    func replayNotLive() async throws {
        let dir = try TemporaryDirectory()
        let capture = try dir.drive()
        let serve = try await ServeProcess(["--replay", capture, "--loop", "--chrony-sock", dir.path + "/none.sock"])
        defer { _ = serve.process.isRunning ? kill(serve.pid, SIGKILL) : 0 }
        #expect(await waitUntil(.seconds(10)) { serve.stderr.contains("is not a live receiver (a replay, or gpsd's fixes): its fixes carry no time of arrival, so no time is sent to chronyd at \(dir.path)/none.sock") }, "\(serve.stderr)")
        #expect(!serve.stderr.contains("nothing listens"))
        #expect(await serve.stop() == 0)
    }

    @Test("Malformed or lone time options are usage errors (64)", arguments: [
        (["--ntp-shm", "256"], "--ntp-shm takes a unit from 0 to 255"),
        (["--ntp-shm", "x"], "--ntp-shm takes a unit from 0 to 255"),
        (["--chrony-sock", "/tmp/c.sock", "--time-offset", "20"], "--time-offset takes seconds from -10 to 10"),
        (["--time-offset", "0.3"], "--time-offset corrects the time sent with --chrony-sock or --ntp-shm: add one"),
    ])
    func usage(_ arguments: [String], _ message: String) async throws {
        let dir = try TemporaryDirectory()
        let capture = try dir.drive()
        let result = try #require(await runGPSFix(["serve", "--replay", capture, "--listen", "127.0.0.1:0"] + arguments))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
