package import GPSLocation
import Synchronization

/// What the reader has received on the port as it is open now, for other threads to read (a
/// request that timed out asks why): updated once per chunk read, never per byte.
package final class ReceptionCount: Sendable {
    private let latest = Mutex<Reception?>(nil)

    package var value: Reception? { latest.withLock { $0 } }

    /// The port `source` was opened (again): nothing received on it yet.
    func begin(source: String, baud: Int?) {
        latest.withLock { $0 = Reception(source: source, baud: baud) }
    }

    /// `bytes` more were read; `sentences` have been accepted since the port was opened.
    func add(bytes: Int, sentences: Int) {
        latest.withLock { reception in
            reception?.bytes += bytes
            reception?.sentences = sentences
        }
    }

    /// A hunt found the rate.
    func settle(baud: Int) {
        latest.withLock { $0?.baud = baud }
    }
}
