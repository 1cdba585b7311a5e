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
    /// The longest line kept, in bytes from its `$` to its checksum; a longer one is dropped and
    /// counted (``FramingStatistics/overlong``). gpsd's NMEA_MAX is 102 characters; real receivers
    /// exceed it with proprietary sentences (SkyTraq PSTI is ~100, MediaTek's `$PMTKCHN` 203,
    /// which gpsd passes on to its NMEA watchers, as gpsfix must), so allow some room.
    public static let maximumSentenceLength = 256

    /// Holds a sentence that spans two chunks; a sentence inside one chunk is lent in place.
    private var carry: [UInt8]
    private var length = 0
    private var inSentence = false
    private var running = Scanned()

    /// What this framer has seen so far besides good lines, since it was made.
    public private(set) var statistics = FramingStatistics()

    /// A framer between sentences, with its buffer of ``maximumSentenceLength`` bytes: the only
    /// allocation it makes.
    public init() {
        carry = [UInt8](repeating: 0, count: Framer.maximumSentenceLength)
    }

    /// Feeds `bytes` and calls `body` once per completed line that starts with `$` or `!`.
    /// The buffer passed to `body` holds the line without its terminator, and is valid only
    /// during the call.
    public mutating func feed(
        _ bytes: UnsafeRawBufferPointer,
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        try scan(bytes) { line, _, _ in try body(line) }
    }

    /// A line as `feed` lends it, with what the scan learned on the way: the XOR of every
    /// byte after the `$` and the number of `*` in it, so that checking the sentence needs no
    /// second pass over its bytes.
    struct Scanned {
        var xor: UInt8 = 0
        var stars = 0
    }

    mutating func scan(
        _ bytes: UnsafeRawBufferPointer,
        _ body: (UnsafeBufferPointer<UInt8>, UInt8, Int) throws -> Void
    ) rethrows {
        guard let raw = bytes.baseAddress, bytes.count > 0 else { return }
        let base = raw.assumingMemoryBound(to: UInt8.self)
        let n = bytes.count
        let limit = Framer.maximumSentenceLength
        var junk = 0
        var i = 0
        while i < n {
            if !inSentence {
                // Between sentences: skip to the next start, counting what is skipped.
                while i < n {
                    let b = base[i]
                    if b == ASCII.dollar || b == ASCII.bang { break }
                    if b != ASCII.cr && b != ASCII.lf { junk += 1 }
                    i += 1
                }
                guard i < n else { break }
                inSentence = true
                length = 0
            }
            // Inside a sentence: `start` is where this chunk's part of it begins. A sentence
            // that lies wholly in this chunk is lent in place; only one that spans chunks is
            // copied into `carry`.
            let start = i
            if length == 0 {
                i += 1 // its `$`
                running = Scanned()
            }
            let end = min(n, start + (limit - length))
            var x = running.xor, stars = running.stars
            // Eight bytes at a time up to the first that is not ordinary (a `*`, the line's
            // end, a new start, anything not printable): most of a sentence is its fields.
            let ordinary = Framer.ordinaryRun(base + i, upTo: end - i)
            x ^= ordinary.xor
            i += ordinary.count
            // The rest a byte at a time: the checksum's `*` and digits, then whatever ends it.
            while i < end {
                let b = base[i]
                if b &- 0x20 >= 0x5F || b == ASCII.dollar || b == ASCII.bang { break }
                if b == ASCII.star { stars &+= 1 }
                x ^= b
                i += 1
            }
            running = Scanned(xor: x, stars: stars)
            let part = i - start
            guard i < n else {
                // The chunk ended inside the sentence: keep it for the next chunk.
                append(base + start, part)
                break
            }
            let b = base[i]
            if b == ASCII.cr || b == ASCII.lf {
                inSentence = false
                statistics.lines += 1
                if length == 0 {
                    try body(UnsafeBufferPointer(start: base + start, count: part), x, stars)
                } else {
                    append(base + start, part)
                    let total = length
                    length = 0
                    try carry.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<total]), x, stars) }
                }
                i += 1
            } else if b == ASCII.dollar || b == ASCII.bang {
                // A start inside a sentence: the earlier one was cut short. Begin again here.
                statistics.truncated += 1
                junk += length + part
                length = 0
            } else if b &- 0x20 >= 0x5F {
                // NUL, binary packet or line noise: the sentence cannot be whole.
                statistics.truncated += 1
                junk += length + part + 1
                inSentence = false
                length = 0
                i += 1
            } else {
                // Printable, but past the limit: an overlong line. Skip to the next start.
                statistics.overlong += 1
                junk += length + part
                inSentence = false
                length = 0
            }
        }
        statistics.junkBytes += junk
    }

    /// The length of the run of ordinary bytes (printable, none of `$`, `!` or `*`) from `p`,
    /// at most `limit`, looked at eight at a time, and the XOR of its bytes. What stops the run
    /// is left to the byte-by-byte scan; a run shorter than eight bytes is left to it whole.
    @inline(__always)
    static func ordinaryRun(_ p: UnsafePointer<UInt8>, upTo limit: Int) -> (count: Int, xor: UInt8) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var k = 0
        var x: UInt64 = 0
        while k &+ 8 <= limit {
            let w = UInt64(littleEndian: UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self))
            // A byte's high bit is set in `stops` when it is below 0x20, 0x7F or above, `$`,
            // `!` or `*`. Borrows and carries between bytes only run upwards, from a byte that
            // is itself flagged, so the lowest flag is always exact: the only one used.
            let outside = ((w &- 0x20 &* ones) & ~w) | (w &+ ones) | w
            let stops = (outside | Self.zeroBytes(w ^ (0x24 &* ones)) | Self.zeroBytes(w ^ (0x21 &* ones))
                | Self.zeroBytes(w ^ (0x2A &* ones))) & highs
            if stops != 0 {
                let before = stops.trailingZeroBitCount >> 3
                x ^= w & ((1 &<< (UInt64(before) &* 8)) &- 1)
                k &+= before
                break
            }
            x ^= w
            k &+= 8
        }
        x ^= x >> 32
        x ^= x >> 16
        x ^= x >> 8
        return (k, UInt8(truncatingIfNeeded: x))
    }

    /// High bits set in the zero bytes of `v` (and, past the lowest, perhaps in others).
    @inline(__always)
    private static func zeroBytes(_ v: UInt64) -> UInt64 {
        (v &- 0x0101_0101_0101_0101) & ~v
    }

    private mutating func append(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
        let offset = length
        carry.withUnsafeMutableBufferPointer { c in
            for k in 0..<count { c[offset + k] = bytes[k] }
        }
        length += count
    }

    /// Whether a sentence has started but not ended: what `finish()` would discard.
    public var hasPartialSentence: Bool { inSentence }

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
public struct FramingStatistics: Hashable, Codable, Sendable {
    /// Lines that started with `$` or `!` and were terminated.
    public var lines = 0
    /// Sentences cut off by a new `$`, a non-printable byte or the end of the stream.
    public var truncated = 0
    /// Runs longer than `Framer.maximumSentenceLength`, dropped.
    public var overlong = 0
    /// Bytes that belonged to no complete sentence (binary packets, banners, broken sentences).
    public var junkBytes = 0

    /// All counts zero: a stream not yet read, or a source that frames nothing (gpsd's reports).
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
