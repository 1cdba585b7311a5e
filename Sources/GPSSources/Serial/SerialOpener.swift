import NMEA
import GPSLocation

/// What makes a serial receiver a byte-stream source: how its port is opened and configured,
/// and where to look for it when it is unplugged. One per run.
final class SerialOpener: StreamOpener {
    private let manager: SerialNMEAManager
    /// The device's stable names, found while it is here: after an unplug it may come back as
    /// another node (ttyUSB1 for ttyUSB0), under the same by-id name.
    private var stableLinks: [String] = []

    /// Back-off between reopening attempts after an unplug.
    static let reconnection = Reconnection(first: 0.05, longest: 1.0)

    init(manager: SerialNMEAManager) { self.manager = manager }

    /// Whether the last open failed for a reason waiting would hide (a directory, a regular
    /// file: never a receiver; a port another process reads: its reader must be stopped by a
    /// person, and a run that quietly waits for it looks like one that works): then it is the
    /// run's failure at once, even when waiting was asked for.
    private var lastFailureLasts = false

    func open() throws(LocationError) -> any ByteStream {
        let path = try manager.portToOpen()
        let stream: SerialStream
        do {
            stream = try openConfigured(path)
        } catch {
            switch error {
            case .notADevice, .deviceBusy: lastFailureLasts = true
            default: break
            }
            throw error
        }
        stableLinks = DeviceKind.stableLinks(to: path, in: manager.stableLinkDirectory)
        return stream
    }

    /// Asked by the reader right after `open` failed.
    var waitsToOpen: Reconnection? { manager.options.waitsForDevice && !lastFailureLasts ? Self.reconnection : nil }

    func afterEnd(of stream: any ByteStream, reason: String?, passes: Int, statistics: Statistics) -> StreamEndAction {
        manager.options.reconnect ? .reconnect(Self.reconnection) : .fail(.deviceGone(path: manager.path))
    }

    /// A failure to open counts as "not back yet" (the node may be missing, or still owned by
    /// root until udev has set its mode), except a port that came back to another reader
    /// (named) or as something that is no receiver: the run's failure, as at its start, for a
    /// person to mend. ModemManager, which probes new serial ports for a moment, leaves the
    /// receivers `udev/60-gpsfix.rules` knows alone (ID_MM_DEVICE_IGNORE).
    func reopen() throws(LocationError) -> (any ByteStream)? {
        for path in [manager.path] + stableLinks {
            do {
                return try openConfigured(path)
            } catch {
                switch error {
                case .deviceBusy, .notADevice: throw error
                default: continue
                }
            }
        }
        return nil
    }

    /// Opens and configures the port: the given rate, or the first rate to try in a hunt, or
    /// (CDC-ACM) none.
    private func openConfigured(_ path: String) throws(LocationError) -> SerialStream {
        let port = try SerialPort.open(path)
        if let watcher = manager.portWatcher { port.lend(to: watcher) }
        if let baud = manager.options.baud {
            try port.setSpeed(baud)
            return SerialStream(port: port, rate: baud, hunt: nil)
        }
        if DeviceKind.isCDCACM(path) { return SerialStream(port: port, rate: nil, hunt: nil) }
        let hunt = BaudHunt(preferring: Autobaud.lastWorkingRate)
        try port.setSpeed(hunt.rate)
        return SerialStream(port: port, rate: nil, hunt: hunt)
    }
}
