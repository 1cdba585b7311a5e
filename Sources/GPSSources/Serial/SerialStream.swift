import GPSSystem
import GPSLocation

/// An open serial port as a byte stream: read, and (while its rate is hunted for) given one
/// rate after another. Everything else is `StreamReader`'s.
final class SerialStream: ByteStream, StreamTrial {
    private let port: SerialPort
    private var hunt: BaudHunt?
    private var settledRate: Int?
    /// Reads that gave 0 bytes in a row: on a tty, that only happens once it has hung up.
    private var emptyReads = 0

    init(port: SerialPort, rate: Int?, hunt: BaudHunt?) {
        self.port = port
        settledRate = rate
        self.hunt = hunt
    }

    var name: String { port.path }
    var descriptor: FileDescriptor? { port.descriptor }
    var baud: Int? { settledRate }
    var trial: (any StreamTrial)? { hunt == nil ? nil : self }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamRead {
        switch port.read(into: buffer) {
        case .bytes(let count):
            emptyReads = 0
            port.keepExclusive()
            return .bytes(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        case .nothing:
            return .nothing
        case .end:
            // A hang-up that poll has not said yet reads 0 again at once.
            emptyReads += 1
            // The reason follows the stream's name wherever it is shown.
            return emptyReads >= 2 ? .end(reason: "hung up") : .nothing
        case .failed(let error):
            // EIO, ENODEV: the device went away under the descriptor.
            return .end(reason: "\(error)")
        }
    }

    // MARK: - The rate on trial

    var deadline: Double? { hunt?.deadline }

    func heard(at time: Double) { hunt?.heard(at: time) }

    func settle() {
        guard let rate = hunt?.rate else { return }
        Autobaud.remember(rate)
        settledRate = rate
        hunt = nil
    }

    func next() -> TrialNext {
        guard var trial = hunt else { return .trying }
        guard trial.advance() else {
            return .exhausted(.io("\(port.path): bytes arrive, but no NMEA sentence at \(Autobaud.rates.map(String.init).joined(separator: ", ")) baud. Is the receiver set to a binary protocol? Name its rate with --baud."))
        }
        hunt = trial
        do {
            try port.setSpeed(trial.rate)
        } catch {
            // The settings a moment ago were fine: the device went away.
            return .lost(reason: error.description)
        }
        return .trying
    }
}
