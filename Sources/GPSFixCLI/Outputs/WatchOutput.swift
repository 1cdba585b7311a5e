import GPSLocation

/// One way `gpsfix watch` shows what a source delivers: readable lines, gpsd JSON, NMEA
/// passthrough, a GPX track, or the live terminal view. The command picks one; the output
/// sees events and nothing of the source.
///
/// `write` is called on the source's thread, one event at a time and in order, ending with the
/// terminal event; `finish` is called once on the main thread after that (or after an
/// interrupt), when no more `write` calls can come.
protocol WatchOutput: AnyObject {
    /// Handles one event and returns how many reports it wrote: what `-n N` counts.
    func write(_ event: LocationEvent) -> Int
    /// The run is over: close what is open (a GPX document, the terminal's alternate screen).
    func finish(_ end: LocationEvent?)
    /// Writing failed (the reader went away): the run should stop.
    var failed: Bool { get }
}

/// What every output may want to know about the run it shows.
struct WatchContext {
    let terminal: Terminal
    /// What the source is, for people: a device path, "gpsd at …", a capture path.
    let source: String
    /// Paced output, or a live one (a receiver, a pipe), is for someone watching: show each
    /// report at once rather than buffering.
    let paced: Bool
}
