import GPSLocation
import GPSOutput
import Synchronization

/// `gpsfix watch --gpx`: a GPX 1.1 track on stdout, one `<trkseg>` per unbroken run of fixes,
/// closed properly when the run ends, by Ctrl-C or SIGTERM too.
final class GPXOutput: WatchOutput {
    private let context: WatchContext
    // An interrupt ends the run from the signal thread while the source's thread may still be
    // inside `write`: the lock keeps the closing tags from landing in the middle of a point,
    // and nothing is written after them.
    private let track = Mutex(GPXTrack())
    /// The receiver's notes (TXT), said on stderr as they change.
    private let notes = ReceiverNoteLog()

    init(context: WatchContext) throws {
        self.context = context
        let out = context.terminal.out
        track.withLock { $0.start(source: context.source, into: &out.writer) }
        out.commit(flushNow: context.paced)
    }

    var failed: Bool { context.terminal.out.failed }

    func write(_ event: LocationEvent) -> Int {
        if case .status(let status) = event, let text = StatusWords.line(status, source: context.source) {
            context.terminal.note("gpsfix: " + text)
        }
        if case .note(let note) = event {
            for line in notes.lines(note, source: context.source) { context.terminal.note("gpsfix: " + line) }
            return 0
        }
        let out = context.terminal.out
        let wrote = track.withLock { track in
            let before = out.writer.count
            let wrote = track.record(event, into: &out.writer)
            // Paced: each point (or segment end) shows at once, for `tail -f` or a pipe.
            if out.writer.count > before { out.commit(flushNow: context.paced) }
            return wrote
        }
        return wrote ? 1 : 0
    }

    func finish(_ end: LocationEvent?) {
        let out = context.terminal.out
        track.withLock { track in
            track.finish(into: &out.writer)
            out.flush()
        }
        for line in notes.flush() { context.terminal.note("gpsfix: " + line) }
    }
}
