/// One checked NMEA sentence, lent by the engine for the duration of a call.
///
/// `body` is everything between the leading `$` and the `*` of the checksum: the address
/// (`GPGGA`, `PGRME`, `PUBX`) and the fields. It points into the framer's buffer, so a
/// `Sentence` must never be stored; decode it into a value instead.
public struct Sentence {
    /// The address and fields, from after the `$` up to the checksum's `*` (or the end of a line
    /// without one, trailing spaces dropped), borrowed from the framer's buffer.
    public let body: UnsafeBufferPointer<UInt8>
    /// The whole line as received, `$` to checksum, without its terminator: what a
    /// passthrough repeats byte for byte.
    public let line: UnsafeBufferPointer<UInt8>
    /// Where the address ends (the first comma, or the end of the body). The end of the body,
    /// too, for a checksummed line whose address runs into text without a comma (SiRF's
    /// `$PSRFTXTVersion GSW3.2.2…*78`): no sentence the table reads (``SentenceKind/unknown``),
    /// but passed on as received.
    public let addressEnd: Int
    /// Whether the line ended in a `*hh` checksum (which matched: a line whose checksum does not
    /// is no `Sentence`). A line without one is accepted, as gpsd accepts it, and counted in
    /// ``SentenceCounts/withoutChecksum``.
    public let hasChecksum: Bool

    /// Why a framed line is not a usable sentence.
    public enum Rejection: Error, Equatable, Sendable {
        /// The `*hh` checksum does not match the sentence's bytes.
        case badChecksum
        /// A `*` that is not followed by exactly two hex digits, or no valid address: fewer than
        /// two letters or digits before the first comma, or, in a line without a checksum to
        /// vouch for it, anything but capital letters and digits there.
        case malformed
    }

    /// Checks a framed line (starting with `$` or `!`, without its terminator).
    ///
    /// A line without any `*hh` is accepted, as gpsd accepts it: NMEA 0183 made the checksum
    /// mandatory only for some sentences, and old receivers (and hand-typed test input) omit
    /// it. The caller counts such sentences so that a noisy link shows up in the statistics.
    public static func check(_ line: UnsafeBufferPointer<UInt8>) -> Result<Sentence, Rejection> {
        var xor: UInt8 = 0
        var stars = 0
        for i in 1..<max(line.count, 1) {
            xor ^= line[i]
            if line[i] == ASCII.star { stars += 1 }
        }
        return check(line, xor: xor, stars: stars)
    }

    /// `check` with the XOR of the bytes after `$` and the count of `*` already known (the
    /// framer works them out while it looks for the line's end).
    static func check(_ line: UnsafeBufferPointer<UInt8>, xor: UInt8, stars: Int) -> Result<Sentence, Rejection> {
        var end = line.count
        var sum = xor
        while end > 1 && line[end - 1] == ASCII.space {
            end -= 1
            sum ^= ASCII.space
        }
        guard end >= 2 else { return .failure(.malformed) }
        var bodyEnd = end
        var expected: UInt8?
        var strayStars = stars
        if end >= 4, line[end - 3] == ASCII.star,
           let high = ASCII.hexValue(line[end - 2]), let low = ASCII.hexValue(line[end - 1]) {
            bodyEnd = end - 3
            expected = high << 4 | low
            sum ^= ASCII.star ^ line[end - 2] ^ line[end - 1]
            strayStars -= 1
        }
        // A `*` anywhere else: a fused or cut line whose checksum cannot be trusted.
        guard strayStars == 0 else { return .failure(.malformed) }
        if let expected, sum != expected { return .failure(.badChecksum) }
        let hasChecksum = expected != nil
        let body = UnsafeBufferPointer(rebasing: line[1..<bodyEnd])
        var addressEnd = 0
        while addressEnd < body.count {
            let c = body[addressEnd]
            if c == ASCII.comma { break }
            // Letters and digits only: anything else means a broken or fused line, unless its
            // checksum vouches for it: then it is a sentence whose address runs into its text
            // (`$PSRFTXTVersion …`), read by nothing but passed through as gpsd passes it, its
            // whole body its address so that no row of the table can match it.
            guard (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) else {
                guard hasChecksum, addressEnd >= 2 else { return .failure(.malformed) }
                addressEnd = body.count
                break
            }
            addressEnd += 1
        }
        guard addressEnd >= 2 else { return .failure(.malformed) }
        return .success(Sentence(body: body, line: line, addressEnd: addressEnd, hasChecksum: hasChecksum))
    }

    /// The two-letter talker (`GP`, `GN`, `BD` …), or nil for a proprietary (`P…`) sentence.
    public var talker: Talker? {
        guard addressEnd == 5 || (addressEnd >= 5 && body[0] != 0x50) else { return nil }
        // `P` starts proprietary addresses, except `PQ…`, a QZSS talker some Quectel
        // firmware uses with standard formatters (`$PQGSV`).
        guard body[0] != 0x50 || body[1] == 0x51 else { return nil }
        return Talker(body[0], body[1])
    }

    /// The fields after the address, in order; a field past the end reads as empty.
    public var fields: FieldCursor {
        FieldCursor(body: body, position: addressEnd)
    }

    /// The address as text, for display and diagnostics (allocates: not for the hot path).
    public var address: String {
        String(decoding: UnsafeBufferPointer(rebasing: body[0..<addressEnd]), as: UTF8.self)
    }
}

/// Computes the NMEA checksum (XOR of the bytes between `$` and `*`) of a sentence body.
public func nmeaChecksum<Bytes: Sequence<UInt8>>(_ body: Bytes) -> UInt8 {
    body.reduce(0, ^)
}
