import NMEA
import Foundation
import Glibc
import GPSLocation
@testable import GPSSources
import GPSSystem
import GPSTestSupport
import Synchronization
import Testing

/// The serial source end to end, through pseudo-terminals at real rates. Serialized: the tests
/// pace bytes in real time and share the process-wide last-working baud rate.
@Suite("SerialNMEAManager through ptys", .serialized, .timeLimit(.minutes(1)))
struct SerialNMEAManagerTests {

    // MARK: - Real pacing

    @Test("A capture written at real pacing gives the same fixes as the engine on the same bytes, and onBytes sees every byte",
          .timeLimit(.minutes(1)), arguments: [9600, 115_200])
    func pacedCapture(baud: Int) async throws {
        // Given a receiver on a pty sending four 1 Hz epochs at `baud`
        let pty = try PseudoTerminal()
        let bytes = SerialCapture.bytes(epochs: 4)
        let log = ByteLog()
        let manager = SerialNMEAManager(path: pty.path, options: .init(baud: baud, reconnect: false))
        manager.onBytes = log.handler
        let delegate = await start(manager)
        #expect(delegate.statuses == [.started])

        // When the bytes arrive as fast as the line carries them, 16 at a time
        let writer = WriterThread {
            var offset = 0
            while offset < bytes.count {
                let chunk = Array(bytes[offset..<min(offset + 16, bytes.count)])
                pty.write(chunk)
                pace(bytes: chunk.count, baud: baud)
                offset += chunk.count
            }
        }
        #expect(writer.join())
        let expected = SerialCapture.referenceFixes(bytes)
        _ = await waitUntil(.seconds(5)) { delegate.fixes.count >= expected.count }
        manager.stopUpdatingLocation()

        // Then the fixes are the engine's, in order; the bytes are the bytes; the rate is set
        #expect(expected.count == 4)
        #expect(delegate.fixes == expected)
        #expect(log.bytes == bytes)
        #expect(manager.baudRate == baud)
        #expect(pty.slaveSpeed == baud)
        #expect(delegate.errors.isEmpty)
    }

    @Test("A dribbled stream (one byte per write) and a burst give identical fixes", .timeLimit(.minutes(1)))
    func dribbleAndBurst() async throws {
        // Given the same capture for both
        let bytes = SerialCapture.bytes(epochs: 3)
        let expected = SerialCapture.referenceFixes(bytes)

        // When it is written one byte per write, each once the reader has handed on the one
        // before, so that every read gets exactly one byte …
        let dribbled = try await fixes(of: bytes) { pty, log in
            for (index, byte) in bytes.enumerated() {
                pty.write([byte])
                log.waitForCount(index + 1)
            }
        }
        // … and as one write
        let burst = try await fixes(of: bytes) { pty, _ in pty.write(bytes) }

        // Then both give the engine's fixes; the dribble really came in small reads
        #expect(dribbled.fixes == expected)
        #expect(burst.fixes == expected)
        #expect(dribbled.fixes == burst.fixes)
        #expect(dribbled.reads == bytes.count, "one read per byte")
        #expect(burst.reads < dribbled.reads)
    }

    /// The fixes a manager makes of `bytes` written by `write`, and the number of reads.
    private func fixes(of bytes: [UInt8], write: @escaping @Sendable (PseudoTerminal, ByteLog) -> Void) async throws -> (fixes: [Fix], reads: Int) {
        let pty = try PseudoTerminal()
        let log = ByteLog()
        let manager = SerialNMEAManager(path: pty.path, options: .init(baud: 115_200, reconnect: false))
        manager.onBytes = log.handler
        let delegate = await start(manager)
        #expect(WriterThread { write(pty, log) }.join())
        _ = await waitUntil(.seconds(5)) { log.bytes.count >= bytes.count && delegate.fixes.count >= 3 }
        manager.stopUpdatingLocation()
        #expect(log.bytes == bytes)
        return (delegate.fixes, log.reads)
    }

