import GPSLocation

/// The live terminal view of `gpsfix watch`. (Being built.)
final class LiveViewOutput: WatchOutput {
    init(context: WatchContext) throws {
        throw UsageError(message: "--view is not built yet")
    }

    var failed: Bool { true }
    func write(_ event: LocationEvent) -> Int { 0 }
    func finish(_ end: LocationEvent?) {}
}
