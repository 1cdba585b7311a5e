public import GPSSystem

/// Something that watches a serial source's port beside its reader, while the port is open: a
/// receiver's pulse on a modem line (GPSTime's `ModemLinePulses`). The reader owns the port,
/// which is held exclusively, so a watcher cannot open it again: it is lent the descriptor.
///
/// Told on the source's thread: `portOpened` after each open (at the start and after each
/// replug), with the descriptor, which it must neither read nor close; `portClosing` before
/// the port is closed, returning only once it no longer uses the descriptor (a closed
/// descriptor's number is soon another file's).
public protocol SerialPortWatcher: AnyObject, Sendable {
    /// The port at `path` is open and configured: watch it through `descriptor`.
    func portOpened(_ descriptor: FileDescriptor, path: String)
    /// The port is about to be closed: stop using its descriptor before returning.
    func portClosing()
}
