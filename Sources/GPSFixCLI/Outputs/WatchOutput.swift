import GPSLocation

/// One way `gpsfix watch` shows what a source delivers: readable lines, gpsd JSON, NMEA
/// passthrough, a GPX track, or the live terminal view. The command picks one; the output
/// sees events and nothing of the source.
///
/// `write` is called one event at a time and in order, ending with the terminal event: on the
/// source's thread, or for bulk output on `PipelinedOutput`'s writer; `finish` is called once
/// on the main thread after that (or after an interrupt), when no more `write` calls can come.
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
    /// What it is, for words that depend on it.
    var kind: SourceKind = .receiver
    /// Paced output, or a live one (a receiver, a pipe), is for someone watching: show each
    /// report at once rather than buffering.
    let paced: Bool
}

/// A format kept in a file as it grows (`record --gpx FILE`): each event reaches the disk as it
/// comes, and `finish` leaves a complete document. Called from the source's thread and the
/// main thread, hence Sendable.
protocol FileOutput: Sendable {
    /// Writes what `event` adds; returns whether it added a report (a track point).
    @discardableResult
    func write(_ event: LocationEvent) throws(LocationError) -> Bool
    /// Closes the document and the file. Later calls do nothing.
    func finish() throws(LocationError)
    /// Removes the file: the run failed before anything worth keeping.
    func discard()
    /// Nothing worth keeping has been written.
    var isEmpty: Bool { get }
    /// What the file holds, for the closing note: "5 points in 2 segments".
    var contents: String { get }
    /// What the file is, for the opening note: "a GPX track".
    var kind: String { get }
}
