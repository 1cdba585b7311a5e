/// TXT — Text Transmission (NMEA 0183 §8.3.88).
///
/// `$--TXT,xx,xx,xx,c--c*hh`: how many sentences the message takes, which one this is, its
/// kind (u-blox: 00 error, 01 warning, 02 notice, 07 user) and up to 61 characters of text.
/// u-blox receivers send their start-up banner (`$GNTXT,01,01,02,u-blox AG - www.u-blox.com`,
/// `HW UBX-M80xx 00080000`, `PROTVER 15.00`…) and their antenna's state (`ANTENNA OK`,
/// `ANTENNA OPEN`) this way; a Telit SL869 sends `$GPTXT,TELIT SW Version: …`, text alone.
///
/// Not part of any epoch: each message, its parts joined, is an ``EngineEvent/note(_:)`` as
/// soon as its last part arrives (a ``ReceiverNote``). gpsd only logs TXT (its `processTXT`:
/// "TXT: Notice: …" at warning level); its JSON has no member for it.
public struct TXT: Equatable, Sendable {
    /// Field 1, how many sentences the message takes, 1…99; nil when empty, out of range
    /// (counted), or a sentence of text alone.
    public var totalParts: Int?
    /// Field 2, which of them this is, 1…``totalParts``; nil as ``totalParts`` is, or past it
    /// (counted).
    public var part: Int?
    /// Field 3, the message's kind; nil when empty or outside 0…99 (counted).
    public var severity: ReceiverNote.Severity?
    /// The text: what follows the third field (commas and all), or, in a sentence of fewer than
    /// four fields, all of it; as sent, at most ``ReceiverNote/maximumLength`` bytes.
    public var text: String
    /// Whether the text was longer than ``ReceiverNote/maximumLength`` and was cut.
    public var isCut = false
    /// Fields that held a value outside its physical range (`Bounds`): read as unknown.
    public var outOfRange = 0

    /// Reads the fields of a TXT from any talker (`GPTXT`, `GNTXT`, …); the caller has matched
    /// the address, as ``SentenceTable/decode(_:)`` does. A field that is empty, malformed or
    /// outside its range is nil (counted in ``outOfRange`` when out of range), never a failure.
    public init(_ s: Sentence) {
        var f = s.fields
        let start: Int
        if f.remaining >= 4 {
            totalParts = f.integer(in: 1...99)
            part = f.integer(in: 1...99)
            if let p = part, let t = totalParts, p > t {
                // Part 3 of 2: neither number can be trusted.
                f.outOfRange &+= 1
                part = nil
                totalParts = nil
            }
            severity = f.integer(in: 0...99).flatMap(ReceiverNote.Severity.init(rawValue:))
            start = f.position + 1
        } else {
            start = s.addressEnd + 1
        }
        let body = s.body
        let end = min(body.count, max(start, 0) + ReceiverNote.maximumLength)
        isCut = body.count > end
        text = start < end ? String(decoding: UnsafeBufferPointer(rebasing: body[start..<end]), as: UTF8.self) : ""
        outOfRange = f.outOfRange
    }
}

extension TXT: EpochInput {
    public static var address: StaticString { "TXT" }

    // A message belongs to no epoch: never merged (see `feed`).
    var facts: EpochAssembler.Facts { EpochAssembler.Facts() }
    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {}

    /// Decoded and handed to the assembler's notes, not to its epoch: a receiver's banner of
    /// five TXTs in a row would otherwise read as five cycles (a sentence repeated starts one).
    static func feed(_ sentence: Sentence, talker: Talker?, kind: SentenceKind, assembler: inout EpochAssembler,
                     counts: inout SentenceCounts, emit: (EngineEvent) -> Void) {
        let txt = TXT(sentence)
        counts.outOfRange &+= txt.outOfRange
        assembler.notes.take(txt, emit: emit)
    }
}

/// Joins the parts of multi-part TXT messages into notes. A message's parts come in order,
/// one after another; a part out of turn ends the message before it (reported incomplete)
/// and starts one of its own. Bounded: ``ReceiverNote/maximumLength`` bytes of text and
/// ``ReceiverNote/maximumParts`` parts a message.
struct NoteAssembly: Sendable {
    private var text: [UInt8] = []
    private var severity: ReceiverNote.Severity?
    private var total = 0
    private var next = 0
    private var complete = true
    private var pending = false

    mutating func take(_ txt: TXT, emit: (EngineEvent) -> Void) {
        guard let total = txt.totalParts, let part = txt.part, total > 1 else {
            // A message in one sentence (or one that does not say): a note of its own.
            finish(emit: emit)
            emit(.note(ReceiverNote(severity: txt.severity, text: Self.trimmed(Array(txt.text.utf8)),
                                    isComplete: !txt.isCut && (txt.totalParts ?? 1) == 1)))
            return
        }
        if !(pending && part == next && total == self.total && txt.severity == severity) {
            // A new message: the one before, if any, lost its later parts.
            finish(emit: emit)
            pending = true
            text.removeAll(keepingCapacity: true)
            severity = txt.severity
            self.total = total
            complete = part == 1
        }
        if part <= ReceiverNote.maximumParts, text.count < ReceiverNote.maximumLength {
            let room = ReceiverNote.maximumLength - text.count
            let bytes = txt.text.utf8
            text.append(contentsOf: bytes.prefix(room))
            if bytes.count > room || txt.isCut { complete = false }
        } else {
            complete = false
        }
        next = part + 1
        if part == total { finish(emit: emit) }
    }

    /// Reports the message in progress, if any (at its last part, or as it stands when
    /// another begins or the stream ends).
    mutating func finish(emit: (EngineEvent) -> Void) {
        guard pending else { return }
        pending = false
        let done = complete && next > total
        emit(.note(ReceiverNote(severity: severity, text: Self.trimmed(text), isComplete: done)))
        text.removeAll(keepingCapacity: true)
    }

    /// The text without the spaces around it (u-blox pads some lines: `HW UBX-M80xx 00080000 `).
    private static func trimmed(_ bytes: [UInt8]) -> String {
        var start = 0, end = bytes.count
        while start < end && bytes[start] == 0x20 { start += 1 }
        while end > start && bytes[end - 1] == 0x20 { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
