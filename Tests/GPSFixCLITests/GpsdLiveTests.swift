import Foundation
import GPSTestSupport
import Glibc
import Synchronization
import Testing

/// gpsfix reading through the system's own gpsd, as a person does: gpsd on a socat pty that a
/// capture is written into at ten epochs a second, read by `watch --gpsd` and `serve --gpsd`,
/// and gpsd killed and started again underneath them. `make distros` runs these against the
/// gpsd and libgps of each Debian it checks.
@Suite("gpsfix through a real gpsd reading a pty", .serialized, .timeLimit(.minutes(1)),
       .enabled(if: GpsdOnPty.missing == nil && GPSFixBinary.isAvailable, "needs /usr/sbin/gpsd, /usr/bin/socat and the built gpsfix"))
struct GpsdLiveTests {
    static let capture = projectCapture("drive-1hz.nmea")

    /// What `watch --replay` prints for the capture, in order: one TPV an epoch.
    static func replayed() async throws -> [ServeNMEAFeedTests.TPV] {
        let watched = try #require(await runGPSFix(["watch", "--replay", capture, "--json", "--speed", "max"]))
        #expect(watched.status == 0, "\(watched)")
        return ServeNMEAFeedTests.tpvs(watched.stdout)
    }

    /// Each of `tpvs` is the replay's fix at that time, to 1e-7°; returns their epoch numbers.
    static func epochs(of tpvs: [ServeNMEAFeedTests.TPV], in replay: [ServeNMEAFeedTests.TPV],
                       sourceLocation: SourceLocation = #_sourceLocation) -> [Int] {
        let index = Dictionary(replay.enumerated().map { ($1.time, $0) }, uniquingKeysWith: { first, _ in first })
        return tpvs.compactMap { tpv in
            guard let epoch = index[tpv.time] else {
                Issue.record("a fix at \(tpv.time) that the capture does not have", sourceLocation: sourceLocation)
                return nil
            }
            let mine = replay[epoch]
            #expect(abs(mine.lat - tpv.lat) < 1e-7 && abs(mine.lon - tpv.lon) < 1e-7,
                    "\(tpv.time): through gpsd \(tpv.lat), \(tpv.lon); replayed \(mine.lat), \(mine.lon)", sourceLocation: sourceLocation)
            return epoch
        }
    }

    /// gpsd reading a pty that the capture is being written into, in a directory of its own.
    static func gpsdFedTheCapture() async throws -> (TemporaryDirectory, GpsdOnPty) {
        let dir = try TemporaryDirectory()
        let rig = try GpsdOnPty(directory: dir.path, capture: capture)
        do {
            try await rig.startGpsd()
        } catch {
            rig.tearDown()
            throw error
        }
        rig.startFeeding()
        return (dir, rig)
    }

    @Test("watch --gpsd prints the capture's fixes as gpsd reads them from a pty, and goes on after gpsd is restarted")
    func watchThroughRestart() async throws {
        // Given gpsd reading a pty that the capture is written into
        let replay = try await Self.replayed()
        let (dir, rig) = try await Self.gpsdFedTheCapture()
        defer { withExtendedLifetime(dir) { rig.tearDown() } }

        // When watch --gpsd runs for three seconds, gpsd is killed and started again, and
        // watch runs five seconds more before Ctrl-C
        let restartedAt = Eventually<Int>()
        let result = try #require(await runGPSFix(["watch", "--gpsd", "127.0.0.1:\(rig.port)", "--json"], limit: .seconds(40),
                                                  whileRunning: { pid in
            try? await Task.sleep(for: .seconds(3))
            do { restartedAt.fulfill(try await rig.restartGpsd()) } catch { Issue.record("\(error)") }
            try? await Task.sleep(for: .seconds(5))
            kill(pid, SIGINT)
        }))

        // Then it ends as Ctrl-C ends it, having printed the capture's fixes before the restart
        // and after it
        #expect(result.status == 0 && !result.signalled, "\(result)")
        let restart = try #require(await restartedAt.value(within: .seconds(1)))
        let epochs = Self.epochs(of: ServeNMEAFeedTests.tpvs(result.stdout), in: replay)
        #expect(epochs.filter { $0 < restart }.count >= 10, "before the restart (epoch \(restart)): \(epochs); \(result.stderr)")
        #expect(epochs.filter { $0 >= restart }.count >= 10, "after the restart (epoch \(restart)): \(epochs); \(result.stderr)")
        #expect(epochs == epochs.sorted(), "in the capture's order: \(epochs)")
    }

    @Test("serve --gpsd serves its clients the fixes gpsd reads from a pty, and goes on after gpsd is restarted")
    func serveThroughRestart() async throws {
        // Given gpsd reading a pty that the capture is written into, serve reading gpsd, and a
        // client watching serve
        let replay = try await Self.replayed()
        let (dir, rig) = try await Self.gpsdFedTheCapture()
        defer { withExtendedLifetime(dir) { rig.tearDown() } }
        let serve = try await ServeProcess(["--gpsd", "127.0.0.1:\(rig.port)"])
        defer { if serve.process.isRunning { serve.process.terminate() } }
        let client = try LineClient(port: serve.port)
        client.send("?WATCH={\"enable\":true,\"json\":true};")

        // When the client has had ten fixes, gpsd is killed and started again
        let before = Self.epochs(of: Self.fixes(10, from: client), in: replay)
        #expect(before.count == 10, "\(serve.stderr)")
        let restart = try await rig.restartGpsd()

        // Then the client, on the same connection, gets the fixes written after the restart
        var after: [Int] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while after.filter({ $0 >= restart }).count < 10, ContinuousClock.now < deadline {
            let fixes = Self.fixes(1, from: client, within: 1)
            after += Self.epochs(of: fixes, in: replay)
            if client.closed { break }
        }
        #expect(after.filter { $0 >= restart }.count >= 10, "after the restart (epoch \(restart)): \(after); \(serve.stderr)")
        #expect(serve.process.isRunning, "\(serve.stderr)")
        #expect(await serve.stop() == 0, "\(serve.stderr)")
    }

    /// The next `count` TPVs with a position that `client` reads, within `seconds`.
    static func fixes(_ count: Int, from client: LineClient, within seconds: Double = 10) -> [ServeNMEAFeedTests.TPV] {
        let deadline = monotonicSeconds() + seconds
        var found: [ServeNMEAFeedTests.TPV] = []
        while found.count < count, let line = client.readLine(within: max(0, deadline - monotonicSeconds())) {
            found += ServeNMEAFeedTests.tpvs(line)
        }
        return found
    }
}

