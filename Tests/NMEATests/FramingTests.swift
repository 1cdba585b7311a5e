import GPSTestSupport
import NMEA
import Testing

/// Runs the framer over `chunks` and returns the lines it lent out, as text.
private func frame(_ chunks: [[UInt8]], finish: Bool = true) -> (lines: [String], statistics: FramingStatistics, partial: Bool) {
    var framer = Framer()
    var lines: [String] = []
    for chunk in chunks {
        chunk.withUnsafeBytes { raw in
            framer.feed(raw) { lines.append(String(decoding: $0, as: UTF8.self)) }
        }
    }
    let partial = framer.hasPartialSentence
    if finish { framer.finish() }
    return (lines, framer.statistics, partial)
}

private func frame(_ text: String) -> (lines: [String], statistics: FramingStatistics, partial: Bool) {
    frame([bytes(text)])
}

private let gga = "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
private let rmc = "GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"

/// A sentence of exactly `length` bytes from `$` to the last checksum digit.
private func sentence(ofLength length: Int) -> String {
    // `$` + "PXYZ," + padding + "*hh": 9 bytes besides the padding.
    let body = "PXYZ," + String(repeating: "A", count: length - 9)
    let line = nmea(body, ending: "")
    precondition(line.utf8.count == length)
    return line
}

@Suite("Framing")
struct FramingTests {
    @Test("CR LF, LF and CR all end a sentence", arguments: ["\r\n", "\n", "\r", "\n\r"])
    func lineEndings(ending: String) {
        // Given two sentences ended by `ending`
        let text = nmea(gga, ending: ending) + nmea(rmc, ending: ending)
        // When they are framed
        let result = frame(text)
        // Then both lines come out whole, without their terminators, and nothing is junk
        #expect(result.lines == ["$\(gga)*47", "$\(rmc)*6A"])
        #expect(result.statistics.lines == 2)
        #expect(result.statistics.junkBytes == 0)
        #expect(result.statistics.truncated == 0)
    }

    @Test("text between sentences is junk, counted byte for byte")
    func banner() {
        // Given a banner line ("Hello GPS", 9 bytes) before a sentence
        let result = frame("Hello GPS\r\n" + nmea(gga))
        // Then the banner is skipped and counted, its CR LF is not, and the sentence is framed
        #expect(result.lines == ["$\(gga)*47"])
        #expect(result.statistics.junkBytes == 9)
    }

    @Test("a `$` inside a sentence cuts the earlier one and starts afresh")
    func glued() {
        // Given a GGA cut off after 11 bytes by the start of an RMC
        let result = frame("$GPGGA,1235" + nmea(rmc))
        // Then the RMC comes out whole, and the stub is one truncated sentence of 11 junk bytes
        #expect(result.lines == ["$\(rmc)*6A"])
        #expect(result.statistics.truncated == 1)
        #expect(result.statistics.junkBytes == 11)
    }

    @Test("two `$` in a row: the first is an empty cut sentence")
    func doubleDollar() {
        let result = frame("$" + nmea(gga))
        #expect(result.lines == ["$\(gga)*47"])
        #expect(result.statistics.truncated == 1)
    }

    @Test("a NUL or any non-printable byte inside a sentence truncates it", arguments: [0x00, 0x07, 0x7F, 0x80, 0xB5, 0xFF] as [UInt8])
    func nonPrintable(byte: UInt8) {
        // Given a GGA with `byte` in the middle, then a good RMC
        var input = bytes("$GPGGA,123519,4807")
        input.append(byte)
        input += bytes(".038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n" + nmea(rmc))
        // When it is framed
        let result = frame([input])
        // Then the GGA is lost as truncated, its remainder is junk, and the RMC survives
        #expect(result.lines == ["$\(rmc)*6A"])
        #expect(result.statistics.truncated == 1)
        #expect(result.statistics.lines == 1)
    }

