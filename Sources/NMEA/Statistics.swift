/// Sentences by what became of them.
public struct SentenceCounts: Hashable, Sendable {
    /// Indexed by `SentenceKind.rawValue`.
    public var byKind = [Int](repeating: 0, count: SentenceKind.count)
    /// Lines whose `*hh` did not match their bytes: dropped, as a noisy link or a wrong baud
    /// rate makes them.
    public var badChecksum = 0
    /// Lines that were no sentence (a stray `*`, a broken checksum field, an address of other
    /// than letters and digits): dropped.
    public var malformed = 0
    /// Accepted without a checksum (allowed, but a sign of an old receiver or a hand-made feed).
    public var withoutChecksum = 0
    /// Values outside their physical range (`Bounds`), read as unknown; their sentences were
    /// still used for everything else they said.
    public var outOfRange = 0

    /// Nothing counted yet.
    public init() {}

    /// Counts as a test or a source that is not the engine states them:
    /// `SentenceCounts(sentences: [SentenceKind(GGA.self): 10, .unknown: 2], badChecksum: 1)`.
    public init(sentences: [SentenceKind: Int] = [:], badChecksum: Int = 0, malformed: Int = 0,
                withoutChecksum: Int = 0, outOfRange: Int = 0) {
        for (kind, count) in sentences { byKind[kind.rawValue] += count }
        self.badChecksum = badChecksum
        self.malformed = malformed
        self.withoutChecksum = withoutChecksum
        self.outOfRange = outOfRange
    }

    /// Checked sentences of one kind, whether or not they decoded.
    public subscript(kind: SentenceKind) -> Int { byKind[kind.rawValue] }
    /// Checked sentences of one type (`counts[GGA.self]`).
    public subscript<T: SentenceType>(type: T.Type) -> Int { self[SentenceKind(type)] }
    /// Checked sentences of a type gpsfix does not read (HDT, TXT, AIS's `!AIVDM`, most
    /// proprietary ones): passed on to ``NMEAParser/onSentence``, not decoded.
    public var unknown: Int { self[.unknown] }
    /// Checked sentences of the types gpsfix reads.
    public var decoded: Int { byKind.reduce(0, +) - unknown }
}

/// Everything counted on one stream.
public struct Statistics: Hashable, Codable, Sendable {
    /// What the framer saw besides good lines: truncated and overlong lines, junk bytes.
    public var framing: FramingStatistics
    /// The checked lines, by type and by what became of them.
    public var sentences: SentenceCounts
    /// What the assembler made of the decoded sentences: epochs, fixes, repairs.
    public var epochs: EpochStatistics

    /// Counts as stated; every one left out is zero. A test's source reports its end with
    /// these (`.finished(Statistics(epochs: …))`).
    public init(framing: FramingStatistics = FramingStatistics(), sentences: SentenceCounts = SentenceCounts(),
                epochs: EpochStatistics = EpochStatistics()) {
        self.framing = framing
        self.sentences = sentences
        self.epochs = epochs
    }
}

// Per-kind counts are kept by the table's row numbers, which another release may order
// otherwise: they are written by name ("GGA": 12), and only those that are not zero.
extension SentenceCounts: Codable {
    private enum CodingKeys: String, CodingKey {
        case sentences, badChecksum, malformed, withoutChecksum, outOfRange
    }

    /// Reads counts stored by `encode(to:)`; a sentence name this release does not know is
    /// counted as unknown, and a count below zero is refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(badChecksum: try container.decodeIfPresent(Int.self, forKey: .badChecksum) ?? 0,
                  malformed: try container.decodeIfPresent(Int.self, forKey: .malformed) ?? 0,
                  withoutChecksum: try container.decodeIfPresent(Int.self, forKey: .withoutChecksum) ?? 0,
                  outOfRange: try container.decodeIfPresent(Int.self, forKey: .outOfRange) ?? 0)
        let named = try container.decodeIfPresent([String: Int].self, forKey: .sentences) ?? [:]
        for (name, count) in named {
            // A kind this release does not decode (one a later release added) is unknown here.
            let row = SentenceTable.rows.firstIndex { $0.name == name } ?? SentenceKind.unknown.rawValue
            let (sum, overflow) = byKind[row].addingReportingOverflow(count)
            guard count >= 0, !overflow else {
                throw DecodingError.dataCorruptedError(forKey: .sentences, in: container,
                                                       debugDescription: "\(name): \(count) is no count")
            }
            byKind[row] = sum
        }
    }

    /// Writes the per-kind counts by sentence name, those that are not zero.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var named: [String: Int] = [:]
        for (row, count) in byKind.enumerated() where count != 0 {
            named[SentenceKind(rawValue: row).description] = count
        }
        try container.encode(named, forKey: .sentences)
        try container.encode(badChecksum, forKey: .badChecksum)
        try container.encode(malformed, forKey: .malformed)
        try container.encode(withoutChecksum, forKey: .withoutChecksum)
        try container.encode(outOfRange, forKey: .outOfRange)
    }
}
