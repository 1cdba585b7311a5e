import Dispatch
import GPSLocation
import GPSSystem
import Synchronization

/// Bulk output on a thread of its own: a capture replayed at `--speed max` into a pipe or a
/// file is decoded on the source's thread while the reports before are formatted and written
/// on this one, so the two parts of the work run on two cores side by side. Formatting and
/// writing gpsd JSON is about a quarter of a replay's instructions (67 M of 289 M on gpsd's
/// captures five times over, `INSTRUCTIONS=1 make bench`); the decoding thread keeps the rest.
///
/// Only for output nobody is waiting on line by line: a paced or live run writes each report
/// as it comes, on the source's thread, where a hop would only add a wake-up. Only for one
/// source and no `-n N`: several sources share one stdout through `WatchCommand`'s gate, and
/// `-n` counts what the output wrote as it wrote it.
///
/// Events go over in batches of ``batchSize``, at most ``depth`` batches waiting: the decoder
/// runs at most (depth + 2) × batchSize events ahead (2,560; about 1.4 MB of fixes), then
/// waits for the writer, as a full pipe would have made it wait before. Batches, not events:
/// each hand-over may wake the writer, and a wake-up costs more than formatting a report.
final class PipelinedOutput: WatchOutput, @unchecked Sendable {
    // @unchecked: `pending` belongs to the callers of `write` and `finish`, which
    // `WatchCommand` runs one at a time (its gate); `output` to the writer thread until it
    // ends, then to `finish`. Everything shared between the two is behind `queue` or atomic.

    static let batchSize = 256
    static let depth = 8

    private let output: any WatchOutput
    private var pending: [LocationEvent] = []
    /// Batches handed over and not yet taken; nil is the end.
    private let queue = Mutex<[[LocationEvent]?]>([])
    /// Batches written, handed back: the decoder's thread lets go of their events and reuses
    /// their room, so what it allocated it also frees (a fix freed on another thread leaves
    /// the allocator's per-thread cache empty on this one, and each new fix is a slow malloc).
    private let written = Mutex<[[LocationEvent]]>([])
    private let waiting = DispatchSemaphore(value: 0)
    private let free = DispatchSemaphore(value: PipelinedOutput.depth)
    private let ended = DispatchSemaphore(value: 0)
    private let writeFailed = Atomic<Bool>(false)
    private var started = false
    private var finished = false

    init(_ output: any WatchOutput) {
        self.output = output
        pending.reserveCapacity(Self.batchSize)
    }

    var failed: Bool { writeFailed.load(ordering: .acquiring) }

    /// Counts nothing: what it writes is written later, elsewhere. Hence never with `-n`.
    func write(_ event: LocationEvent) -> Int {
        pending.append(event)
        if pending.count >= Self.batchSize || event.isTerminal { handOver() }
        return 0
    }

    /// Waits until everything handed over is written, then closes the output as it would
    /// have been closed without the thread.
    func finish(_ end: LocationEvent?) {
        guard !finished else { return }
        finished = true
        if started {
            if !pending.isEmpty { handOver() }
            send(nil)
            ended.wait()
        } else {
            // Nothing went over (a run that failed at once): no thread to wait for.
            for event in pending { _ = output.write(event) }
        }
        output.finish(end)
    }

    private func handOver() {
        send(pending)
        if let reused = written.withLock({ $0.popLast() }) {
            pending = reused
            pending.removeAll(keepingCapacity: true)
        } else {
            pending = []
            pending.reserveCapacity(Self.batchSize)
        }
    }

    private func send(_ batch: [LocationEvent]?) {
        if !started {
            started = true
            spawnThread(name: "gpsfix-output") { [self] in drain() }
        }
        free.wait()
        queue.withLock { $0.append(batch) }
        waiting.signal()
    }

    private func drain() {
        while true {
            waiting.wait()
            let batch = queue.withLock { $0.removeFirst() }
            free.signal()
            guard let batch else { break }
            // After a failed write (the reader went away) the rest is taken and dropped, so
            // that the decoder is never left waiting for room while the run stops.
            guard !failed else { continue }
            for event in batch {
                _ = output.write(event)
                if output.failed {
                    writeFailed.store(true, ordering: .releasing)
                    break
                }
            }
            written.withLock { $0.append(batch) }
        }
        ended.signal()
    }
}
