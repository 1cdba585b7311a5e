import GPSSystem
import GPSSystem
import GPSLocation
import GPSOutput

/// How one line-oriented format spells an event: as whole lines, or not at all.
protocol LineFormat {
    /// Appends the lines `event` makes to `w`, calling `startLine` before each (it writes
    /// `-t`'s stamp), and returns how many: what `-n N` counts.
    func write(_ event: LocationEvent, into w: inout ByteWriter, startLine: (inout ByteWriter) -> Void) -> Int
    /// The run's summary goes to stderr at the end: for text, which a person reads; a pipe of
    /// JSON or NMEA is for programs.
    var endsWithSummary: Bool { get }
}

extension LineFormat {
    var endsWithSummary: Bool { false }
}

/// The line-oriented outputs, as `gpspipe` prints them: one report a line, each optionally
/// prefixed with the UTC time it was written, so a pipe or a log gets whole lines.
final class LineOutput: WatchOutput {
    private let format: any LineFormat
    private let context: WatchContext
    private let timestamps: Bool
    private let label: (@Sendable () -> String?)?
    /// The terminal's stdout, held here: reached through the context (a struct holding the
    /// terminal) it was retained and released on every report.
    private let out: GPSOutputStream
    /// The receiver's notes (TXT), said on stderr as they change.
    private let notes = ReceiverNoteLog()

    init(_ format: any LineFormat, setup: OutputSetup) {
        self.format = format
        context = setup.context
        timestamps = setup.timestamps
        label = setup.label
        out = setup.context.terminal.out
    }

    var failed: Bool { out.failed }

    func write(_ event: LocationEvent) -> Int {
        // The case is asked first: taking a status out of the event copies the event whole.
        if event.isStatus || event.isNote { return note(event) }
        let stamp = timestamps
        let name = label?()
        return out.report(flushNow: context.paced) { w in
            self.format.write(event, into: &w) { w in
                if stamp { Self.stamp(&w) }
                if let name {
                    w.append(name)
                    w.append(": ")
                }
            }
        }
    }

    /// Unplugged, reconnecting, stale, and the receiver's notes ("ANTENNA OPEN"): said on
    /// stderr, so piped output stays clean.
    @inline(never)
    private func note(_ event: LocationEvent) -> Int {
        if case .status(let status) = event, let text = StatusWords.line(status, source: context.source) {
            context.terminal.note("gpsfix: " + text)
        }
        if case .note(let note) = event {
            for line in notes.lines(note, source: context.source) { context.terminal.note("gpsfix: " + line) }
        }
        return 0
    }

    func finish(_ end: LocationEvent?) {
        context.terminal.out.flush()
        for line in notes.flush() { context.terminal.note("gpsfix: " + line) }
        // The summary speaks of output delivered; after a failed write it would mislead, and a
        // reader that went away (`| head -1`) wants quiet.
        if format.endsWithSummary, !failed, case .status(.finished(let statistics))? = end {
            context.terminal.note(Summary.line(statistics, source: context.source))
        }
    }

    /// `2026-11-30 07:10:00: `, the local wall-clock time of writing, exactly as `gpspipe -t`
    /// writes it (strftime's "%F %T"), so that tools made for gpspipe's logs read ours.
    private static func stamp(_ w: inout ByteWriter) {
        w.append(CalendarTime.local(Clocks.wallSeconds).dateAndTime)
        w.append(": ")
    }
}
