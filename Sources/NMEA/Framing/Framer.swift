/// Cuts a byte stream that arrives in arbitrary chunks into candidate NMEA 0183 sentences.
///
/// A sentence starts at `$` (or `!`, used by AIS and some proprietary talkers) and ends at CR LF,
/// a bare LF or a bare CR: real receivers and converters send all three. Everything between
/// sentences — binary packets (u-blox UBX, SiRF), NULs, banners — is counted as junk and skipped,
/// and a `$` in the middle of a sentence abandons the broken one and starts afresh, so a glued or
/// truncated sentence costs only itself.
///
/// The framer owns one fixed buffer; a completed sentence is lent to the caller's closure and
/// must not escape it. Nothing here allocates in steady state.
public struct Framer: Sendable {
    /// gpsd's NMEA_MAX is 102 characters; real receivers exceed it a little with proprietary
    /// sentences (SkyTraq PSTI is ~100), so allow some slack and drop anything longer.
    public static let maximumSentenceLength = 128

    private var buffer: [UInt8]
    private var length = 0
    private var inSentence = false

    public private(set) var statistics = FramingStatistics()

    public init() {
        buffer = [UInt8](repeating: 0, count: Framer.maximumSentenceLength)
    }

    /// Feeds `bytes` and calls `body` once per completed line that starts with `$` or `!`.
    /// The buffer passed to `body` holds the line without its terminator.
    public mutating func feed(
        _ bytes: UnsafeRawBufferPointer,
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        guard !bytes.isEmpty else { return }
        let limit = Framer.maximumSentenceLength
        try buffer.withUnsafeMutableBufferPointer { line in
            var junk = 0
            for byte in bytes {
                if byte == ASCII.dollar || byte == ASCII.bang {
                    if inSentence {
                        // A start inside a sentence: the earlier one was cut short.
                        statistics.truncated += 1
                        junk += length
                    }
                    inSentence = true
                    line[0] = byte
                    length = 1
                    continue
                }
                guard inSentence else {
                    if byte != ASCII.cr && byte != ASCII.lf { junk += 1 }
                    continue
                }
                if byte == ASCII.cr || byte == ASCII.lf {
                    inSentence = false
                    statistics.lines += 1
                    let end = length
                    length = 0
                    try body(UnsafeBufferPointer(rebasing: line[0..<end]))
                    continue
                }
                if byte < 0x20 || byte > 0x7E {
                    // NUL, binary packet or line noise: the sentence cannot be whole.
                    statistics.truncated += 1
                    junk += length + 1
                    inSentence = false
                    length = 0
                    continue
                }
                if length == limit {
                    statistics.overlong += 1
                    junk += length + 1
                    inSentence = false
                    length = 0
                    continue
                }
                line[length] = byte
                length += 1
            }
            statistics.junkBytes += junk
        }
    }

    /// Whether a sentence has started but not ended: what `finish()` would discard.
    public var hasPartialSentence: Bool { inSentence && length > 0 }

    /// Ends the stream: a sentence without its terminator is counted as truncated.
    public mutating func finish() {
        if inSentence {
            statistics.truncated += 1
            statistics.junkBytes += length
        }
        inSentence = false
        length = 0
    }
}

/// What the framer saw besides good lines.
public struct FramingStatistics: Equatable, Sendable {
    /// Lines that started with `$` or `!` and were terminated.
    public var lines = 0
    /// Sentences cut off by a new `$`, a non-printable byte or the end of the stream.
    public var truncated = 0
    /// Runs longer than `Framer.maximumSentenceLength`, dropped.
    public var overlong = 0
    /// Bytes that belonged to no complete sentence (binary packets, banners, broken sentences).
    public var junkBytes = 0

    public init() {}
}

enum ASCII {
    static let dollar: UInt8 = 0x24
    static let bang: UInt8 = 0x21
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let comma: UInt8 = 0x2C
    static let star: UInt8 = 0x2A
    static let dot: UInt8 = 0x2E
    static let minus: UInt8 = 0x2D
    static let plus: UInt8 = 0x2B
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let space: UInt8 = 0x20

    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte &- 0x30
        case 0x41...0x46: byte &- 0x37
        case 0x61...0x66: byte &- 0x57
        default: nil
        }
    }
}
