import Foundation
import NMEA
import Testing

// Helpers shared by the NMEA tests. The checksum here is computed independently of the
// engine (a plain XOR over the UTF-8 bytes), so that a test never trusts the engine to
// build its own input.

/// A whole sentence with its checksum: `nmea("GPGGA,...")` is `"$GPGGA,...*hh\r\n"`.
func nmea(_ body: String, ending: String = "\r\n", lowercase: Bool = false) -> String {
    let hex = hexChecksum(body)
    return "$" + body + "*" + (lowercase ? hex.lowercased() : hex) + ending
}

/// The two uppercase hex digits of the XOR of `body`'s bytes.
func hexChecksum(_ body: String) -> String {
    let sum = body.utf8.reduce(UInt8(0), ^)
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(sum >> 4)], digits[Int(sum & 0xF)]])
}

/// Several sentences, each with its checksum and CR LF.
func nmea(_ bodies: [String]) -> String { bodies.map { nmea($0) }.joined() }

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Every event of a whole stream, finished.
func events(_ text: String, acceptsSimulatedFixes: Bool = false) -> [EngineEvent] {
    let parser = NMEAParser(acceptsSimulatedFixes: acceptsSimulatedFixes)
    var out: [EngineEvent] = []
    parser.parse(bytes(text)) { out.append($0) }
    parser.finish { out.append($0) }
    return out
}

/// A parser that has read `text` (not finished), and the events it emitted.
func parsed(_ input: [UInt8], finish: Bool = true) -> (parser: NMEAParser, events: [EngineEvent]) {
    let parser = NMEAParser()
    var out: [EngineEvent] = []
    parser.parse(input) { out.append($0) }
    if finish { parser.finish { out.append($0) } }
    return (parser, out)
}

/// The same, fed one byte per call, as a slow serial line delivers it.
func dribbled(_ input: [UInt8]) -> (parser: NMEAParser, events: [EngineEvent]) {
    let parser = NMEAParser()
    var out: [EngineEvent] = []
    for b in input { parser.parse([b]) { out.append($0) } }
    parser.finish { out.append($0) }
    return (parser, out)
}

extension Array where Element == EngineEvent {
    var fixes: [Fix] { compactMap { if case .fix(let f) = $0 { f } else { nil } } }
    var skies: [SkyView] { compactMap { if case .sky(let s) = $0 { s } else { nil } } }
}

// MARK: - Decoding one sentence

/// Checks and decodes one line (with or without terminator), as the parser would.
/// A sentence body (`GPGGA,…`) framed, checksummed and decoded.
func decoded(_ body: String) -> (any SentenceType)? { decode(nmea(body)) }

func decode(_ line: String) -> (any SentenceType)? {
    var raw = bytes(line)
    while let last = raw.last, last == 0x0D || last == 0x0A { raw.removeLast() }
    return raw.withUnsafeBufferPointer { buffer -> (any SentenceType)? in
        guard case .success(let s) = Sentence.check(buffer) else { return nil }
        return SentenceTable.decode(s)
    }
}

/// What `Sentence.check` says about one line, copied out of the borrowed buffer.
struct Checked: Sendable {
    var address: String
    var talker: String?
    var constellation: Constellation?
    var kind: SentenceKind
    var hasChecksum: Bool
}

func check(_ line: String) -> Result<Checked, Sentence.Rejection> {
    var raw = bytes(line)
    while let last = raw.last, last == 0x0D || last == 0x0A { raw.removeLast() }
    return raw.withUnsafeBufferPointer { buffer in
        Sentence.check(buffer).map { s in
            Checked(address: s.address, talker: s.talker?.description, constellation: s.talker?.constellation,
                    kind: SentenceKind(s), hasChecksum: s.hasChecksum)
        }
    }
}

// MARK: - Numbers

/// `ddmm.mmmm` by hand: degrees plus minutes over sixty, signed by hemisphere.
func degrees(_ whole: Double, _ minutes: Double, negative: Bool = false) -> Double {
    let v = whole + minutes / 60
    return negative ? -v : v
}

func near(_ a: Double?, _ b: Double, within tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance
}

// MARK: - Files

/// The package root, found from this file's path: Tests/NMEATests/TestSupport.swift.
let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The bytes of one of the project's own captures in Captures/.
func capture(_ name: String) throws -> [UInt8] {
    let url = packageRoot.appendingPathComponent("Captures").appendingPathComponent(name)
    return try [UInt8](Data(contentsOf: url))
}
