import NMEA
import CGPS

/// Any bytes, as a gpsd peer might send them, through everything the gpsd source does with a
/// line: cut into lines, judged, rewritten, decoded by the installed libgps, read back. The body
/// of `make fuzz-gpsd` (where a libgps that never returns is a time-out, and so a finding) and of
/// the tests that replay what it found. Returns what broke; empty when nothing did.
package enum GpsdLineCheck {
    package static func run(_ bytes: UnsafeRawBufferPointer) -> [String] {
        guard let reader = cgps_reader_create() else { return ["out of memory"] }
        defer { cgps_reader_destroy(reader) }
        let maximumSatellites = Int(cgps_max_satellites())
        var buffer = LineBuffer(maximumLine: GpsdSession.maximumLine)
        var broken: [String] = []
        buffer.append(bytes) { line in
            guard case .report(let kind, let text) = GpsdLine.judge(line, maximumSatellites: maximumSatellites) else { return }
            // What gpsfix writes is a line libgps takes whole: anything else is gpsfix's fault.
            guard text.withCString({ cgps_reader_unpack(reader, $0) }) else {
                broken.append("libgps API \(cgps_api_major()) refused gpsfix's own line \(text)")
                return
            }
            switch kind {
            case .tpv:
                guard let fix = GpsdFields.fix(reader) else { return }
                if let coordinate = fix.coordinate,
                   !(Bounds.latitude.contains(coordinate.latitude) && Bounds.longitude.contains(coordinate.longitude)) {
                    broken.append("a position out of range: \(coordinate)")
                }
                if fix.hasFix != (fix.coordinate != nil) { broken.append("mode \(fix.mode) with coordinate \(String(describing: fix.coordinate))") }
            case .att:
                let attitude = GpsdFields.attitude(reader)
                if let heading = attitude?.heading, !Bounds.course.contains(heading) { broken.append("a heading out of range: \(heading)") }
            case .sky:
                let sky = GpsdFields.sky(reader)
                if Set(sky.satellites.map(\.id)).count != sky.satellites.count { broken.append("a satellite twice in \(sky.satellites.map(\.id))") }
                if sky.satellites.count > maximumSatellites { broken.append("\(sky.satellites.count) satellites") }
            }
        }
        return broken
    }
}
