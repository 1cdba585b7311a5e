import NMEA
import Foundation
import Glibc
import GPSLocation
@testable import GPSSources
@testable import GPSGpsd
import CGPS
import GPSTestSupport
import Synchronization
import Testing

/// GpsdManager against a real gpsd on loopback, fed through a socat pty pair. Serialized: each
/// test runs its own gpsd and socat, and two cores are enough for one at a time.
@Suite("GpsdManager against a real gpsd", .serialized, .timeLimit(.minutes(1)),
       .enabled(if: GpsdTools.missing == nil, "skipped: needs /usr/sbin/gpsd and /usr/bin/socat (apt-get install gpsd socat)"))
struct GpsdManagerTests {
    /// A gpsd reading a pty, and a GpsdManager connected to it; `end()` stops both.
    struct Session {
        let directory: TemporaryDirectory
        let rig: GpsdRig
        let manager: GpsdManager
        let delegate: RecordingDelegate

        func end() {
            // Whatever this gpsd's release writes, gpsfix takes every line of it as a report.
            #expect(manager.linesRejected == 0, "lines from a real gpsd were rejected")
            manager.stopUpdatingLocation()
            rig.tearDown()
        }
    }

    func connected(watchdog: Duration, reconnect: Bool, forwardsSentences: Bool = false) async throws -> Session {
        let directory = try TemporaryDirectory()
        let rig = try GpsdRig(directory: directory.path)
        do {
            try rig.startGpsd()
        } catch {
            rig.tearDown()
            throw error
        }
        let manager = GpsdManager(port: rig.port, watchdog: watchdog, reconnect: reconnect, forwardsSentences: forwardsSentences)
        return Session(directory: directory, rig: rig, manager: manager, delegate: await start(manager))
    }

