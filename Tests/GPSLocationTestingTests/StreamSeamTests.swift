import GPSLocation
import GPSSources
import GPSSystem
import GPSTestSupport
import NMEA
import Testing

/// A byte-stream source from a module other than GPSSources (as GPSMQTT or an app's own
/// package module would write one), through the seams' `package` API alone: no `@testable`.
@Suite struct StreamSeamTests {
    /// Bytes held in memory, read in pieces of `piece` without waiting (`descriptor` nil).
    final class MemoryStream: ByteStream {
        let name = "memory"
        let descriptor: FileDescriptor? = nil
        private let bytes: [UInt8]
        private let piece: Int
        private var offset = 0

        init(_ text: String, piece: Int) {
            bytes = Array(text.utf8)
            self.piece = piece
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamRead {
            guard offset < bytes.count else { return .end(reason: nil) }
            let count = min(piece, buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + count])) }
            offset += count
            return .bytes(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    final class MemoryOpener: StreamOpener {
        let text: String
        init(_ text: String) { self.text = text }
        func open() throws(LocationError) -> any ByteStream { MemoryStream(text, piece: 5) }
        func afterEnd(of stream: any ByteStream, reason: String?, passes: Int, statistics: Statistics) -> StreamEndAction {
            .finish
        }
    }

    final class MemoryManager: LocationManagerInterface {
        let source = StreamSource(threadName: "memory-test")
        let text: String
        init(_ text: String) { self.text = text }
        var sourceDescription: String { "memory" }
        var delegate: (any LocationManagerDelegate)? {
            get { source.relay.delegate }
            set { source.relay.delegate = newValue }
        }
        func startUpdatingLocation() {
            var settings = StreamReader.Settings()
            settings.announcesLink = false
            let text = text
            source.start(self, settings: settings) { _ in MemoryOpener(text) }
        }
        func stopUpdatingLocation() { source.stop() }
    }

    @Test func aSourceInAnotherModuleReadsThroughTheSameReader() async {
        let text = (0..<3).flatMap(TestCapture.epoch).map { $0 + "\r\n" }.joined()
        let manager = MemoryManager(text)
        let recorder = Recorder()
        manager.delegate = recorder
        manager.startUpdatingLocation()
        #expect(await waitUntil(.seconds(5)) { recorder.calls.last.map { if case .status(.finished) = $0 { true } else { false } } ?? false })
        let fixes = recorder.calls.filter { if case .fix = $0 { true } else { false } }
        #expect(fixes.count == 3)
        guard case .status(.finished(let statistics))? = recorder.calls.last else { return }
        #expect(statistics.epochs.fixes == 3)
        #expect(statistics.sentences.badChecksum == 0)
    }
}
