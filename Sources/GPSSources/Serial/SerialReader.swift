import NMEA
import GPSSystem
import Glibc
import GPSLocation

/// The reader thread's whole life for one run: open, read, report; on an unplug, wait for the
/// device to come back; until stopped or failed.
///
/// It blocks in `poll` on the port and the run's wake-up pipe, never spinning: the timeout is
/// the next thing that must happen without input (the stale report, the end of a rate's
/// window in a baud hunt), or none.
final class SerialReader {
    private let manager: SerialNMEAManager
    private let run: SerialNMEAManager.Run
    /// Where every byte read goes as well (`gpsfix record`), if anywhere.
    private let onBytes: (@Sendable (UnsafeRawBufferPointer) -> Void)?
    private let path: String
    private let options: SerialNMEAManager.Options
    /// Where reads land; one allocation for the run.
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)

    /// Back-off between reopening attempts after an unplug: from the first to the last,
    /// doubling.
    static let firstRetry = 0.05
    static let longestRetry = 1.0

    init(manager: SerialNMEAManager, run: SerialNMEAManager.Run, onBytes: (@Sendable (UnsafeRawBufferPointer) -> Void)?) {
        self.manager = manager
        self.run = run
        self.onBytes = onBytes
        path = manager.path
        options = manager.options
    }

    deinit { buffer.deallocate() }

    /// How one stretch of reading ended.
    private enum End {
        case stopped
        case gone(reason: String)
        case failed(LocationError)
    }

    func main() {
        guard let wakeup = run.wakeup else {
            return fail(.io("\(path): cannot make a pipe to wake the reader (out of file descriptors?)"))
        }
        var port: SerialPort?
        var hunt: BaudHunt?
        do {
            (port, hunt) = try openConfigured(path)
        } catch {
            return fail(error)
        }
        // The device's stable names, found while it is here: after an unplug it may come
        // back as another node (ttyUSB1 for ttyUSB0), under the same by-id name.
        let stableLinks = DeviceKind.stableLinks(to: path, in: manager.stableLinkDirectory)
        notify { $0.locationManager(manager, didChangeStatus: .started) }
        var afterGap = false
        while port != nil {
            // `take()` leaves no reference behind: the port is closed as soon as reading
            // ends. An unplugged device must not be held open while it is away, or the
            // kernel cannot give its node (ttyUSB0) back to it when it returns.
            let end = read(port.take()!, hunt: hunt, wakeup: wakeup, afterGap: afterGap)
            switch end {
            case .stopped:
                return
            case .failed(let error):
                return fail(error)
            case .gone(let reason):
                notify { $0.locationManager(manager, didChangeStatus: .disconnected(reason: reason)) }
                guard options.reconnect else { return fail(.deviceGone(path: path)) }
                guard let again = reopen([path] + stableLinks, wakeup: wakeup) else { return }
                (port, hunt) = again
                afterGap = true
            }
        }
    }

    // MARK: - Opening

    /// Opens and configures the port: the given rate, or the first rate to try in a hunt, or
    /// (CDC-ACM) none.
    private func openConfigured(_ path: String) throws(LocationError) -> (port: SerialPort, hunt: BaudHunt?) {
        let port = try SerialPort.open(path)
        if let baud = options.baud {
            try port.setSpeed(baud)
            manager.settled(on: baud)
            return (port, nil)
        }
        if DeviceKind.isCDCACM(path) { return (port, nil) }
        let hunt = BaudHunt(preferring: Autobaud.lastWorkingRate)
        try port.setSpeed(hunt.rate)
        return (port, hunt)
    }

    /// Waits for an unplugged device to come back at one of `paths` (tried in order), with
    /// bounded back-off; nil when stopped first. Every failure to open counts as "not back
    /// yet": the node may be missing, still owned by root until udev has set its mode, or
    /// probed by ModemManager for a moment.
    private func reopen(_ paths: [String], wakeup: Wakeup) -> (port: SerialPort, hunt: BaudHunt?)? {
        var delay = Self.firstRetry
        var attempt = 0
        while true {
            if sleep(delay, wakeup: wakeup) { return nil }
            attempt += 1
            notify { $0.locationManager(manager, didChangeStatus: .reconnecting(attempt: attempt)) }
            for path in paths {
                if let opened = try? openConfigured(path) { return opened }
            }
            delay = min(delay * 2, Self.longestRetry)
        }
    }

    /// Sleeps `seconds` or until woken; true when woken (stopped).
    private func sleep(_ seconds: Double, wakeup: Wakeup) -> Bool {
        if run.isStopped { return true }
        var fds = [pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)]
        let deadline = now() + seconds
        while true {
            let left = deadline - now()
            if left <= 0 { return run.isStopped }
            let woke = (try? retryingInterrupts { poll(&fds, 1, milliseconds(left)) }) ?? 0
            if woke > 0 || run.isStopped { return true }
        }
    }

    // MARK: - Reading

    /// Reads the open port until it goes away, the run is stopped, or a hunt gives up.
    private func read(_ port: SerialPort, hunt: BaudHunt?, wakeup: Wakeup, afterGap: Bool) -> End {
        var hunt = hunt
        let watch = SentenceWatch(hunting: hunt != nil)
        var parser = makeParser(watch)
        manager.received.begin(source: port.path, baud: hunt == nil ? options.baud : nil)
        /// Bytes read at a rate on trial, passed on once the rate proves right.
        var held: [UInt8] = []
        var lastByte = now()
        var stale = false
        var quiet = afterGap
        var emptyReads = 0
        let staleAfter = options.staleAfter > 0 && options.staleAfter.isFinite ? options.staleAfter : nil
        var fds = [
            pollfd(fd: port.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        let emit: (EngineEvent) -> Void = { [manager] event in
            switch event {
            case .fix(let fix): self.notify { $0.locationManager(manager, didUpdateFix: fix) }
            case .sky(let sky): self.notify { $0.locationManager(manager, didUpdateSkyView: sky) }
            }
        }

        while true {
            if run.isStopped { return .stopped }
            // The next thing due without input, if any.
            var deadline: Double? = nil
            if let staleAfter, !stale { deadline = lastByte + staleAfter }
            if let due = hunt?.deadline { deadline = min(deadline ?? due, due) }
            let timeout = deadline.map { milliseconds($0 - now()) } ?? -1
            fds[0].revents = 0
            fds[1].revents = 0
            do {
                _ = try retryingInterrupts { poll(&fds, 2, timeout) }
            } catch {
                return .failed(.io("\(port.path): poll failed (\(error))"))
            }
            if fds[1].revents != 0 || run.isStopped { return .stopped }

            let events = Int32(fds[0].revents)
            if events & Int32(POLLIN) != 0 {
                switch port.read(into: buffer) {
                case .bytes(let count):
                    emptyReads = 0
                    lastByte = now()
                    if stale || quiet {
                        stale = false
                        quiet = false
                        notify { $0.locationManager(manager, didChangeStatus: .streaming) }
                    }
                    let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                    if var trial = hunt {
                        trial.heard(at: lastByte)
                        hunt = trial
                        held.append(contentsOf: chunk)
                        parser.parse(chunk, emit: emit)
                        manager.counted.update(from: parser)
                        manager.received.add(bytes: count, sentences: watch.accepted)
                        if watch.checked > 0 {
                            // Settled: this rate yields sentences that check.
                            Autobaud.remember(trial.rate)
                            manager.settled(on: trial.rate)
                            manager.received.settle(baud: trial.rate)
                            hunt = nil
                            watch.hunting = false
                            held.withUnsafeBytes { onBytes?($0) }
                            held = []
                        }
                    } else {
                        onBytes?(chunk)
                        parser.parse(chunk, emit: emit)
                        manager.counted.update(from: parser)
                        manager.received.add(bytes: count, sentences: watch.accepted)
                    }
                case .nothing:
                    break
                case .end:
                    // On a tty, 0 bytes after POLLIN means hung up; POLLHUP says so too.
                    emptyReads += 1
                    if events & Int32(POLLHUP) != 0 || emptyReads >= 2 {
                        return gone(parser, hunting: hunt != nil, emit: emit, reason: "\(port.path) hung up")
                    }
                case .failed(let error):
                    // EIO, ENODEV: the device went away under the descriptor.
                    return gone(parser, hunting: hunt != nil, emit: emit, reason: "\(port.path): \(error)")
                }
            } else if events & Int32(POLLHUP | POLLERR | POLLNVAL) != 0 {
                return gone(parser, hunting: hunt != nil, emit: emit, reason: "\(port.path) hung up")
            }

            // What is due now.
            let time = now()
            if let staleAfter, !stale, time - lastByte >= staleAfter {
                stale = true
                let seconds = time - lastByte
                notify { $0.locationManager(manager, didChangeStatus: .stale(seconds: seconds)) }
            }
            if var trial = hunt, let due = trial.deadline, time >= due {
                guard trial.advance() else {
                    return .failed(.io("\(port.path): bytes arrive, but no NMEA sentence at \(Autobaud.rates.map(String.init).joined(separator: ", ")) baud. Is the receiver set to a binary protocol? Name its rate with --baud."))
                }
                hunt = trial
                do {
                    try port.setSpeed(trial.rate)
                } catch {
                    // The settings a moment ago were fine: the device went away.
                    return .gone(reason: error.description)
                }
                held = []
                parser = makeParser(watch)
            }
        }
    }

    /// A hang-up: the epoch in progress is reported (it is all there will be of it).
    private func gone(_ parser: NMEAParser, hunting: Bool, emit: (EngineEvent) -> Void, reason: String) -> End {
        if !hunting { parser.finish(emit: emit) }
        return .gone(reason: reason)
    }

    /// A fresh engine for a fresh stream (a new rate, a replugged device).
    private func makeParser(_ watch: SentenceWatch) -> NMEAParser {
        let parser = NMEAParser(acceptsSimulatedFixes: options.acceptsSimulatedFixes)
        let forwards = options.forwardsSentences
        parser.onSentence = { [manager] sentence, _ in
            if sentence.hasChecksum { watch.checked += 1 }
            if sentence.hasChecksum || !watch.hunting { watch.accepted += 1 }
            // While hunting, only a checksum vouches for a sentence: a line of noise can
            // look like a sentence without one.
            guard forwards, !watch.hunting || sentence.hasChecksum else { return }
            // The line exactly as received: passthrough repeats the receiver, byte for byte.
            let text = String(decoding: sentence.line, as: UTF8.self)
            self.notify { $0.locationManager(manager, didReceiveSentence: text) }
        }
        return parser
    }

    // MARK: - Reporting

    /// Calls the delegate, unless the run has been stopped (after a stop, nothing more).
    private func notify(_ call: (any LocationManagerDelegate) -> Void) {
        guard !run.isStopped, let delegate = manager.relay.delegate else { return }
        call(delegate)
    }

    private func fail(_ error: LocationError) {
        manager.runs.release(run)
        notify { $0.locationManager(manager, didFailWithError: error) }
    }
}

/// What the engine's sentence hook saw, for the reader (one thread only).
final class SentenceWatch {
    /// Sentences with a checksum that matched.
    var checked = 0
    /// Sentences taken for NMEA: those that `checked` counts, and once the rate is settled,
    /// those without a checksum too. Across every rate tried.
    var accepted = 0
    /// Whether the rate is still being hunted for.
    var hunting: Bool

    init(hunting: Bool) { self.hunting = hunting }
}

/// Seconds on the monotonic clock.
func now() -> Double { Clocks.monotonicSeconds }

/// A poll timeout for `seconds` from now (see `Clocks.pollTimeout`).
func milliseconds(_ seconds: Double) -> Int32 { Clocks.pollTimeout(seconds) }
