import Dispatch
import Glibc
import GPSLocation

/// Turns SIGINT and SIGTERM into a call, so a live command can stop its source, flush and
/// close its files, and exit 0 instead of dying mid-write.
final class Interrupts {
    private let sources: [any DispatchSourceSignal]

    init(_ handler: @escaping @Sendable (Int32) -> Void) {
        let queue = DispatchQueue(label: "gpsfix.signals")
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    /// Back to the default: a second Ctrl-C after this ends the process as usual.
    func cancel() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}

/// How a status change reads to a person watching.
func describe(_ status: SourceStatus, source: String) -> String? {
    switch status {
    case .started: "\(source): open, waiting for a fix"
    case .streaming: "\(source): receiving"
    case .disconnected(let reason): "\(source): \(reason) — waiting for it to come back"
    case .reconnecting(let attempt): attempt == 1 || attempt % 10 == 0 ? "\(source): reconnecting (attempt \(attempt))" : nil
    case .stale(let seconds): "\(source): nothing received for \(Int(seconds)) s (is the receiver on, and at this baud rate?)"
    case .finished, .stopped: nil
    }
}