    @Test("binary packets between sentences are junk, not sentences")
    func binaryBetween() {
        // Given a UBX frame (no `$`, `!`, CR or LF in it) and a SiRF frame between sentences
        let ubx: [UInt8] = [0xB5, 0x62, 0x01, 0x02, 0x04, 0x00, 0x10, 0x20, 0x30, 0x40, 0xA7, 0x5D]
        let sirf: [UInt8] = [0xA0, 0xA2, 0x00, 0x02, 0x29, 0x03, 0x00, 0x2C, 0xB0, 0xB3]
        let input = bytes(nmea(gga)) + ubx + bytes(nmea(rmc)) + sirf + bytes(nmea(gga))
        // When it is framed
        let result = frame([input])
        // Then all three sentences come out, nothing is truncated, every binary byte is junk
        #expect(result.lines.count == 3)
        #expect(result.statistics.truncated == 0)
        #expect(result.statistics.junkBytes == ubx.count + sirf.count)
    }

    @Test("a `$` byte inside a binary packet opens a sentence that the next binary byte cuts")
    func dollarInBinary() {
        // Given a binary packet holding 0x24 followed by a non-printable byte
        let packet: [UInt8] = [0xB5, 0x62, 0x24, 0x01, 0x02]
        let input = packet + bytes(nmea(gga))
        // Then that costs one truncated "sentence" and the real one survives
        let result = frame([input])
        #expect(result.lines == ["$\(gga)*47"])
        #expect(result.statistics.truncated == 1)
    }

    @Test("a sentence of exactly the maximum length is framed; one byte more is overlong")
    func lengthLimit() {
        let limit = Framer.maximumSentenceLength
        // Given sentences of exactly the limit and of the limit plus one, each followed by a GGA
        let fits = sentence(ofLength: limit)
        let tooLong = sentence(ofLength: limit + 1)
        // When each is framed
        let a = frame(fits + "\r\n" + nmea(gga))
        let b = frame(tooLong + "\r\n" + nmea(gga))
        // Then the first comes out whole; the second is dropped as overlong, the GGA kept
        #expect(a.lines == [fits, "$\(gga)*47"])
        #expect(a.statistics.overlong == 0)
        #expect(b.lines == ["$\(gga)*47"])
        #expect(b.statistics.overlong == 1)
        #expect(b.statistics.truncated == 0)
        #expect(b.statistics.junkBytes == limit + 1)
    }

    @Test("the length limit holds however the sentence is split across chunks")
    func lengthLimitAcrossChunks() {
        let limit = Framer.maximumSentenceLength
        for length in [limit - 1, limit, limit + 1, limit + 40] {
            let line = bytes(sentence(ofLength: length) + "\r\n")
            for cut in 1..<line.count {
                // Given the sentence split in two at `cut`
                let result = frame([Array(line[..<cut]), Array(line[cut...])])
                // Then it is framed exactly when it fits
                if length <= limit {
                    #expect(result.lines.count == 1, "length \(length) cut at \(cut)")
                    #expect(result.statistics.overlong == 0)
                } else {
                    #expect(result.lines.isEmpty, "length \(length) cut at \(cut)")
                    #expect(result.statistics.overlong == 1, "length \(length) cut at \(cut)")
                }
            }
        }
    }

    @Test("a sentence left open at the end of the stream is counted as truncated")
    func openAtEnd() {
        // Given a good sentence and then one without its terminator
        let result = frame(nmea(gga) + "$GPRMC,1235")
        // Then only the first is framed; the open one is reported partial, then truncated at finish
        #expect(result.lines == ["$\(gga)*47"])
        #expect(result.partial)
        #expect(result.statistics.truncated == 1)
        #expect(result.statistics.junkBytes == 11)
    }

    @Test("no partial sentence after a complete line")
    func notPartial() {
        let result = frame([bytes(nmea(gga))], finish: false)
        #expect(!result.partial)
        #expect(result.statistics.truncated == 0)
    }

