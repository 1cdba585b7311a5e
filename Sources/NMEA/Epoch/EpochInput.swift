/// A decoded sentence the assembler can take: what its bookkeeping needs to know, and how
/// the sentence adds to an epoch. Each sentence type conforms in its own file; the assembler
/// is specialised for each and never copies a decoded sentence into an enum on the hot path.
protocol EpochInput: SentenceType {
    var facts: EpochAssembler.Facts { get }
    /// Whether the receiver marks this sentence's solution as its simulator's.
    var isSimulated: Bool { get }
    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics)
    /// Decodes a sentence of this type and hands it to the assembler. Called through the
    /// table row's metatype: the path is specialised for the type, and nothing is retained
    /// per sentence (a closure per row would be, its context, twice a sentence).
    static func feed(_ sentence: Sentence, talker: Talker?, kind: SentenceKind, assembler: inout EpochAssembler,
                     counts: inout SentenceCounts, emit: (EngineEvent) -> Void)
}

extension EpochInput {
    var isSimulated: Bool { false }

    static func feed(_ sentence: Sentence, talker: Talker?, kind: SentenceKind, assembler: inout EpochAssembler,
                     counts: inout SentenceCounts, emit: (EngineEvent) -> Void) {
        guard let decoded = Self(sentence) else { return }
        counts.outOfRange &+= decoded.outOfRange
        assembler.consume(decoded, kind: kind, talker: talker, emit: emit)
    }
}
