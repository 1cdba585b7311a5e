import Dispatch
import Glibc
@testable import GPSFixCLI
import GPSLocation
import GPSSystem
import Synchronization
import Testing

/// `watch`'s bulk output written on a thread of its own: nothing lost, nothing reordered, the
/// decoder held back when the writer falls behind, and a failed write ending the run rather
/// than the decoder waiting on it.
@Suite("Bulk output beside the decoding", .timeLimit(.minutes(1)))
struct PipelinedOutputTests {
    static let batch = PipelinedOutput.batchSize

    @Test("Every event reaches the output in order, on the writer's thread, and finish comes after the last")
    func inOrder() {
        // Given: more than a few batches, and a tail shorter than one
        let output = RecordingOutput()
        let pipelined = PipelinedOutput(output)
        let count = 3 * Self.batch + 7

        // When
        for i in 0..<count { #expect(pipelined.write(.sentence("\(i)")) == 0) }
        pipelined.finish(nil)

        // Then
        #expect(output.log == (0..<count).map { "\($0)" } + ["finish"])
        #expect(!output.threads.contains(.current), "the reports are formatted beside the decoding, not in its way")
    }

    @Test("The run's end goes over at once, and a run too short for a batch is written by finish")
    func shortRun() {
        // Given
        let output = RecordingOutput()
        let pipelined = PipelinedOutput(output)

        // When: three reports and nothing else
        for i in 0..<3 { _ = pipelined.write(.sentence("\(i)")) }
        pipelined.finish(nil)

        // Then
        #expect(output.log == ["0", "1", "2", "finish"])

        // And: an end flushes what waits without waiting for a batch to fill
        let ended = RecordingOutput()
        let second = PipelinedOutput(ended)
        _ = second.write(.sentence("a"))
        _ = second.write(.status(.stopped))
        #expect(ended.waitForWrites(2), "the end went over with the report before it")
        second.finish(.status(.stopped))
        #expect(ended.log == ["a", "status", "finish"])
    }

    @Test("The decoder waits when the writer falls behind: at most depth batches ahead")
    func bounded() {
        // Given: a writer stuck on its first report (a reader that stopped reading)
        let hold = DispatchSemaphore(value: 0)
        let output = RecordingOutput(hold: hold)
        let pipelined = PipelinedOutput(output)
        let total = (PipelinedOutput.depth + 10) * Self.batch
        let written = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        let box = UncheckedBox(pipelined)

        // When: a decoder with far more than that to say
        spawnThread(name: "test-decoder") {
            for i in 0..<total {
                _ = box.value.write(.sentence("\(i)"))
                written.store(i + 1, ordering: .releasing)
            }
            done.signal()
        }

        // Then: it stops once the batches waiting, the one taken and its own are full
        var last = -1
        for _ in 0..<40 {
            let now = written.load(ordering: .acquiring)
            if now == last { break }
            last = now
            usleep(50_000)
        }
        let bound = (PipelinedOutput.depth + 2) * Self.batch
        #expect(last > 0 && last <= bound, "\(last) events taken while nothing was written (bound \(bound))")
        #expect(written.load(ordering: .acquiring) < total, "the decoder ran to the end while nothing was written")

        // And: released, everything is written, in order
        hold.signal()
        done.wait()
        pipelined.finish(nil)
        #expect(output.log == (0..<total).map { "\($0)" } + ["finish"])
    }

    @Test("A failed write stops the writing, says so, and never leaves the decoder waiting")
    func failure() {
        // Given: output that fails on its tenth report (the reader went away)
        let output = RecordingOutput(failsAt: 10)
        let pipelined = PipelinedOutput(output)

        // When: many more batches than may wait
        let total = (PipelinedOutput.depth * 4) * Self.batch
        for i in 0..<total { _ = pipelined.write(.sentence("\(i)")) }
        pipelined.finish(nil)

        // Then: nothing after the failure was written, the run was told, and it ended
        #expect(pipelined.failed)
        #expect(output.log == (0..<10).map { "\($0)" } + ["finish"])
    }
}

/// An output that keeps what it was given and where, and can stall or fail on cue.
private final class RecordingOutput: WatchOutput, @unchecked Sendable {
    private let state = Mutex<(log: [String], threads: [ThreadIdentity])>(([], []))
    /// Waited on before the first write.
    private let hold: DispatchSemaphore?
    /// The write that fails, counting from 1.
    private let failsAt: Int?
    private var held = false
    private(set) var failed = false

    init(hold: DispatchSemaphore? = nil, failsAt: Int? = nil) {
        self.hold = hold
        self.failsAt = failsAt
    }

    var log: [String] { state.withLock { $0.log } }
    var threads: [ThreadIdentity] { state.withLock { $0.threads } }

    func write(_ event: LocationEvent) -> Int {
        if let hold, !held {
            hold.wait()
            held = true
        }
        let n = state.withLock { s -> Int in
            switch event {
            case .sentence(let line): s.log.append(line)
            default: s.log.append("status")
            }
            if !s.threads.contains(.current) { s.threads.append(.current) }
            return s.log.count
        }
        if n == failsAt { failed = true }
        return 1
    }

    func finish(_ end: LocationEvent?) {
        state.withLock { $0.log.append("finish") }
    }

    /// Whether `count` writes arrive within a few seconds.
    func waitForWrites(_ count: Int) -> Bool {
        for _ in 0..<200 {
            if log.count >= count { return true }
            usleep(10_000)
        }
        return false
    }
}