    @Test("A capture fed through gpsd gives the engine's positions (within 1e-7°) and altitudes",
          .timeLimit(.minutes(1)))
    func sameFixesAsEngine() async throws {
        // Given a gpsd reading a pty, and a GpsdManager connected to it
        let session = try await connected(watchdog: .seconds(30), reconnect: false)
        defer { session.end() }
        let (rig, delegate) = (session.rig, session.delegate)
        #expect(delegate.statuses == [.started])

        // When a 2019 capture of ten epochs (RMC, GGA, GSA, GSV) is written into the pty
        let epochs = 10
        for second in 0..<epochs {
            rig.write(SerialCapture.bytes(epochs: 1, from: second))
            try await Task.sleep(for: .milliseconds(150))
        }
        let reference = SerialCapture.referenceFixes(SerialCapture.bytes(epochs: epochs)).filter(\.hasFix)
        #expect(reference.count == epochs)
        // gpsd spends the first epochs or so learning the stream's packet type and cycle, and
        // reports an epoch when the next one begins: the middle ones must all come through.
        let middle = Array(reference[4..<(epochs - 1)])
        let lastLatitude = try #require(middle.last?.coordinate?.latitude)
        _ = await waitUntil(.seconds(5)) {
            delegate.fixes.contains { abs(($0.coordinate?.latitude ?? 0) - lastLatitude) < 1e-7 }
        }

        // Then every fix gpsd gave has one of the engine's positions (within 1e-7°), and each
        // of the middle epochs came through with the engine's position and altitudes
        let viaGpsd = delegate.fixes.filter(\.hasFix)
        for fix in viaGpsd {
            let match = reference.first { close($0.coordinate, fix.coordinate) }
            #expect(match != nil, "gpsd's \(String(describing: fix.coordinate)) is none of the engine's")
            if let match, fix.altitude != nil {
                #expect(fix.altitude == match.altitude)
                #expect(fix.timestamp?.date == match.timestamp?.date)
            }
        }
        for epoch in middle {
            let same = viaGpsd.filter { close(epoch.coordinate, $0.coordinate) }
            #expect(!same.isEmpty, "the engine's \(String(describing: epoch.coordinate)) never came through gpsd")
            #expect(same.contains { $0.altitude == epoch.altitude && $0.ellipsoidalAltitude == epoch.ellipsoidalAltitude },
                    "altitudes differ: engine \(String(describing: epoch.altitude)), gpsd \(same.map(\.altitude))")
        }
        #expect(delegate.events.contains { $0.sky.map { !$0.satellites.isEmpty } ?? false })
        #expect(delegate.errors.isEmpty)
    }

    @Test("Asked to, it passes on gpsd's copy of the sentences, unchanged, beside the fixes",
          .timeLimit(.minutes(1)))
    func sentencesPassedOn() async throws {
        // Given a manager that forwards sentences, and one that does not
        let session = try await connected(watchdog: .seconds(30), reconnect: false, forwardsSentences: true)
        defer { session.end() }
        let quiet = GpsdManager(port: session.rig.port, watchdog: .seconds(30), reconnect: false)
        let quietDelegate = await start(quiet)
        defer { quiet.stopUpdatingLocation() }

        // When five epochs are written into gpsd's pty
        let written = SerialCapture.bytes(epochs: 8)
        for second in 0..<8 {
            session.rig.write(SerialCapture.bytes(epochs: 1, from: second))
            try await Task.sleep(for: .milliseconds(150))
        }
        let lines = String(decoding: written, as: UTF8.self).split(separator: "\r\n").map(String.init)
        _ = await waitUntil(.seconds(5)) { session.delegate.events.contains { $0 == .sentence(lines.last!) } }

        // Then every sentence came through as written, in order, and fixes still came
        let sentences = session.delegate.events.compactMap { if case .sentence(let s) = $0 { s } else { nil } }
        // gpsd passes sentences on once it has recognised the stream (here from the third
        // epoch); from then on, each one as written and in order.
        #expect(sentences.count >= lines.count - 4 * 5, "\(sentences.count) of \(lines.count)")
        #expect(Array(lines.suffix(sentences.count)) == sentences)
        #expect(!session.delegate.fixes.isEmpty)
        #expect(!quietDelegate.events.contains { if case .sentence = $0 { true } else { false } }, "not asked, not sent")
    }

    @Test("A boat's heading sensor and sounder on gpsd's wire: gpsd's ATT and TPV depth reach the fixes",
          .timeLimit(.minutes(1)))
    func headingAndDepthThroughGpsd() async throws {
        // Given a gpsd reading a pty, and a GpsdManager connected to it
        let session = try await connected(watchdog: .seconds(30), reconnect: false)
        defer { session.end() }

        // When each epoch of a capture is followed by an HDT and a DBT (rst39's and a B&G Zeus's)
        for second in 0..<10 {
            session.rig.write(SerialCapture.bytes(epochs: 1, from: second)
                              + Array("$GPHDT,25.50,T*37\r\n$SDDBT,17.7,f,5.4,M,2.9,F*3D\r\n".utf8))
            try await Task.sleep(for: .milliseconds(150))
        }
        _ = await waitUntil(.seconds(5)) {
            session.delegate.fixes.contains { $0.attitude != nil } && session.delegate.fixes.contains { $0.marine != nil }
        }

        // Then gpsd's ATT is a fix's attitude, and its depth a fix's, with gpsd's values
        #expect(session.delegate.fixes.contains { $0.attitude?.heading == 25.5 })
        #expect(session.delegate.fixes.contains { $0.marine?.depth == 5.4 })
        #expect(session.delegate.errors.isEmpty)
    }

    /// The project's own captures, cut into epochs at each RMC (where their cycles begin).
    static func projectEpochs(_ name: String, count: Int) throws -> [[UInt8]] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Captures/" + name)
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\r\n").filter { $0.hasPrefix("$") }
        var epochs: [[UInt8]] = []
        for line in lines {
            if line.dropFirst(3).hasPrefix("RMC") {
                guard epochs.count < count else { break }
                epochs.append([])
            }
            guard !epochs.isEmpty else { continue }
            epochs[epochs.count - 1] += Array((line + "\r\n").utf8)
        }
        return epochs
    }

    @Test("The project's captures fed through gpsd give the engine's positions and altitudes",
          .timeLimit(.minutes(1)), arguments: ["drive-1hz.nmea", "multignss-10hz.nmea"])
    func projectCaptures(name: String) async throws {
        // Given a gpsd reading a pty, a GpsdManager connected to it, and 12 epochs of a capture
        let session = try await connected(watchdog: .seconds(30), reconnect: false)
        defer { session.end() }
        let (rig, delegate) = (session.rig, session.delegate)
        let epochs = try Self.projectEpochs(name, count: 12)
        #expect(epochs.count == 12)
        let reference = SerialCapture.referenceFixes(epochs.flatMap { $0 }).filter(\.hasFix)

        // When the epochs are written into the pty one by one
        for epoch in epochs {
            rig.write(epoch)
            try await Task.sleep(for: .milliseconds(150))
        }
        // gpsd learns the stream in its first epochs and reports one when the next begins
        let middle = Array(reference[4..<(reference.count - 1)])
        let last = try #require(middle.last?.coordinate)
        _ = await waitUntil(.seconds(5)) { delegate.fixes.contains { close($0.coordinate, last) } }

        // Then every fix through gpsd is one of the engine's, and the middle ones all came
        // through with the same altitudes
        let viaGpsd = delegate.fixes.filter(\.hasFix)
        #expect(!viaGpsd.isEmpty)
        for fix in viaGpsd {
            #expect(reference.contains { close($0.coordinate, fix.coordinate) },
                    "gpsd's \(String(describing: fix.coordinate)) is none of the engine's")
        }
        for epoch in middle {
            let same = viaGpsd.filter { close(epoch.coordinate, $0.coordinate) }
            #expect(same.contains { $0.altitude == epoch.altitude },
                    "\(name): \(String(describing: epoch.coordinate)) alt \(String(describing: epoch.altitude)) via gpsd: \(same.map(\.altitude))")
        }
        #expect(delegate.errors.isEmpty)
    }

    private func close(_ a: Coordinate?, _ b: Coordinate?) -> Bool {
        guard let a, let b else { return false }
        return abs(a.latitude - b.latitude) <= 1e-7 && abs(a.longitude - b.longitude) <= 1e-7
    }

    @Test("gpsd killed mid-stream and started again: .disconnected, then fixes again within 3 s",
          .timeLimit(.minutes(1)))
    func gpsdRestarted() async throws {
        // Given a manager streaming fixes from a gpsd
        let session = try await connected(watchdog: .seconds(5), reconnect: true)
        defer { session.end() }
        let (rig, delegate) = (session.rig, session.delegate)
        rig.startFeeding()
        #expect(await waitUntil(.seconds(5)) { delegate.fixes.contains(where: \.hasFix) })

        // When gpsd is killed, and started again on the same port and pty
        rig.killGpsd()
        #expect(await waitUntil(.seconds(3)) {
            delegate.statuses.contains { if case .disconnected = $0 { true } else { false } }
        })
        let before = delegate.events.count
        let restarted = Date()
        try rig.startGpsd()

        // Then fixes resume within 3 s of the restart, after .reconnecting and .streaming
        let resumed = await waitUntil(.seconds(3)) {
            delegate.events.dropFirst(before).contains { $0.fix?.hasFix ?? false }
        }
        #expect(resumed, "no fix within 3 s of gpsd's restart (\(Date().timeIntervalSince(restarted)) s)")
        let statuses = delegate.statuses
        #expect(statuses.contains { if case .reconnecting = $0 { true } else { false } })
        #expect(statuses.last == .streaming)
        #expect(delegate.errors.isEmpty)
    }

    @Test("A stopped gpsd (SIGSTOP) is caught by the watchdog: .disconnected, gone silent",
          .timeLimit(.minutes(1)))
    func gpsdStopped() async throws {
        // Given a manager with a 1 s watchdog streaming fixes from a gpsd
        let session = try await connected(watchdog: .seconds(1), reconnect: true)
        defer { session.end() }
        let (rig, delegate) = (session.rig, session.delegate)
        rig.startFeeding()
        #expect(await waitUntil(.seconds(5)) { delegate.fixes.contains(where: \.hasFix) })

        // When gpsd is stopped
        rig.signalGpsd(SIGSTOP)
        defer { rig.signalGpsd(SIGCONT) }

        // Then the watchdog reports it silent
        let reported = await waitUntil(.seconds(4)) {
            delegate.statuses.contains { if case .disconnected(let reason) = $0 { reason.contains("silent") } else { false } }
        }
        #expect(reported, "statuses: \(delegate.statuses)")
        #expect(delegate.errors.isEmpty)
    }

    @Test("No gpsd at start: .gpsdUnavailable within 1 s", .timeLimit(.minutes(1)))
    func gpsdAbsent() async throws {
        // Given a port nobody listens on
        let port = try Loopback.freePort()
        let manager = GpsdManager(port: port, reconnect: true)
        let delegate = RecordingDelegate()
        manager.delegate = delegate

        // When the manager starts
        let started = Date()
        manager.startUpdatingLocation()
        defer { manager.stopUpdatingLocation() }
        let failed = await waitUntil(.seconds(1)) { !delegate.errors.isEmpty }

        // Then it fails at once, naming host and port
        #expect(failed, "no error within 1 s (\(Date().timeIntervalSince(started)) s)")
        guard case .gpsdUnavailable(let host, let failedPort, _)? = delegate.errors.first else {
            Issue.record("expected .gpsdUnavailable, got \(delegate.events)")
            return
        }
        #expect(host == "127.0.0.1")
        #expect(failedPort == port)
        #expect(delegate.statuses.isEmpty)
    }

    @Test("A start made from inside the failure report begins a new run (the failed one is released first)", .timeLimit(.minutes(1)))
    func restartFromFailureReport() async throws {
        // Given no gpsd, and a delegate that starts the manager again when told of the failure
        let port = try Loopback.freePort()
        let manager = GpsdManager(port: port, reconnect: true)
        let delegate = RestartingOnFailure()
        manager.delegate = delegate

        // When it starts
        manager.startUpdatingLocation()
        defer { manager.stopUpdatingLocation() }

        // Then the second start ran too, and failed in its turn
        #expect(await waitUntil(.seconds(3)) { delegate.errors.count == 2 }, "\(delegate.errors)")
    }
}

