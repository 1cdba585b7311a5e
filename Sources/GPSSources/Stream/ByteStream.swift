package import NMEA
package import GPSLocation
package import GPSSystem

/// An open stream of NMEA bytes: a serial port, a capture, a pipe, a TCP connection. It only
/// reads; `StreamReader` does the waiting, the framing, the engine, the counting and the
/// reporting, the same way for every kind. Closed when released.
package protocol ByteStream: AnyObject {
    /// What messages call it: "/dev/ttyUSB0", "standard input", "10.0.0.5:10110".
    var name: String { get }
    /// The descriptor to wait on in `poll` before a read; nil when a read never waits (a
    /// regular file), and the reader reads straight on.
    var descriptor: FileDescriptor? { get }
    /// The line rate it reads at, when it has one and it is settled (for `Reception`).
    var baud: Int? { get }
    /// Reads what is there into `buffer`, without blocking when `descriptor` is set.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamRead
    /// A setting still on trial (a line rate being hunted for), nil once settled or when
    /// there is none to find.
    var trial: (any StreamTrial)? { get }
}

extension ByteStream {
    package var baud: Int? { nil }
    package var trial: (any StreamTrial)? { nil }
}

/// What one read gave.
package enum StreamRead {
    /// These bytes, a part of the buffer read into (a capture's header is left out).
    case bytes(UnsafeRawBufferPointer)
    /// Nothing after all (a spurious wake-up, another reader of a pipe was quicker).
    case nothing
    /// The stream is over: `reason` nil for the input's own end (a file's), else why it was
    /// lost ("hung up", "the connection was closed by the other end"); the port or peer is named by whoever shows it.
    case end(reason: String?)
    /// It cannot be read on.
    case failed(LocationError)
}

/// A stream setting being tried by listening (a serial line rate): its bytes are held back,
/// and passed on only once the engine finds a sentence whose checksum matches in them.
package protocol StreamTrial: AnyObject {
    /// When the setting on trial has had its chance; nil while nothing has arrived at it.
    var deadline: Double? { get }
    /// Bytes arrived at `time` (monotonic seconds).
    func heard(at time: Double)
    /// Sentences check at this setting: keep it.
    func settle()
    /// Moves to the next setting. `.exhausted` when every one has had its chance.
    func next() -> TrialNext
}

package enum TrialNext {
    case trying
    /// Every setting was tried: why nothing worked, for the person.
    case exhausted(LocationError)
    /// The stream went away while being set.
    case lost(reason: String)
}

/// Opens a source's stream and says what happens at its end: the one part of a byte-stream
/// source that knows what kind it is. One per run (it may remember what it found while open,
/// such as the stable names of a device to find it by again).
package protocol StreamOpener: AnyObject {
    /// Opens the stream at the run's start; what it throws is the run's failure.
    func open() throws(LocationError) -> any ByteStream
    /// What to do once `stream` has ended (`reason` nil: its own end), after `passes` passes
    /// of which this one counted `statistics`.
    func afterEnd(of stream: any ByteStream, reason: String?, passes: Int, statistics: Statistics) -> StreamEndAction
    /// One attempt to open again after a loss, for `.reconnect`: nil when not back yet; what
    /// it throws, waiting cannot mend (the run's failure).
    func reopen() throws(LocationError) -> (any ByteStream)?
    /// Whether a stream that cannot be opened at the start is waited for (told as `.waiting`,
    /// tried again with this back-off) rather than the run's failure.
    var waitsToOpen: Reconnection? { get }
}

extension StreamOpener {
    package func reopen() -> (any ByteStream)? { nil }
    package var waitsToOpen: Reconnection? { nil }
}

/// What a run does when its stream ends.
package enum StreamEndAction {
    /// The input is over: told as `.finished`.
    case finish
    /// Read this from the start, at once and quietly (a looped replay).
    case again(any ByteStream)
    /// Told as `.disconnected`; then wait for it to come back (`StreamOpener.reopen`).
    case reconnect(Reconnection)
    case fail(LocationError)
}
