import GPSLocation
import GPSOutput

/// `--nmea`: every sentence that passed its checksum, exactly as received, as `gpspipe -r`
/// prints them.
struct NMEALines: LineFormat {
    func write(_ event: LocationEvent, into w: inout ByteWriter, startLine: (inout ByteWriter) -> Void) -> Int {
        guard case .sentence(let line) = event else { return 0 }
        startLine(&w)
        w.append(line)
        w.append("\r\n")
        return 1
    }
}