    @Test("`!` starts a sentence too (AIS encapsulation)")
    func bang() throws {
        // Given an AIS sentence
        let line = "!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0*26"
        let result = frame(line + "\r\n")
        // Then it is framed; the parser knows no such type and counts it as unknown
        #expect(result.lines == [line])
        let (parser, events) = parsed(bytes(line + "\r\n"))
        #expect(parser.statistics.sentences.unknown + parser.statistics.sentences.badChecksum
                + parser.statistics.sentences.malformed == 1)
        #expect(events.isEmpty)
    }

    @Test("chunk boundaries do not matter: every two-way split frames the same lines")
    func everySplit() {
        // Given a stream with CR LF, LF, CR endings, junk, a glued stub and binary
        let text = "junk\r\n" + nmea(gga) + nmea(rmc, ending: "\n") + "$GPGSA,A,3" + nmea(gga, ending: "\r")
        let input = bytes(text) + [0x00, 0xB5, 0x62] + bytes(nmea(rmc))
        let whole = frame([input])
        // When it is cut in two at every position
        for cut in 0...input.count {
            let split = frame([Array(input[..<cut]), Array(input[cut...])])
            // Then the lines and statistics are those of the whole buffer
            #expect(split.lines == whole.lines, "cut at \(cut)")
            #expect(split.statistics == whole.statistics, "cut at \(cut)")
        }
        #expect(whole.lines.count == 4)
        #expect(whole.statistics.truncated == 1)
    }

    @Test("one byte per call frames the same lines as the whole buffer")
    func dribble() {
        let input = bytes("x" + nmea(gga) + nmea(rmc, ending: "\r") + "$GP" + nmea(gga, ending: "\n"))
        let whole = frame([input])
        let dribbled = frame(input.map { [$0] })
        #expect(dribbled.lines == whole.lines)
        #expect(dribbled.statistics == whole.statistics)
        #expect(whole.lines.count == 3)
    }

    @Test("an empty chunk changes nothing")
    func emptyChunk() {
        let result = frame([[], bytes(nmea(gga)), []])
        #expect(result.lines.count == 1)
        #expect(result.statistics == frame(nmea(gga)).statistics)
    }

    @Test("blank lines and lone terminators are not sentences")
    func blankLines() {
        let result = frame("\r\n\r\n\n\r" + nmea(gga) + "\r\n")
        #expect(result.lines.count == 1)
        #expect(result.statistics.junkBytes == 0)
    }
}

@Suite("Framing under random damage")
struct FramingFuzzTests {
    @Test("the undamaged input has 10 epochs with a fix (the 11th is cut in its RMC)")
    func undamaged() throws {
        let input = Array(try capture("multignss-10hz.nmea").prefix(6000))
        #expect(parsed(input).events.fixes.filter(\.hasFix).count == 10)
    }

    @Test("randomly damaged input never crashes, and chunking never changes the result", arguments: 0..<40)
    func damaged(seed: Int) throws {
        // Given the first epochs of the 10 Hz capture with a few bytes overwritten, inserted or
        // deleted (sentence starts, stars, terminators, NULs, binary, letters)
        var rng = SplitMix64(seed: UInt64(seed) &* 7919 &+ 1)
        var input = Array(try capture("multignss-10hz.nmea").prefix(6000))
        let specials: [UInt8] = [0x24, 0x21, 0x2A, 0x0D, 0x0A, 0x00, 0xB5, 0x62, 0x2C, 0x41, 0x39, 0x20]
        let damages = Int.random(in: 1...12, using: &rng)
        for _ in 0..<damages {
            let at = Int.random(in: 0..<input.count, using: &rng)
            let byte = specials.randomElement(using: &rng)!
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: input[at] = byte
            case 1: input.insert(byte, at: at)
            default: input.remove(at: at)
            }
        }
        // When it is parsed whole, one byte at a time, and in random chunks
        let whole = parsed(input)
        let slow = dribbled(input)
        let parser = NMEAParser()
        var chunked: [EngineEvent] = []
        var start = 0
        while start < input.count {
            let end = min(input.count, start + Int.random(in: 1...300, using: &rng))
            parser.parse(input[start..<end]) { chunked.append($0) }
            start = end
        }
        parser.finish { chunked.append($0) }
        // Then all three agree, and every reported coordinate is on the Earth
        #expect(slow.events == whole.events)
        #expect(chunked == whole.events)
        #expect(slow.parser.statistics == whole.parser.statistics)
        #expect(parser.statistics == whole.parser.statistics)
        for fix in whole.events.fixes {
            if let c = fix.coordinate { #expect(abs(c.latitude) <= 90 && abs(c.longitude) <= 180) }
        }
        // and no damage costs more than one of the 10 epochs in the input (each has three
        // sentences with a position: RMC, GGA and GLL)
        #expect(whole.events.fixes.filter(\.hasFix).count >= 10 - damages)
    }

