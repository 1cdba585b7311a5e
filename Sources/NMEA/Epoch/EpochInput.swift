/// A decoded sentence the assembler can take: what its bookkeeping needs to know, and how
/// the sentence adds to an epoch. Each sentence type conforms in its own file; the assembler
/// is specialised for each and never copies a decoded sentence into an enum on the hot path.
protocol EpochInput: SentenceType {
    var facts: EpochAssembler.Facts { get }
    /// Whether the receiver marks this sentence's solution as its simulator's.
    var isSimulated: Bool { get }
    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics)
}

extension EpochInput {
    var isSimulated: Bool { false }
}