    @Test("Checked sentences are passed through when asked", .timeLimit(.minutes(1)))
    func forwardsSentences() async throws {
        let pty = try PseudoTerminal()
        let manager = SerialNMEAManager(path: pty.path, options: .init(baud: 115_200, reconnect: false, forwardsSentences: true))
        let delegate = await start(manager)
        let sentences = (0..<2).flatMap(SerialCapture.epoch)
        pty.write(Array((sentences.map { $0 + "\r\n" }.joined() + "$GPGGA,garbled*00\r\n").utf8))
        _ = await waitUntil(.seconds(5)) { delegate.sentences.count >= sentences.count }
        manager.stopUpdatingLocation()
        #expect(delegate.sentences == sentences, "every checked sentence, unchanged; the bad checksum dropped")
    }

    // MARK: - Autobaud

    @Test("Autobaud finds the one rate at which the writer sends NMEA, and tries it first next time",
          .timeLimit(.minutes(1)), arguments: [(57600, false), (9600, true)])
    func autobaudFindsRate(trueRate: Int, bursts: Bool) async throws {
        // A pty has no line: its termios speed changes nothing about the bytes. So the writer
        // plays the part of the line: before every 8 bytes it reads the speed the reader has
        // set on the tty (TCGETS on the master reports the slave's termios) and sends the next
        // bytes of a valid NMEA stream only when that speed is the "true" rate; otherwise the
        // same number of pseudo-random bytes (what a UART makes of a stream at the wrong rate:
        // framing garbage, with the odd '$' and CR). Either way it paces as the true rate
        // would, continuously or (`bursts`) one epoch at a time with a pause after each, as a
        // 1 Hz receiver does. It writes down each speed it sees: the hunt as the line sees it.
        // Given a port at a rate the hunt does not know
        let pty = try PseudoTerminal()
        Autobaud.forget()

        // When the manager starts without a rate
        let first = try await hunt(on: pty, trueRate: trueRate, bursts: bursts)

        // Then it settles on the true rate, having tried the rates in order up to it
        let expectedOrder = Array(Autobaud.rates.prefix { $0 <= trueRate })
        #expect(first.found == trueRate)
        #expect(Array(first.speedsSeen.prefix(expectedOrder.count)) == expectedOrder,
                "the rates in order until the true one: \(first.speedsSeen)")
        #expect(first.fixes > 0)
        #expect(first.seconds < 5, "the hunt took \(first.seconds) s")
        #expect(Autobaud.lastWorkingRate == trueRate)

        // When another run starts on the port, left at another speed
        var settings = termios()
        tcgetattr(pty.slave, &settings)
        cfsetispeed(&settings, speed_t(B230400))
        cfsetospeed(&settings, speed_t(B230400))
        tcsetattr(pty.slave, TCSANOW, &settings)
        let second = try await hunt(on: pty, trueRate: trueRate, bursts: bursts)

