import GPSLocation
import GPSOutput

/// The default output: one readable line per fix (time, position, altitude, speed, course,
/// mode, satellites), and a summary of the run on stderr at the end.
struct TextLines: LineFormat {
    func write(_ event: LocationEvent, into w: inout ByteWriter, startLine: (inout ByteWriter) -> Void) -> Int {
        guard case .fix(let fix) = event else { return 0 }
        startLine(&w)
        TextFormat.line(fix, into: &w)
        return 1
    }

    var endsWithSummary: Bool { true }
}
