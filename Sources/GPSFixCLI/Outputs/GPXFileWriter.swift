import GPSSystem
import GPSLocation
import GPSOutput
import Synchronization

/// `gpsfix record --gpx FILE`: a GPX track written to disk as it grows.
///
/// Every point goes to the file in one unbuffered write(2) as it arrives, so a SIGKILL or a
/// power cut loses at most the closing tags; `finish` writes them, and the file is then a
/// complete GPX document. Thread-safe: points come from the source's thread, `finish` from the
/// main thread, possibly while an interrupted source is still handing over its last event.
final class GPXFileWriter: FileOutput {
    let path: String
    private let file: CaptureWriter
    private let state: Mutex<State>

    private struct State: ~Copyable {
        var track = GPXTrack()
        /// One point's bytes at a time: reused, never more than the point in hand.
        var buffer = ByteWriter(capacity: 512)
        /// Points and segments whose bytes reached the file: after a failed write the track has
        /// counted one that is not there.
        var keptPoints = 0, keptSegments = 0
        /// The write that failed. Nothing is written after it: more points behind a cut-off
        /// one would not make the file any more readable.
        var failure: LocationError?
    }

    /// Creates the file (refusing an existing one unless `overwrite`) and writes the document's
    /// beginning, naming `source` as the track's source.
    init(path: String, source: String, overwrite: Bool) throws(LocationError) {
        // With an empty header, a CaptureWriter is exactly the file this needs: created
        // exclusively unless overwriting, written unbuffered, with errors a person can act on.
        file = try CaptureWriter(path: path, header: CaptureHeader(fields: []), overwrite: overwrite)
        self.path = path
        state = Mutex(State())
        try state.withLock { (s: inout State) throws(LocationError) in
            s.track.start(source: source, into: &s.buffer)
            try flush(&s)
        }
    }

    /// Writes what `event` adds to the track (a point, or the end of a segment); returns
    /// whether it was a point. Nothing is written once the document is finished.
    @discardableResult
    func write(_ event: LocationEvent) throws(LocationError) -> Bool {
        try state.withLock { (s: inout State) throws(LocationError) -> Bool in
            let wrote = s.track.record(event, into: &s.buffer)
            try flush(&s)
            return wrote
        }
    }

    /// Closes the open segment and the document, and the file. Later calls do nothing.
    func finish() throws(LocationError) {
        try state.withLock { (s: inout State) throws(LocationError) in
            guard !s.track.isFinished else { return }
            s.track.finish(into: &s.buffer)
            defer { file.close() }
            try flush(&s)
        }
    }

    /// Removes the file: for a run that failed before it recorded anything worth keeping, so
    /// that running again after fixing the mistake needs no --force.
    func discard() {
        file.close()
        try? FileSystem.remove(path)
    }

    /// Points and segments in the file (a point cut short by a failed write not counted).
    var points: Int { state.withLock { $0.keptPoints } }
    var segments: Int { state.withLock { $0.keptSegments } }

    var isEmpty: Bool { points == 0 }
    var contents: String { "\(count(points, "point")) in \(count(segments, "segment"))" }
    var kind: String { "a GPX track" }

    private func flush(_ s: inout State) throws(LocationError) {
        guard !s.buffer.isEmpty else { return }
        defer { s.buffer.removeAll() }
        if let failure = s.failure { throw failure }
        let failure = s.buffer.withUnsafeBytes { bytes -> LocationError? in
            do throws(LocationError) {
                try file.write(bytes)
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            s.failure = failure
            throw failure
        }
        s.keptPoints = s.track.points
        s.keptSegments = s.track.segments
    }
}

/// "1 point", "2 points".
private func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
