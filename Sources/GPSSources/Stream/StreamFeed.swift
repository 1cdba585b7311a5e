import NMEA
import GPSSystem
import GPSLocation

/// One pass of a stream through the engine: framing, decoding, epochs, the sentence hook,
/// pacing, and the bytes held back while a setting is on trial. Fresh for every stream opened
/// and every setting tried, so nothing of a wrong rate or a lost stream leaks into the next.
/// Used by its reader's thread only.
final class StreamFeed {
    private let parser: NMEAParser
    private let settings: StreamReader.Settings
    private let reporter: RunReporter
    private let wakeup: Wakeup
    /// Sentences whose checksum matched, counted while a setting is on trial.
    private var checked = 0
    /// Whether a setting is on trial: only a checksum vouches for a sentence then (a line of
    /// noise can look like one without), and bytes are held back.
    private(set) var onTrial: Bool
    private var held: [UInt8] = []
    private var pacer: Pacer
    private let paced: Bool
    /// Whether a report went out since the counts were last copied (paced feeding).
    private var reported = false
    /// The delegate for the chunk being fed: looked up once a chunk, not once a report (it is
    /// held weakly, behind a lock), and let go between chunks.
    private var delegate: (any LocationManagerDelegate)?
    /// When the chunk being fed was read, and when the first chunk since the last report was:
    /// a receiver sends an epoch as a burst after a quiet gap, so that chunk holds the epoch's
    /// first byte, read as soon as it came (give or take the wake-up's latency). Kept only
    /// when the settings stamp arrivals.
    private var chunkRead = 0.0
    private var epochBegan: Double?
    /// The epoch last stamped, so that one reported again with more keeps its first arrival.
    private var lastStamp: (time: FixTime, arrival: Double)?

    init(settings: StreamReader.Settings, reporter: RunReporter, wakeup: Wakeup, onTrial: Bool) {
        self.settings = settings
        self.reporter = reporter
        self.wakeup = wakeup
        self.onTrial = onTrial
        pacer = Pacer(speed: settings.speed)
        if case .maximum = settings.speed { paced = false } else { paced = true }
        parser = NMEAParser(acceptsSimulatedFixes: settings.acceptsSimulatedFixes)
        // The hook costs a call per sentence: set only when sentences are wanted or counted.
        if settings.forwardsSentences || onTrial { parser.onSentence = { [unowned self] sentence, _ in saw(sentence) } }
    }

    var statistics: Statistics { parser.statistics }

    /// Sentences taken for NMEA: while on trial, those with a checksum that matched; after,
    /// every sentence the engine accepted.
    var accepted: Int { onTrial ? checked : parser.counts.byKind.reduce(0, +) }

    /// Feeds `chunk`. True when, on trial, sentences now check: the setting is right, and
    /// what was held is passed on.
    func take(_ chunk: UnsafeRawBufferPointer, counted: StatisticsSnapshot) -> Bool {
        if onTrial {
            held.append(contentsOf: chunk)
        } else {
            settings.onBytes?(chunk)
        }
        if settings.stampsArrival {
            chunkRead = Clocks.wallSeconds
            if epochBegan == nil { epochBegan = chunkRead }
        }
        delegate = reporter.relay.delegate
        defer { delegate = nil }
        if paced {
            feedLines(chunk, counted: counted)
        } else {
            // Unpaced: the whole chunk at once, the engine's best case.
            parser.parse(chunk, emit: emit)
            counted.update(from: parser)
        }
        guard onTrial, checked > 0 else { return false }
        onTrial = false
        if !settings.forwardsSentences { parser.onSentence = nil }
        held.withUnsafeBytes { settings.onBytes?($0) }
        held = []
        return true
    }

    /// The stream ended: the epoch in progress is all there will be of it (nothing of a
    /// setting on trial is).
    func finish(counted: StatisticsSnapshot) {
        guard !onTrial else { return }
        delegate = reporter.relay.delegate
        defer { delegate = nil }
        parser.finish(emit: emit)
        counted.update(from: parser)
    }

    private func saw(_ sentence: Sentence) {
        if sentence.hasChecksum { checked += 1 }
        guard settings.forwardsSentences, !onTrial || sentence.hasChecksum, let delegate, !reporter.run.isStopped else { return }
        // The line exactly as received: passthrough repeats the receiver, byte for byte.
        delegate.locationManager(reporter.manager, didReceiveSentence: String(decoding: sentence.line, as: UTF8.self))
    }

    /// Paced: a line at a time, so the pause falls between the sentences it belongs between.
    /// A line cut by the chunk's end is fed in two parts; the engine keeps the first until the
    /// second comes. The counts are copied once an epoch.
    private func feedLines(_ bytes: UnsafeRawBufferPointer, counted: StatisticsSnapshot) {
        var offset = 0
        while offset < bytes.count, !reporter.run.isStopped {
            var end = offset
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            end = min(end + 1, bytes.count)
            parser.parse(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), emit: emit)
            if reported {
                counted.update(from: parser)
                reported = false
            }
            offset = end
        }
    }

    /// When `fix`'s epoch began to arrive. Until the engine has learned which sentence ends
    /// an epoch, it reports one when the next begins, and that next epoch is then stamped
    /// from the chunk after (late by the gap between two reads of one burst); once learned,
    /// each report ends its burst.
    private func arrival(of fix: Fix) -> Double {
        defer { epochBegan = nil }
        // The same epoch again, with what came after the sentence taken for its end: its
        // first byte was read with the first report's.
        if let last = lastStamp, last.time == fix.timestamp { return last.arrival }
        let arrival = epochBegan ?? chunkRead
        lastStamp = fix.timestamp.map { ($0, arrival) }
        return arrival
    }

    private func emit(_ event: EngineEvent) {
        reported = true
        switch event {
        case .fix(var fix):
            if settings.stampsArrival { fix.arrival = arrival(of: fix) }
            if paced, let wait = pacer.delay(until: fix.timestamp, now: settings.clock.now), wait > 0 {
                _ = settings.clock.sleep(.seconds(wait), beside: wakeup)
            }
            guard let delegate, !reporter.run.isStopped else { return }
            delegate.locationManager(reporter.manager, didUpdateFix: fix)
        case .sky(let sky):
            guard let delegate, !reporter.run.isStopped else { return }
            delegate.locationManager(reporter.manager, didUpdateSkyView: sky)
        case .note(let note):
            guard let delegate, !reporter.run.isStopped else { return }
            delegate.locationManager(reporter.manager, didReceiveNote: note)
        }
    }
}
