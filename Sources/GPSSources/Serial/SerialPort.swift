import GPSSystem
import GPSLocation

/// A serial port (a tty) opened for reading NMEA: held exclusively, raw 8N1, one speed at a
/// time. Closed, and its exclusive mode given up, when released.
///
/// Used by one thread (the reader's) only. gpsfix never writes to a receiver; the port is
/// opened read-write only because that is how tty drivers expect to be configured (as gpsd and
/// terminal programs open them).
final class SerialPort {
    let path: String
    /// Owned: closed when the port is released.
    let descriptor: FileDescriptor
    /// Its termios and exclusive mode, through `descriptor`; nil until it is known to be a tty.
    private var terminal: SerialTerminal?
    /// Whether this port set the exclusive mode (and so must clear it: on a pty the mode
    /// outlives the descriptor and would lock out the next open of the same device).
    private var exclusive = false

    private init(path: String, descriptor: FileDescriptor) {
        self.path = path
        self.descriptor = descriptor
    }

    /// Lent the descriptor while the port is open.
    private var watcher: (any SerialPortWatcher)?

    deinit {
        watcher?.portClosing()
        if exclusive, let terminal { ExclusiveHolds.giveBack(terminal) }
        descriptor.close()
    }

    /// Lends the descriptor to `watcher` until the port is closed.
    func lend(to watcher: any SerialPortWatcher) {
        self.watcher = watcher
        watcher.portOpened(descriptor, path: path)
    }

    /// Opens `path`, takes it exclusively and makes it raw 8N1 with reads that block for at
    /// least one byte (VMIN 1, VTIME 0). The speed is left as the port had it.
    ///
    /// Refused: a path that can never be a receiver (`.notADevice`, before it is opened), and a
    /// tty another process has open (`.deviceBusy` naming it), exclusive mode or not: gpsd 3.22
    /// sets none, and two readers each get part of the sentences. That look is made once the
    /// device is open (without reading, configuring or taking it) and known to be a tty: every
    /// daemon holds `/dev/null`, and only a tty can be a receiver's port.
    static func open(_ path: String) throws(LocationError) -> SerialPort {
        if let status = try? FileStatus(path: path), let what = DeviceKind.neverAReceiver(status.kind) {
            throw .notADevice(path: path, what: what)
        }
        let descriptor: FileDescriptor
        do {
            // Non-blocking: neither open (waiting for carrier) nor read may block; the reader
            // waits in poll. A receiver must never become our controlling terminal.
            descriptor = try FileDescriptor.open(path, .readWrite, options: [.noControllingTerminal, .nonBlocking])
        } catch {
            throw DeviceAccess.error(opening: path, error)
        }
        // From here the object owns the descriptor: a failure below releases it, and deinit
        // closes it.
        let port = SerialPort(path: path, descriptor: descriptor)
        let looked = try port.refuseOtherReaders()
        try port.takeExclusively(looked)
        try port.makeRaw()
        return port
    }

    /// What a look through `/proc` found, and for which device.
    private struct Looked {
        let device: UInt64
        let scan: TTYHolders.Scan
    }

    /// Refuses what is not a tty, and a tty that another process (or another port of this
    /// one) has open.
    private func refuseOtherReaders() throws(LocationError) -> Looked {
        guard let terminal = try? SerialTerminal(descriptor), let status = try? descriptor.status() else {
            throw DeviceAccess.error(opening: path, .notATerminal)
        }
        self.terminal = terminal
        let device = status.representedDevice
        if ExclusiveHolds.holds(device: device) { throw .deviceBusy(path: path, holder: TTYHolders.thisProcess) }
        let scan = TTYHolders.scan(device: device)
        if let reader = scan.readers.first { throw .deviceBusy(path: path, holder: reader) }
        return Looked(device: device, scan: scan)
    }

    /// Refuses a port someone else holds, then holds it: TIOCEXCL makes the kernel refuse
    /// further opens with EBUSY.
    ///
    /// TIOCEXCL does not stop root (CAP_SYS_ADMIN opens anyway), so the mode another process
    /// set (gpsd sets it) is read first with TIOCGEXCL: a port already exclusive is busy, unless
    /// the mode was left behind on a pty by a process killed while holding it (a plain user
    /// cannot get this far then: the kernel refuses the open with EBUSY).
    private func takeExclusively(_ looked: Looked) throws(LocationError) {
        // No reader was seen (or the port was refused already): a holder that could not be
        // looked at, or a real tty's, whose mode dies with its last close.
        guard let terminal else { throw DeviceAccess.error(opening: path, .notATerminal) }
        if terminal.isExclusive == true, !TTYHolders.modeIsLeftBehind(on: looked.device, after: looked.scan) {
            throw .deviceBusy(path: path)
        }
        do {
            try ExclusiveHolds.take(terminal)
        } catch {
            throw DeviceAccess.error(opening: path, error)
        }
        exclusive = true
        exclusiveCheckedAt = Clocks.monotonicSeconds
    }

    /// When the exclusive mode was last looked at (monotonic seconds).
    private var exclusiveCheckedAt = 0.0

    /// How often a port being read is checked for its exclusive mode, in seconds.
    static let exclusiveCheckInterval = 1.0

    /// Sets the exclusive mode again if it was lost, looking at most once every
    /// `exclusiveCheckInterval`; true when it had been lost. The mode belongs to the tty, not
    /// to a descriptor: a root process that opens the port anyway and clears the mode as it
    /// closes (gpsd does) clears ours, and the next open would be let in.
    @discardableResult
    func keepExclusive(now: Double = Clocks.monotonicSeconds) -> Bool {
        guard exclusive, let terminal, now - exclusiveCheckedAt >= Self.exclusiveCheckInterval else { return false }
        exclusiveCheckedAt = now
        // Unreadable (kernels before 3.8 lack TIOCGEXCL): then only TIOCEXCL decided.
        guard terminal.isExclusive == false else { return false }
        try? terminal.setExclusive(true)
        return true
    }

    /// Raw 8N1, no flow control, modem lines ignored, reads complete at one byte.
    private func makeRaw() throws(LocationError) {
        do {
            try terminal?.makeRaw8N1()
        } catch {
            throw DeviceAccess.error(opening: path, error)
        }
    }

    /// Sets the line speed (input and output) to `rate` and discards what arrived at the old
    /// one. `rate` must be one termios names (see `BaudRate`).
    func setSpeed(_ rate: Int) throws(LocationError) {
        guard let speed = BaudRate.speed(for: rate) else {
            throw .io("\(path): \(rate) baud is not a rate this system can set (try one of \(Autobaud.rates.map(String.init).joined(separator: ", "))).")
        }
        guard let terminal else { throw DeviceAccess.error(opening: path, .notATerminal) }
        do {
            try terminal.setSpeed(speed)
        } catch {
            throw DeviceAccess.error(opening: path, error)
        }
        do {
            try terminal.discardInput()
        } catch {
            throw .io("\(path): cannot discard input (\(error))")
        }
    }

    /// The input speed the port is set to, in bits per second.
    var speed: Int? { terminal?.inputSpeed.flatMap(BaudRate.rate(for:)) }

    /// What one `read` gave.
    enum ReadResult {
        case bytes(Int)
        /// Nothing there (a spurious wake-up).
        case nothing
        /// End of file: on a tty, only after a hang-up.
        case end
        case failed(SystemError)
    }

    /// Reads what is there, at most `buffer.count` bytes, without blocking.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        do {
            guard case .processed(let n) = try descriptor.read(into: buffer) else { return .nothing }
            return n == 0 ? .end : .bytes(n)
        } catch {
            return .failed(error)
        }
    }
}
