import NMEA
import GPSSystem
import GPSLocation

/// The one reader of every byte-stream source (serial, replay, a network stream): the run's
/// whole life from open to end. It waits in `poll` on the stream beside the run's wake-up
/// pipe (never spinning: the timeout is the next thing due without input, the stale report or
/// the end of a trial's window), feeds the engine, keeps the counts, tells the delegate, and
/// carries out what the source's `StreamOpener` says happens at the end: finish, read again,
/// reconnect, or fail.
package final class StreamReader {
    package struct Settings: Sendable {
        /// How much is read at a time.
        package var bufferSize = 4096
        /// Seconds without a byte before the stream is reported `.stale`; nil never.
        package var staleAfter: Double?
        /// Whether the stream is a link whose state people follow (`.started`, `.streaming`,
        /// `.stale`, `.disconnected`): a receiver's, not a capture's.
        package var announcesLink = true
        package var forwardsSentences = false
        package var acceptsSimulatedFixes = false
        /// Whether each fix is stamped with the system time its epoch's first byte was read
        /// (`Fix.arrival`): for a live stream only, whose reading time says when the receiver
        /// spoke; a replay's says nothing.
        package var stampsArrival = false
        /// Reports paced by their timestamps (a replay), or as fast as they come.
        package var speed: ReplayManager.Speed = .maximum
        /// What pacing and the stale timer go by: the monotonic clock, or a test's `VirtualClock`.
        var clock: any WaitClock = MonotonicClock()
        /// Every byte exactly as read, in order (`gpsfix record`); bytes read at a setting on
        /// trial only once it proves right.
        package var onBytes: (@Sendable (UnsafeRawBufferPointer) -> Void)?

        package init() {}
    }

    private let opener: any StreamOpener
    private let reporter: RunReporter
    private let settings: Settings
    private let counted: StatisticsSnapshot
    private let received: ReceptionCount
    private var run: SourceRuns.Run { reporter.run }

    package init(opener: any StreamOpener, reporter: RunReporter, settings: Settings, counted: StatisticsSnapshot,
         received: ReceptionCount) {
        self.opener = opener
        self.reporter = reporter
        self.settings = settings
        self.counted = counted
        self.received = received
    }

    /// How one stream's reading ended.
    private enum PassEnd {
        case stopped
        case ended(reason: String?, Statistics)
        case failed(LocationError)
    }

    package func main() {
        guard let wakeup = run.wakeup else {
            return reporter.fail(.io("\(reporter.manager.sourceDescription): cannot make a pipe to wake the reader (out of file descriptors?)"))
        }
        var stream: (any ByteStream)?
        do {
            stream = try opener.open()
        } catch {
            guard let waiting = opener.waitsToOpen else { return reporter.fail(error) }
            reporter.status(.waiting(reason: error.description))
            do throws(LocationError) {
                // A failure the opener says waiting cannot mend (the port appeared, and
                // another process reads it) ends the wait as it would have ended the start.
                stream = try waiting.wait(in: run, reporting: nil) { () throws(LocationError) -> (any ByteStream)? in
                    do throws(LocationError) { return try opener.open() } catch {
                        if opener.waitsToOpen == nil { throw error }
                        return nil
                    }
                }
            } catch {
                return reporter.fail(error)
            }
            if stream == nil { return }
        }
        // Quiet time counts from the open, not from whenever this thread gets to its first
        // poll after telling `.started` (a test's clock may move in between).
        var openedAt = settings.clock.now
        if settings.announcesLink { reporter.status(.started) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(settings.bufferSize, 1), alignment: 16)
        defer { buffer.deallocate() }
        var passes = 0
        var afterGap = false
        while stream != nil {
            passes += 1
            // `take()`: no reference is left behind here, so the stream is closed as soon as
            // its reading ends. An unplugged device held open while it is away cannot get its
            // node (ttyUSB0) back when it returns.
            switch readToEnd(stream.take()!, buffer: buffer, wakeup: wakeup, afterGap: afterGap, passes: passes, openedAt: openedAt) {
            case .stopped:
                return
            case .failed(let error):
                return reporter.fail(error)
            case .finished(let statistics):
                return reporter.finish(statistics)
            case .again(let again):
                if run.isStopped { return }
                stream = again
                openedAt = settings.clock.now
                afterGap = false
            case .reconnect(let reconnection):
                do throws(LocationError) {
                    stream = try reconnection.wait(in: run, reporting: reporter) { () throws(LocationError) in try opener.reopen() }
                } catch {
                    return reporter.fail(error)
                }
                openedAt = settings.clock.now
                afterGap = true
            }
        }
    }

    /// What the run does next, once a stream is done with.
    private enum Next {
        case stopped
        case failed(LocationError)
        case finished(Statistics)
        case again(any ByteStream)
        case reconnect(Reconnection)
    }

    /// Reads `stream` to its end and asks its opener what follows.
    private func readToEnd(_ stream: any ByteStream, buffer: UnsafeMutableRawBufferPointer, wakeup: Wakeup,
                           afterGap: Bool, passes: Int, openedAt: Double) -> Next {
        switch pass(stream, buffer: buffer, wakeup: wakeup, afterGap: afterGap, openedAt: openedAt) {
        case .stopped:
            return .stopped
        case .failed(let error):
            return .failed(error)
        case .ended(let reason, let statistics):
            if let reason, settings.announcesLink { reporter.status(.disconnected(reason: reason)) }
            switch opener.afterEnd(of: stream, reason: reason, passes: passes, statistics: statistics) {
            case .finish: return .finished(statistics)
            case .fail(let error): return .failed(error)
            case .again(let again): return .again(again)
            case .reconnect(let reconnection): return .reconnect(reconnection)
            }
        }
    }

    /// Reads `stream` until it ends, fails, or the run is stopped.
    private func pass(_ stream: any ByteStream, buffer: UnsafeMutableRawBufferPointer, wakeup: Wakeup,
                      afterGap: Bool, openedAt: Double) -> PassEnd {
        var feed = StreamFeed(settings: settings, reporter: reporter, wakeup: wakeup, onTrial: stream.trial != nil)
        received.begin(source: stream.name, baud: stream.baud)
        let clock = settings.clock
        var lastByte = openedAt
        var stale = false
        var quiet = afterGap
        let staleAfter = settings.staleAfter.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        // Refilled each round in place: nothing is allocated per read.
        var fds = PollSet()

        while true {
            if run.isStopped { return .stopped }
            let read: StreamRead
            if let descriptor = stream.descriptor {
                // The next thing due without input, if any.
                var deadline: Double? = nil
                if let staleAfter, !stale { deadline = lastByte + staleAfter }
                if let due = stream.trial?.deadline { deadline = min(deadline ?? due, due) }
                fds.removeAll()
                fds.append(descriptor, for: .readable)
                fds.append(wakeup.descriptor, for: .readable)
                do {
                    if let deadline {
                        try fds.wait(seconds: clock.pollSeconds(until: deadline))
                    } else {
                        try fds.wait(timeout: nil)
                    }
                } catch {
                    return .failed(.io("\(stream.name): poll failed (\(error))"))
                }
                if !fds.ready(at: 1).isEmpty || run.isStopped { return .stopped }
                let events = fds.ready(at: 0)
                if events.isEmpty {
                    read = .nothing
                } else {
                    // Readable, hung up or in error: the read says which (data still buffered
                    // at a hang-up is read first).
                    let once = stream.read(into: buffer)
                    if case .nothing = once, !events.isDisjoint(with: [.hangUp, .error, .invalid]) {
                        read = .end(reason: "hung up")
                    } else {
                        read = once
                    }
                }
            } else {
                read = stream.read(into: buffer)
            }

            switch read {
            case .bytes(let chunk):
                lastByte = clock.now
                if stale || quiet {
                    stale = false
                    quiet = false
                    if settings.announcesLink { reporter.status(.streaming) }
                }
                let trial = stream.trial
                trial?.heard(at: lastByte)
                if feed.take(chunk, counted: counted) {
                    trial?.settle()
                    if let baud = stream.baud { received.settle(baud: baud) }
                }
                received.add(bytes: chunk.count, sentences: feed.accepted)
            case .nothing:
                break
            case .end(let reason):
                if run.isStopped { return .stopped }
                feed.finish(counted: counted)
                return run.isStopped ? .stopped : .ended(reason: reason, feed.statistics)
            case .failed(let error):
                feed.finish(counted: counted)
                return run.isStopped ? .stopped : .failed(error)
            }

            // What is due now.
            let time = clock.now
            if let staleAfter, !stale, time - lastByte >= staleAfter {
                stale = true
                if settings.announcesLink { reporter.status(.stale(after: .seconds(time - lastByte))) }
            }
            if let trial = stream.trial, let due = trial.deadline, time >= due {
                switch trial.next() {
                case .trying:
                    feed = StreamFeed(settings: settings, reporter: reporter, wakeup: wakeup, onTrial: true)
                case .exhausted(let error):
                    return .failed(error)
                case .lost(let reason):
                    return .ended(reason: reason, feed.statistics)
                }
            }
        }
    }
}
