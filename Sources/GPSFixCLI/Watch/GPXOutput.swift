import GPSLocation

/// `gpsfix watch --gpx`: a GPX 1.1 track on stdout. (Being built.)
final class GPXOutput: WatchOutput {
    init(context: WatchContext) throws {
        throw UsageError(message: "--gpx is not built yet")
    }

    var failed: Bool { true }
    func write(_ event: LocationEvent) -> Int { 0 }
    func finish(_ end: LocationEvent?) {}
}
