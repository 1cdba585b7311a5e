import GPSSystem
import Glibc
import GPSLocation
import GPSOutput

/// The line-oriented outputs, as `gpspipe` prints them: one report a line, each optionally
/// prefixed with the UTC time it was written, so a pipe or a log gets whole lines.
final class LineOutput: WatchOutput {
    enum Format { case text, json, nmea }

    private let format: Format
    private let context: WatchContext
    private let tag: GPSDJSON.Device
    private let timestamps: Bool

    init(_ format: Format, context: WatchContext, timestamps: Bool) {
        self.format = format
        self.context = context
        self.timestamps = timestamps
        tag = GPSDJSON.Device(context.source)
    }

    var failed: Bool { context.terminal.out.failed }

    func write(_ event: LocationEvent) -> Int {
        let out = context.terminal.out
        switch (event, format) {
        case (.sentence(let line), .nmea):
            // Passthrough: every sentence that passed its checksum, exactly as received.
            prefix(&out.writer)
            out.writer.append(line)
            out.writer.append("\r\n")
        case (.fix(let fix), .json):
            prefix(&out.writer)
            GPSDJSON.tpv(fix, device: tag, into: &out.writer)
        case (.fix(let fix), .text):
            prefix(&out.writer)
            TextFormat.line(fix, into: &out.writer)
        case (.sky(let sky), .json):
            prefix(&out.writer)
            GPSDJSON.sky(sky, device: tag, into: &out.writer)
        case (.status(let status), _):
            // Unplugged, reconnecting, stale: said on stderr, so piped output stays clean.
            if let text = describe(status, source: context.source) { context.terminal.note("gpsfix: " + text) }
            return 0
        default:
            return 0
        }
        out.commit(flushNow: context.paced)
        return 1
    }

    func finish(_ end: LocationEvent?) {
        context.terminal.out.flush()
        // The summary speaks of output delivered; after a failed write it would mislead, and a
        // reader that went away (`| head -1`) wants quiet.
        if format == .text, !failed, case .status(.finished(let statistics))? = end {
            context.terminal.note(Summary.line(statistics, source: context.source))
        }
    }

    /// `2026-11-30T07:10:00.123Z: `, the wall-clock time of writing, as `gpspipe -t` does.
    private func prefix(_ w: inout ByteWriter) {
        guard timestamps else { return }
        GPSDJSON.appendISO8601(unixSeconds: Clocks.wallSeconds, into: &w)
        w.append(": ")
    }
}
