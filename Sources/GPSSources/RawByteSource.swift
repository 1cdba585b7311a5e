public import GPSLocation

/// A source that reads a receiver's own bytes (a serial port, a network stream), which
/// `gpsfix record` keeps exactly as read. gpsd and a replay have none of their own to give.
public protocol RawByteSource: LocationManagerInterface {
    /// Every byte exactly as read, in order, on the reader's thread. Set before start.
    var onBytes: (@Sendable (UnsafeRawBufferPointer) -> Void)? { get set }
}

extension SerialNMEAManager: RawByteSource {}
extension NMEATCPManager: RawByteSource {}
