import NMEA
import GPSLocation

/// What makes a capture a byte-stream source: it is opened once, read to its end, and
/// read again from the start while looping.
final class ReplayOpener: StreamOpener {
    private let path: String
    private let loop: Bool

    init(path: String, loop: Bool) {
        self.path = path
        self.loop = loop
    }

    func open() throws(LocationError) -> any ByteStream {
        let input = try ReplayInput.open(path)
        // Said before a byte is read: a loop that could not happen must not look like one
        // that did once.
        if loop && !input.isRegularFile { throw .cannotLoop(path: input.name) }
        return input
    }

    func afterEnd(of stream: any ByteStream, reason: String?, passes: Int, statistics: Statistics) -> StreamEndAction {
        if passes == 1 && statistics.sentences.decoded == 0 { return .fail(.notACapture(path: stream.name)) }
        guard loop, let input = stream as? ReplayInput else { return .finish }
        do {
            try input.rewind()
        } catch {
            return .fail(error)
        }
        return .again(input)
    }
}