        // Then the last working rate is tried first, and is the only one tried
        #expect(second.found == trueRate)
        #expect(second.speedsSeen == [trueRate], "\(second.speedsSeen)")
    }

    private func hunt(on pty: PseudoTerminal, trueRate: Int, bursts: Bool) async throws
        -> (found: Int?, speedsSeen: [Int], fixes: Int, seconds: Double) {
        let epochs = (0..<40).map { SerialCapture.bytes(epochs: 1, from: $0) }
        let stop = Atomic<Bool>(false)
        let seen = Mutex<[Int]>([])
        let manager = SerialNMEAManager(path: pty.path, options: .init(baud: nil, reconnect: false))
        let delegate = await start(manager)
        let began = ContinuousClock.now
        let writer = WriterThread {
            var random = SplitMix64(seed: 42)
            for epoch in epochs {
                var offset = 0
                while offset < epoch.count {
                    if stop.load(ordering: .relaxed) { return }
                    let speed = pty.slaveSpeed ?? 0
                    seen.withLock { if $0.last != speed { $0.append(speed) } }
                    let count = min(8, epoch.count - offset)
                    if speed == trueRate {
                        pty.write(Array(epoch[offset..<offset + count]))
                    } else {
                        pty.write((0..<count).map { _ in random.nextByte() })
                    }
                    offset += count
                    pace(bytes: count, baud: trueRate)
                }
                if bursts { usleep(250_000) }
            }
        }
        _ = await waitUntil(.seconds(10)) { manager.baudRate != nil }
        let seconds = (ContinuousClock.now - began).seconds
        _ = await waitUntil(.seconds(5)) { delegate.fixes.count >= 2 }
        manager.stopUpdatingLocation()
        stop.store(true, ordering: .relaxed)
        writer.join()
        #expect(delegate.errors.isEmpty)
        return (manager.baudRate, seen.withLock { $0 }, delegate.fixes.count, seconds)
    }

    // MARK: - Unplug, replug, stale

    @Test("An unplug mid-stream is .disconnected; a replug at the same path resumes fixes within 2 s", .timeLimit(.minutes(1)))
    func unplugAndReplug() async throws {
        // Given socat joining the manager's link to a feed the writer fills with 10 epochs a second
        let dir = try TemporaryDirectory()
        let socat = SocatPair(deviceLink: dir.path + "/gps0", feedLink: dir.path + "/feed")
        try socat.start()
        let stop = Atomic<Bool>(false)
        let writer = WriterThread { feedEpochs(to: socat.feedLink, until: stop) }
        defer {
            stop.store(true, ordering: .relaxed)
            writer.join()
            socat.stop()
        }
        let manager = SerialNMEAManager(path: socat.deviceLink, options: .init(baud: 115_200))
        let delegate = await start(manager)
        #expect(await waitUntil(.seconds(5)) { delegate.fixes.count >= 3 })

        // When the device is unplugged (socat killed: its links vanish) …
        let node = try #require(DeviceKind.resolved(socat.deviceLink))
        #expect(descriptors(leadingTo: node) == 1)
        socat.stop()
        #expect(await waitUntil(.seconds(2)) { delegate.statuses.contains { if case .disconnected = $0 { true } else { false } } })
        #expect(await waitUntil(.seconds(1)) { descriptors(leadingTo: node) == 0 },
                "the gone device's node is not held open while waiting for it")
        let before = delegate.fixes.count
        try await Task.sleep(for: .milliseconds(400))
        // … and plugged in again
        try socat.start()
        let replugged = ContinuousClock.now
        let resumed = await waitUntil(.seconds(4)) { delegate.fixes.count > before + 1 }
        let took = (ContinuousClock.now - replugged).seconds
        manager.stopUpdatingLocation()

        // Then fixes came again within 2 s, without a restart, after .disconnected,
        // .reconnecting and .streaming, and nothing failed
        #expect(resumed)
        #expect(took < 2, "fixes resumed \(took) s after the replug")
        #expect(delegate.errors.isEmpty)
        let statuses = delegate.statuses
        let disconnected = try #require(statuses.firstIndex { if case .disconnected = $0 { true } else { false } })
        let reconnecting = try #require(statuses.firstIndex { if case .reconnecting = $0 { true } else { false } })
        let streaming = try #require(statuses.lastIndex(of: .streaming))
        #expect(statuses.first == .started)
        #expect(disconnected < reconnecting && reconnecting < streaming)
        let events = delegate.events
        let disconnectedEvent = try #require(events.firstIndex { if case .status(.disconnected) = $0 { true } else { false } })
        #expect(events[disconnectedEvent...].contains { $0.fix != nil }, "fixes after the disconnect")
        let seconds = delegate.fixes.compactMap(\.second)
        #expect(seconds == seconds.sorted(), "fixes in order across the replug")
    }

    @Test("A receiver that comes back as another node is found again by its by-id name", .timeLimit(.minutes(1)))
    func replugUnderAnotherNode() async throws {
        // Given a receiver at ttyUSB0 with a stable by-id name (a stand-in for
        // /dev/serial/by-id: the real one is the machine's, not the test's)
        let dir = try TemporaryDirectory()
        let byID = try dir.makeDirectory("by-id")
        let stable = byID + "/usb-u-blox_AG_GNSS_receiver-if00"
        let before = SocatPair(deviceLink: dir.path + "/ttyUSB0", feedLink: dir.path + "/feed")
        let after = SocatPair(deviceLink: dir.path + "/ttyUSB1", feedLink: dir.path + "/feed")
        try before.start()
        #expect(symlink(before.deviceLink, stable) == 0)
        let stop = Atomic<Bool>(false)
        let writer = WriterThread { feedEpochs(to: dir.path + "/feed", until: stop) }
        defer {
            stop.store(true, ordering: .relaxed)
            writer.join()
            before.stop()
            after.stop()
        }
        let manager = SerialNMEAManager(path: before.deviceLink, options: .init(baud: 115_200), stableLinkDirectory: byID)
        let delegate = await start(manager)
        #expect(await waitUntil(.seconds(5)) { delegate.fixes.count >= 2 })

        // When it is unplugged and comes back as ttyUSB1, its by-id link now leading there
        before.stop()
        #expect(await waitUntil(.seconds(2)) { delegate.statuses.contains { if case .disconnected = $0 { true } else { false } } })
        let count = delegate.fixes.count
        unlink(stable)
        try after.start()
        #expect(symlink(after.deviceLink, stable) == 0)

        // Then fixes resume without a restart
        #expect(await waitUntil(.seconds(3)) { delegate.fixes.count > count + 1 })
        manager.stopUpdatingLocation()
        #expect(delegate.errors.isEmpty)
        #expect(access(before.deviceLink, F_OK) != 0, "the old node is really gone")
    }

    @Test("Without reconnect, an unplug is .disconnected then .deviceGone", .timeLimit(.minutes(1)))
    func unplugWithoutReconnect() async throws {
        let dir = try TemporaryDirectory()
        let socat = SocatPair(deviceLink: dir.path + "/gps0", feedLink: dir.path + "/feed")
        try socat.start()
        defer { socat.stop() }
        let manager = SerialNMEAManager(path: socat.deviceLink, options: .init(baud: 9600, reconnect: false))
        let delegate = await start(manager)
        #expect(delegate.statuses == [.started])

        socat.stop()

        #expect(await waitUntil(.seconds(3)) { !delegate.errors.isEmpty })
        #expect(delegate.errors == [.deviceGone(path: socat.deviceLink)])
        #expect(delegate.statuses.count == 2)
        if case .disconnected? = delegate.statuses.last {} else { Issue.record("\(delegate.statuses)") }
    }

    @Test("A port that goes quiet is .stale once; data brings .streaming; quiet again is .stale again", .timeLimit(.minutes(1)))
    func staleDetection() async throws {
        // Given a port opened with a 0.3 s limit, silent at first, its stale timer on a clock
        // that moves only when the test advances it (steps of a power of two: exact sums)
        let pty = try PseudoTerminal()
        let clock = VirtualClock()
        let manager = SerialNMEAManager(path: pty.path, options: .init(baud: 9600, staleAfter: .milliseconds(250), reconnect: false),
                                        stableLinkDirectory: DeviceKind.stableLinkDirectory, clock: clock)
        let delegate = await start(manager)
        #expect(delegate.statuses == [.started])

        // When less than the limit passes, nothing is said; at the limit, .stale
        clock.advance(by: .milliseconds(125))
        try await Task.sleep(for: .milliseconds(30))
        #expect(delegate.statuses == [.started], "stale before its time")
        clock.advance(by: .milliseconds(125))
        #expect(await waitUntil(.seconds(3)) { delegate.statuses.count >= 2 })
        // Quiet for long after: stale is said once
        clock.advance(by: .seconds(4))
        try await Task.sleep(for: .milliseconds(30))
        #expect(delegate.statuses.count == 2, "stale is said once: \(delegate.statuses)")
        // Then two epochs, then quiet again
        pty.write(SerialCapture.bytes(epochs: 2))
        #expect(await waitUntil(.seconds(3)) { delegate.statuses.count >= 3 && delegate.fixes.count >= 2 })
        clock.advance(by: .milliseconds(250))
        #expect(await waitUntil(.seconds(3)) { delegate.statuses.count >= 4 })
        manager.stopUpdatingLocation()

        // Then: stale after exactly the limit, each time
        #expect(delegate.statuses == [.started, .stale(after: .milliseconds(250)), .streaming, .stale(after: .milliseconds(250))])
        #expect(!delegate.fixes.isEmpty)
    }

    @Test("Reception counts the bytes and the sentences since the port was opened, at the rate in use", .timeLimit(.minutes(1)))
    func receptionCounts() async throws {
        // Given a port opened at 9600 baud
        let pty = try PseudoTerminal()
        let manager = SerialNMEAManager(path: pty.path, options: .init(baud: 9600))
        _ = await start(manager)
        defer { manager.stopUpdatingLocation() }
        #expect(manager.reception == Reception(source: pty.path, bytes: 0, sentences: 0, baud: 9600))

        // When bytes that are not NMEA arrive
        var random = SplitMix64(seed: 9)
        let noise = (0..<200).map { _ in random.nextByte() }.filter { $0 != UInt8(ascii: "$") && $0 != UInt8(ascii: "!") } + Array("\r\n".utf8)
        pty.write(noise)
        #expect(await waitUntil(.seconds(3)) { manager.reception?.bytes == noise.count })

        // Then they are counted, and no sentence
        #expect(manager.reception?.sentences == 0)

        // When two epochs of NMEA follow
        let epochs = SerialCapture.bytes(epochs: 2)
        pty.write(epochs)

        // Then their bytes and their ten sentences are counted too
        #expect(await waitUntil(.seconds(3)) { manager.reception?.bytes == noise.count + epochs.count })
        #expect(manager.reception == Reception(source: pty.path, bytes: noise.count + epochs.count, sentences: 10, baud: 9600))
    }

    // MARK: - Busy, missing, stop

    @Test("A port another process holds (TIOCEXCL) is refused with .deviceBusy naming it; the mode it leaves when killed is not", .timeLimit(.minutes(1)))
    func heldPortIsBusy() async throws {
        // Given a tty another process holds exclusively, as gpsd does (socat, setting TIOCEXCL)
        let pty = try PseudoTerminal()
        let holder = try spawnQuietly([SocatPair.executable, "-u", "OPEN:\(pty.path),ioctl-void=0x540C", "OPEN:/dev/null"])
        var holderAlive = true
        defer { if holderAlive { kill(holder, SIGKILL); waitpid(holder, nil, 0) } }
        try #require(await waitUntil(.seconds(5)) { pty.isExclusive })

        // When the manager starts on it
        let refused = await start(SerialNMEAManager(path: pty.path, options: .init(baud: 9600)))

        // Then it fails at once with .deviceBusy, whose message names the holder (the CLI
        // adds what to do with its options)
        #expect(refused.errors == [.deviceBusy(path: pty.path, holder: PortHolder(pid: holder, name: "socat"))])
        #expect(refused.statuses.isEmpty)
        #expect(refused.errors.first?.description == "\(pty.path) is being read by socat (PID \(holder)).")

        // When the holder is killed, which leaves the mode set with nobody holding the port
        kill(holder, SIGKILL)
        waitpid(holder, nil, 0)
        holderAlive = false
        #expect(pty.isExclusive, "on a pty the mode outlives its holder")
        let manager = SerialNMEAManager(path: pty.path, options: .init(baud: 9600))
        let taken = await start(manager)
        manager.stopUpdatingLocation()

        // Then the port is not busy: the manager opens it, and clears the mode when it lets go
        #expect(taken.statuses == [.started])
        #expect(taken.errors.isEmpty)
        #expect(await waitUntil(.seconds(2)) { !pty.isExclusive })
    }

    @Test("A second manager on a port the first holds is refused; once the first stops the port is free", .timeLimit(.minutes(1)))
    func secondManagerIsBusy() async throws {
        let pty = try PseudoTerminal()
        let first = SerialNMEAManager(path: pty.path, options: .init(baud: 9600))
        let firstDelegate = await start(first)
        #expect(firstDelegate.statuses == [.started])

        let second = await start(SerialNMEAManager(path: pty.path, options: .init(baud: 9600)))
        #expect(second.errors.count == 1)
        guard case .deviceBusy(pty.path, let holder?)? = second.errors.first else {
            Issue.record("not refused as busy: \(second.errors)")
            return
        }
        #expect(holder.pid == getpid(), "this process holds it already")

        first.stopUpdatingLocation()
        #expect(await waitUntil(.seconds(2)) { !pty.isExclusive })
        let third = SerialNMEAManager(path: pty.path, options: .init(baud: 9600))
        let thirdDelegate = await start(third)
        third.stopUpdatingLocation()
        #expect(thirdDelegate.statuses == [.started])
        #expect(thirdDelegate.errors.isEmpty)
    }

    @Test("A missing device, a file that is no tty, and a rate termios cannot set fail at start", .timeLimit(.minutes(1)))
    func failuresAtStart() async throws {
        let dir = try TemporaryDirectory()
        let missing = dir.path + "/ttyUSB9"
        let missingDelegate = await start(SerialNMEAManager(path: missing))
        #expect(missingDelegate.errors == [.deviceNotFound(searched: [missing])])

        let file = try dir.write("notatty", "$GPGGA\r\n")
        let fileDelegate = await start(SerialNMEAManager(path: file))
        #expect(fileDelegate.errors.count == 1)
        #expect(fileDelegate.errors.first?.description.contains("not a serial port") == true)

        let pty = try PseudoTerminal()
        let oddDelegate = await start(SerialNMEAManager(path: pty.path, options: .init(baud: 12345)))
        #expect(oddDelegate.errors.count == 1)
        #expect(oddDelegate.errors.first?.description.contains("12345") == true)
        #expect(!pty.isExclusive, "a port that failed its setup is released")
    }

    @Test("A start made from inside the failure report begins a new run (the failed one is released first)", .timeLimit(.minutes(1)))
    func restartFromFailureReport() async throws {
        // Given a manager on a device that is not there, and a delegate that starts it again
        // when told of the failure
        let dir = try TemporaryDirectory()
        let manager = SerialNMEAManager(path: dir.path + "/ttyUSB9")
        let delegate = RestartingOnFailure()
        manager.delegate = delegate

        // When it starts
        manager.startUpdatingLocation()
        defer { manager.stopUpdatingLocation() }

        // Then the second start ran too, and failed in its turn
        #expect(await waitUntil(.seconds(3)) { delegate.errors.count == 2 }, "\(delegate.errors)")
        #expect(delegate.errors.allSatisfy { $0 == .deviceNotFound(searched: [dir.path + "/ttyUSB9"]) })
    }

    @Test("stopUpdatingLocation wakes the reader at once; nothing is reported after it", .timeLimit(.minutes(1)))
    func stopIsPrompt() async throws {
        let pty = try PseudoTerminal()
        let manager = SerialNMEAManager(path: pty.path, options: .init(baud: 115_200, staleAfter: .seconds(60)))
        let delegate = await start(manager)
        #expect(pty.isExclusive)

        let stopped = ContinuousClock.now
        manager.stopUpdatingLocation()
        #expect(await waitUntil(.seconds(2)) { !pty.isExclusive })
        #expect((ContinuousClock.now - stopped).seconds < 0.5, "the reader was blocked in poll and must wake at once")

        let count = delegate.events.count
        pty.write(SerialCapture.bytes(epochs: 3))
        try await Task.sleep(for: .milliseconds(200))
        #expect(delegate.events.count == count)
    }

    @Test("A start right after a stop finds the port free (the stopped reader has let it go)", .timeLimit(.minutes(1)))
    func restartAtOnce() async throws {
        let pty = try PseudoTerminal()
        let manager = SerialNMEAManager(path: pty.path, options: .init(baud: 9600))
        let first = await start(manager)
        #expect(first.statuses == [.started])
        for _ in 0..<50 {
            manager.stopUpdatingLocation()
            let again = await start(manager)
            #expect(again.statuses == [.started])
            #expect(again.errors.isEmpty)
        }
        manager.stopUpdatingLocation()
    }
}

/// Writes one epoch every 100 ms (seconds 0, 1, 2 … of the capture) to the pty at `path`, until
/// `stop`; when the pty vanishes (socat killed), waits for it to come back and carries on.
private func feedEpochs(to path: String, until stop: borrowing Atomic<Bool>) {
    var second = 0
    var fd: Int32 = -1
    while !stop.load(ordering: .relaxed) {
        if fd < 0 {
            fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
            if fd < 0 { usleep(10_000); continue }
        }
        if writeAll(fd, SerialCapture.bytes(epochs: 1, from: second % 3600)) {
            second += 1
        } else {
            close(fd)
            fd = -1
        }
        usleep(100_000)
    }
    if fd >= 0 { close(fd) }
}

/// How many of this process's descriptors are open on `node`, even once the node is deleted
/// (from the links in /proc/self/fd, which then read "NODE (deleted)").
private func descriptors(leadingTo node: String) -> Int {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return entries.filter { entry in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + entry) else { return false }
        return target == node || target == node + " (deleted)"
    }.count
}