    @Test("onSentence sees every sentence that passed its checksum, with its kind")
    func onSentence() throws {
        // Given the noisy capture and a hook counting what it is shown
        let parser = NMEAParser()
        var kinds: [SentenceKind: Int] = [:]
        var addresses = Set<String>()
        parser.onSentence = { sentence, kind in
            kinds[kind, default: 0] += 1
            addresses.insert(sentence.address)
        }
        parser.parse(try capture("noisy-line.nmea")) { _ in }
        parser.finish { _ in }
        // Then it saw the 44 good sentences (15 RMC, 14 GGA, 15 GSA) and nothing rejected
        #expect(kinds == [SentenceKind(RMC.self): 15, SentenceKind(GGA.self): 14, SentenceKind(GSA.self): 15])
        #expect(addresses == ["GPRMC", "GPGGA", "GPGSA"])
    }

    @Test("The scan, eight bytes at a time, frames and checks as reading a byte at a time would", arguments: 0..<8)
    func wordAtATime(seed: UInt64) {
        // Given a soup of sentences (good, bad and cut), stray `*`, `$` and `!`, line ends,
        // control and high bytes, and lines past the length limit, in random chunks
        var random = SplitMix(seed: seed)
        var input: [UInt8] = []
        let pieces: [[UInt8]] = [
            bytes(nmea(gga)), bytes(nmea(rmc)), bytes(nmea(gga, ending: "\n")), bytes(nmea(rmc, ending: "\r")),
            bytes("$GPGGA,1*2*3\r\n"), bytes("$GPRMC,A,B*00\r\n"), bytes("$GPGSA,*"), bytes("!AIVDM,1,1,,A,15M6"),
            bytes(sentence(ofLength: Framer.maximumSentenceLength) + "\r\n"),
            bytes(sentence(ofLength: Framer.maximumSentenceLength + 1) + "\r\n"),
            [0x00], [0x7F], [0x80], [0xFF], [0x1F], [0x20], [0x7E], [0x24], [0x21], [0x2A], [0x0D], [0x0A],
        ]
        for _ in 0..<400 {
            if random.next() % 4 == 0 {
                input += (0..<Int(random.next() % 12)).map { _ in UInt8(truncatingIfNeeded: 0x20 + random.next() % 0x5F) }
            } else {
                input += pieces[Int(random.next() % UInt64(pieces.count))]
            }
        }
        var chunks: [[UInt8]] = []
        var at = 0
        while at < input.count {
            let size = min(input.count - at, 1 + Int(random.next() % 90))
            chunks.append(Array(input[at..<at + size]))
            at += size
        }

        // When the engine reads it, and a plain byte-by-byte reading frames and checks it
        let framed = frame(chunks).lines
        let parser = NMEAParser()
        for chunk in chunks { parser.parse(chunk) { _ in } }
        parser.finish { _ in }
        let expected = bytewiseLines(input)
        var checks = (badChecksum: 0, malformed: 0, withoutChecksum: 0)
        for line in expected {
            let line = bytes(line)
            line.withUnsafeBufferPointer { buffer in
                switch Sentence.check(buffer) {
                case .success(let s): if !s.hasChecksum { checks.withoutChecksum += 1 }
                case .failure(.badChecksum): checks.badChecksum += 1
                case .failure(.malformed): checks.malformed += 1
                }
            }
        }

        // Then both see the same lines, and the checksums the scan worked out on the way
        // judge them as checking each line afresh does
        #expect(framed == expected)
        #expect(parser.counts.badChecksum == checks.badChecksum)
        #expect(parser.counts.malformed == checks.malformed)
        #expect(parser.counts.withoutChecksum == checks.withoutChecksum)
    }
}

/// The framing rules, one byte at a time and nothing else: what the fast scan must agree with.
private func bytewiseLines(_ input: [UInt8]) -> [String] {
    var lines: [String] = []
    var line: [UInt8]?
    for b in input {
        if b == 0x24 || b == 0x21 {
            line = [b]
        } else if var current = line {
            if b == 0x0D || b == 0x0A {
                lines.append(String(decoding: current, as: UTF8.self))
                line = nil
            } else if b < 0x20 || b > 0x7E || current.count == Framer.maximumSentenceLength {
                line = nil
            } else {
                current.append(b)
                line = current
            }
        }
    }
    return lines
}

/// A small seeded generator, so that a failing soup can be made again.
private struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1 }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