@Suite("gpsd's times")
struct GpsdTimeTests {
    @Test("civil-from-days and the millisecond of a timespec")
    func conversion() throws {
        // Given seconds since 1970 / When converted / Then the calendar date and time of day
        let t = try #require(GpsdTime.fixTime(seconds: 1_555_070_401, nanoseconds: 250_999_999))
        #expect(t.date == CalendarDate(year: 2019, month: 4, day: 12))
        #expect(t.time == TimeOfDay(hour: 12, minute: 0, second: 1, millisecond: 250))
        #expect(GpsdTime.civil(fromDays: 0) == (1970, 1, 1))
        #expect(GpsdTime.civil(fromDays: 11016) == (2000, 2, 29))
        #expect(GpsdTime.civil(fromDays: -1) == (1969, 12, 31))
        #expect(GpsdTime.civil(fromDays: 47541) == (2100, 3, 1))
    }

    @Test("a time from gpsd outside the years a date may have is no time, and cannot overflow", arguments: [
        Int.min, Int.max, -62_135_596_801, 6_626_966_400, 0, 315_532_799,
    ])
    func outOfRange(seconds: Int) {
        // Given seconds before 1980 or from 2180 on (or at the ends of Int) / Then no time
        #expect(GpsdTime.fixTime(seconds: seconds, nanoseconds: 0) == nil)
    }

    @Test("the edges of gpsd's time window are times")
    func edges() throws {
        #expect(try #require(GpsdTime.fixTime(seconds: 315_532_800, nanoseconds: 0)).date == CalendarDate(year: 1980, month: 1, day: 1))
        #expect(try #require(GpsdTime.fixTime(seconds: 6_626_966_399, nanoseconds: 0)).date == CalendarDate(year: 2179, month: 12, day: 31))
    }

    @Test("gpsd's status as the engine's quality; a plain fix (status 0) is GPS")
    func quality() {
        #expect(GpsdFields.quality(CGPS_STATUS_UNKNOWN) == .gps)
        #expect(GpsdFields.quality(CGPS_STATUS_DGPS) == .dgps)
        #expect(GpsdFields.quality(CGPS_STATUS_RTK_FLOAT) == .rtkFloat)
    }
}
