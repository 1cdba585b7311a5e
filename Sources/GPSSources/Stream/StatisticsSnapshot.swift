package import NMEA
import GPSLocation
import Synchronization

/// The engine's counts as another thread may read them while the reader goes on: a copy the
/// reading thread takes between chunks of input, never per sentence.
package final class StatisticsSnapshot: Sendable {
    private let latest = Mutex<Statistics?>(nil)

    /// Called by the thread that owns `parser`, between two `parse` calls.
    func update(from parser: NMEAParser) {
        var counted = parser.statistics
        // A copy of the per-type counts of its own: sharing the engine's array would make the
        // engine's next count copy it, an allocation in the middle of parsing.
        counted.sentences.byKind = counted.sentences.byKind.withUnsafeBufferPointer { Array($0) }
        latest.withLock { $0 = counted }
    }

    package var value: Statistics? { latest.withLock { $0 } }
}