/// socat's pty pair, a gpsd reading one end (read-only, at a fixed speed, on a free loopback
/// port), and a writer putting a capture into the other, an epoch each tenth of a second.
/// Every process is ended by its PID.
final class GpsdOnPty: Sendable {
    static let gpsd = "/usr/sbin/gpsd"
    static let socat = "/usr/bin/socat"
    static var missing: String? {
        let tools: [String] = [gpsd, socat]
        return tools.first { access($0, X_OK) != 0 }.map { "\($0) is not installed" }
    }

    let port: Int
    let device: String
    private let ptys: PtyPair
    private let gpsdProcess = Mutex<DaemonProcess?>(nil)
    /// The device end held open for the rig's life, so that gpsd closing it (killed) is no
    /// hang-up that ends socat.
    private let deviceHold: Int32
    private let feed: Int32
    private let epochs: [[UInt8]]
    /// How many of the capture's epochs have been written.
    private let written = Atomic<Int>(0)
    private let feeding = Atomic<Bool>(false)
    private let feederDone = DispatchSemaphore(value: 0)
    private let tornDown = Atomic<Bool>(false)

    init(directory: String, capture: String) throws {
        // The capture's sentences, in epochs: each begins with its RMC.
        var epochs: [[UInt8]] = []
        for line in try String(contentsOfFile: capture, encoding: .utf8).split(whereSeparator: \.isNewline) where line.hasPrefix("$") {
            if line.dropFirst(3).hasPrefix("RMC") || epochs.isEmpty { epochs.append([]) }
            epochs[epochs.count - 1] += Array((line + "\r\n").utf8)
        }
        self.epochs = epochs
        port = try freeLoopbackPort()
        device = directory + "/gps0"
        let feedLink = directory + "/feed"
        ptys = try PtyPair(device: device, feed: feedLink)
        deviceHold = open(device, O_RDONLY | O_NOCTTY | O_NONBLOCK)
        feed = open(feedLink, O_WRONLY | O_NOCTTY | O_NONBLOCK)
        guard deviceHold >= 0, feed >= 0 else {
            ptys.stop()
            throw SpawnError(description: "cannot open socat's ptys \(device) and \(feedLink)")
        }
    }

    /// Starts gpsd on the device end and waits until it accepts connections.
    func startGpsd() async throws {
        let child = try DaemonProcess([Self.gpsd, "-N", "-n", "-b", "-s", "4800", "-f", "8N1", "-S", String(port), device])
        gpsdProcess.withLock { $0 = child }
        guard await waitUntil(.seconds(5), { ServeNMEAFeedTests.accepts(port) }) else {
            throw SpawnError(description: "gpsd did not accept on 127.0.0.1:\(port) within 5 s")
        }
    }

    /// Kills gpsd, leaves it down for a second, starts it again; returns the first epoch
    /// written once it is back.
    func restartGpsd() async throws -> Int {
        gpsdProcess.withLock { p -> DaemonProcess? in defer { p = nil }; return p }?.kill()
        try await Task.sleep(for: .seconds(1))
        try await startGpsd()
        return written.load(ordering: .acquiring)
    }

    /// Writes the capture, an epoch a tenth of a second, on a thread of its own; what the pty
    /// does not take at once (nobody reading while gpsd is down) is dropped, as from a receiver.
    func startFeeding() {
        feeding.store(true, ordering: .releasing)
        Thread.detachNewThread { [self] in
            for epoch in epochs {
                guard feeding.load(ordering: .acquiring) else { break }
                var offset = 0, tries = 0
                while offset < epoch.count, tries < 100 {
                    let n = epoch[offset...].withUnsafeBytes { Glibc.write(feed, $0.baseAddress, $0.count) }
                    if n > 0 { offset += n } else { tries += 1; usleep(1_000) }
                }
                written.add(1, ordering: .releasing)
                usleep(100_000)
            }
            feederDone.signal()
        }
    }

    /// Stops the writer, gpsd and socat; once.
    func tearDown() {
        guard !tornDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if feeding.exchange(false, ordering: .acquiringAndReleasing) { feederDone.wait() }
        gpsdProcess.withLock { p -> DaemonProcess? in defer { p = nil }; return p }?.kill()
        ptys.stop()
    }

    deinit {
        tearDown()
        close(deviceHold)
        close(feed)
    }
}
