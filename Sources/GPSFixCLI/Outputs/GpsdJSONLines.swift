import GPSLocation
import GPSOutput

/// `--json`: gpsd's reports as `gpspipe -w` prints them — a TPV per epoch, followed by the
/// epoch's GST when the receiver sent one and its ATT when an instrument stated an attitude,
/// and a SKY per cycle that listed satellites.
struct GpsdJSONLines: LineFormat {
    private let tag: GPSDJSON.Device
    private let device: (@Sendable () -> String?)?

    /// `device`, when given, names each report's device where that is not `source` (a
    /// fleet's vehicle).
    init(source: String, device: (@Sendable () -> String?)? = nil) {
        tag = GPSDJSON.Device(source)
        self.device = device
    }

    func write(_ event: LocationEvent, into w: inout ByteWriter, startLine: (inout ByteWriter) -> Void) -> Int {
        let tag = device?().map { GPSDJSON.Device($0) } ?? self.tag
        switch event {
        case .fix(let fix):
            startLine(&w)
            GPSDJSON.tpv(fix, device: tag, into: &w)
            var lines = 1
            if fix.errorStatistics != nil {
                startLine(&w)
                GPSDJSON.gst(fix, device: tag, into: &w)
                lines += 1
            }
            if fix.attitude != nil {
                startLine(&w)
                GPSDJSON.att(fix, device: tag, into: &w)
                lines += 1
            }
            return lines
        case .sky(let sky):
            startLine(&w)
            GPSDJSON.sky(sky, device: tag, into: &w)
            return 1
        default:
            return 0
        }
    }
}
