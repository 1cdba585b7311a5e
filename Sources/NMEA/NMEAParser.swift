/// The whole engine: bytes in, fixes and sky views out. No I/O, no clock, no Foundation.
///
/// Feed it whatever chunks the source delivers; it frames, checks, decodes and groups them into
/// epochs, and calls back with each completed fix or sky view. One parser per stream: its state
/// (partial sentence, learned cycle ender, last date) belongs to that stream.
public final class NMEAParser {
    /// The stream's framer, with its ``Framer/statistics`` and whether a sentence is half read.
    public private(set) var framer = Framer()
    private var core = Core()

    /// The stream's epoch assembler, for its ``EpochAssembler/statistics`` and its setting.
    public var assembler: EpochAssembler { core.assembler }
    /// The stream's sentences so far, by type and by what became of them.
    public var counts: SentenceCounts { core.counts }

    /// Called with every sentence that passed its checksum, before it is decoded: the hook for
    /// NMEA passthrough and recording.
    public var onSentence: ((Sentence, SentenceKind) -> Void)? {
        get { core.onSentence }
        set { core.onSentence = newValue }
    }

    /// `acceptsSimulatedFixes`: take a receiver's simulator or demo output (GGA quality 8,
    /// mode S) as fixes; by default it is no fix (see `EpochAssembler`).
    public init(acceptsSimulatedFixes: Bool = false) {
        core.assembler = EpochAssembler(acceptsSimulatedFixes: acceptsSimulatedFixes)
    }

    /// Reads the next chunk of the stream, cut anywhere (a sentence may span chunks), and calls
    /// `emit` with each fix and sky view it completes, on this thread and before returning.
    /// Allocates nothing in steady state.
    public func parse(_ bytes: UnsafeRawBufferPointer, emit: (EngineEvent) -> Void) {
        Self.parse(bytes, framer: &framer, core: &core, emit: emit)
    }

    /// The framer and the rest as two `inout`s: each is accessed once per chunk rather than
    /// once per sentence (a class's stored properties are checked for exclusive access on
    /// every use).
    private static func parse(_ bytes: UnsafeRawBufferPointer, framer: inout Framer, core: inout Core, emit: (EngineEvent) -> Void) {
        framer.scan(bytes) { line, xor, stars in
            core.handle(line, xor: xor, stars: stars, emit: emit)
        }
    }

    /// Reads the next chunk of the stream from any collection of bytes (`Array`, `Data`, a
    /// slice), as the `UnsafeRawBufferPointer` form does; copies the chunk once.
    public func parse(_ bytes: some Collection<UInt8>, emit: (EngineEvent) -> Void) {
        let array = Array(bytes)
        array.withUnsafeBytes { parse($0, emit: emit) }
    }

    /// Ends the stream: the epoch in progress is reported and a cut-off sentence counted.
    public func finish(emit: (EngineEvent) -> Void) {
        framer.finish()
        core.assembler.finish(emit: emit)
    }

    /// Parses a whole buffer and returns every event: for tests and small inputs.
    public static func events(of bytes: some Collection<UInt8>) -> [EngineEvent] {
        let parser = NMEAParser()
        var events: [EngineEvent] = []
        parser.parse(bytes) { events.append($0) }
        parser.finish { events.append($0) }
        return events
    }

    /// Everything counted on this stream so far: framing, sentences and epochs.
    public var statistics: Statistics {
        Statistics(framing: framer.statistics, sentences: counts, epochs: assembler.statistics)
    }

}

/// Everything after framing: checking, counting, decoding, assembling.
struct Core {
    /// The table, held here so the hot path reads no lazily initialised global.
    let rows = SentenceTable.rows
    let addresses = SentenceTable.addresses
    var assembler = EpochAssembler()
    var counts = SentenceCounts()
    var onSentence: ((Sentence, SentenceKind) -> Void)?

    @inline(__always)
    mutating func handle(_ line: UnsafeBufferPointer<UInt8>, xor: UInt8, stars: Int, emit: (EngineEvent) -> Void) {
        let sentence: Sentence
        switch Sentence.check(line, xor: xor, stars: stars) {
        case .success(let s): sentence = s
        case .failure(.badChecksum):
            counts.badChecksum += 1
            return
        case .failure(.malformed):
            counts.malformed += 1
            return
        }
        if !sentence.hasChecksum { counts.withoutChecksum += 1 }
        let kind = SentenceKind(rawValue: SentenceTable.index(of: sentence, in: addresses))
        counts.byKind[kind.rawValue] += 1
        onSentence?(sentence, kind)
        // Decoded straight into its own type and handed on, by its row of the table.
        guard kind.rawValue < rows.count else { return }
        rows[kind.rawValue].type.feed(sentence, talker: sentence.talker, kind: kind, assembler: &assembler, counts: &counts, emit: emit)
    }
}

