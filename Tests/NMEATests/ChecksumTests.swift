import NMEA
import Testing

@Suite("Checksums")
struct ChecksumTests {
    /// Sentences printed with their checksums in NMEA references (gpsinformation.org's
    /// well-known examples) and in the project brief: the helper must reproduce them.
    @Test("the test helper reproduces published checksums", arguments: [
        ("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", "47"),
        ("GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W", "6A"),
        ("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1", "39"),
        ("GPVTG,054.7,T,034.4,M,005.5,N,010.2,K", "48"),
        ("GPGGA,,,,,,0,00,,,M,,M,,", "66"),
    ])
    func helperMatchesPublished(body: String, expected: String) {
        // Given a sentence whose checksum is published
        // When the helper computes it
        // Then it is the published one, and the engine's own function agrees
        #expect(hexChecksum(body) == expected)
        #expect(nmeaChecksum(body.utf8) == UInt8(expected, radix: 16))
        #expect(nmea(body) == "$\(body)*\(expected)\r\n")
    }

    @Test("the checksum is the XOR of the bytes between $ and *")
    func checksumByHand() {
        // Given a two-byte body "AB": 0x41 ^ 0x42 = 0x03
        // Then both the helper and the engine say 03
        #expect(hexChecksum("AB") == "03")
        #expect(nmeaChecksum("AB".utf8) == 0x03)
        #expect(nmeaChecksum([UInt8]()) == 0)
    }

    @Test("uppercase and lowercase hex checksums are both accepted")
    func caseOfHex() throws {
        // Given a sentence whose checksum has a letter (6A)
        let body = "GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"
        // When it is checked with the checksum in either case
        let upper = check(nmea(body))
        let lower = check(nmea(body, lowercase: true))
        // Then both pass and are the same sentence
        #expect(nmea(body, lowercase: true).hasSuffix("*6a\r\n"))
        #expect(try upper.get().hasChecksum)
        #expect(try lower.get().hasChecksum)
        #expect(decode(nmea(body)) as? GGA == decode(nmea(body, lowercase: true)) as? GGA)
    }

    @Test("a wrong checksum rejects the sentence", arguments: [
        // a digit changed by line noise, checksum left as it was
        "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.5,M,46.9,M,,*47",
        // the right sentence with a checksum off by one
        "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*46",
        // checksum of the whole line including the `$` (a common implementation error)
        "$GPGGA,,,,,,0,00,,,M,,M,,*42",
    ])
    func wrongChecksum(line: String) {
        // Given a line whose checksum does not match
        // When it is checked
        // Then it is rejected as a bad checksum, and a parser counts it and reports nothing
        #expect(throws: Sentence.Rejection.badChecksum) { try check(line).get() }
        let (parser, events) = parsed(bytes(line + "\r\n"))
        #expect(parser.statistics.sentences.badChecksum == 1)
        #expect(events.isEmpty)
    }

    @Test("every single flipped bit in the body is caught")
    func everyBitFlip() {
        // Given a valid sentence
        let good = Array(nmea("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,").utf8.dropLast(2))
        // When any one bit of any body byte changes to another printable, non-special byte
        var caught = 0, tried = 0
        for i in 1..<(good.count - 3) {
            for bit in 0..<7 {
                var line = good
                line[i] ^= 1 << bit
                let c = line[i]
                guard c > 0x20, c < 0x7F, c != UInt8(ascii: "*"), c != UInt8(ascii: ","),
                      c != UInt8(ascii: "$"), c != UInt8(ascii: "!") else { continue }
                tried += 1
                let result = line.withUnsafeBufferPointer { Sentence.check($0) }
                if case .failure = result { caught += 1 }
            }
        }
        // Then none passes as a good sentence
        #expect(tried > 300)
        #expect(caught == tried)
    }

    @Test("a sentence without a checksum is accepted and counted")
    func noChecksum() throws {
        // Given a GGA without `*hh`, as old receivers and hand-typed input send it
        let line = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,\r\n"
        // When it is checked and parsed
        let checked = try check(line).get()
        let (parser, events) = parsed(bytes(line))
        // Then it is a GGA without checksum, counted as such, and it gives its fix
        #expect(checked.kind == SentenceKind(GGA.self))
        #expect(!checked.hasChecksum)
        #expect(parser.statistics.sentences.withoutChecksum == 1)
        #expect(events.fixes.count == 1)
        #expect(near(events.fixes.first?.altitude, 545.4))
    }

    @Test("a broken checksum field makes the line malformed", arguments: [
        "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*4",    // one digit
        "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*",     // none
        "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*G7",   // not hex
        "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*477",  // three digits
        "$GPGGA,123519,4807.038,N*47,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",   // star inside
    ])
    func malformedChecksumField(line: String) {
        // Given a line whose `*` is not followed by exactly two hex digits at the end
        // When it is checked
        // Then it is malformed: neither trusted nor taken for a sentence without checksum
        #expect(throws: Sentence.Rejection.malformed) { try check(line).get() }
        let (parser, events) = parsed(bytes(line + "\r\n"))
        #expect(parser.statistics.sentences.malformed == 1)
        #expect(events.isEmpty)
    }

    @Test("trailing spaces after the checksum are tolerated")
    func trailingSpaces() throws {
        // Given a good sentence followed by spaces before its CR LF
        let line = "$GPGGA,,,,,,0,00,,,M,,M,,*66  \r\n"
        // Then it passes its checksum
        #expect(try check(line).get().hasChecksum)
    }

    @Test("an address must start with two uppercase letters or digits", arguments: [
        "gpgga,,,,,,0,00,,,M,,M,,", "G,1,2", "G;GGA,1,2",
    ])
    func badAddress(body: String) {
        // Given a line with a correct checksum but an impossible address
        // Then it is malformed
        #expect(throws: Sentence.Rejection.malformed) { try check(nmea(body)).get() }
    }

    @Test("a checksummed line whose address runs into text (SiRF's $PSRFTXTVersion …) is no sentence gpsfix reads, but one it passes on",
          arguments: ["PSRFTXTVersion GSW3.2.2_3.1.00.12-SDK003P1.01a ", "GP GGA,,,,,,0,00,,,M,,M,,", "GPGGA;1,2,3", "PGRME x,1,M"])
    func addressIntoText(body: String) throws {
        // Given such a line with its checksum, and the same without one
        let checked = try check(nmea(body)).get()
        // Then it is a sentence of no kind the table reads (whatever its first letters), its
        // whole body its address; without the checksum to vouch for it, it is malformed
        #expect(checked.kind == .unknown && checked.address == body)
        #expect(decoded(body) == nil)
        #expect(throws: Sentence.Rejection.malformed) { try check("$" + body + "\r\n").get() }
    }
}
