import GPSLocation
import Testing

@Suite("CaptureHeader")
struct CaptureHeaderTests {
    private func parse(_ text: String) -> CaptureHeader {
        Array(text.utf8).withUnsafeBytes { CaptureHeader(parsing: $0) }
    }

    private func pairs(_ header: CaptureHeader) -> [String] {
        header.fields.map { "\($0.key)=\($0.value)" }
    }

    @Test("A gpsd-style header: fields in order, an indented line continues the previous value")
    func gpsdHeader() {
        // Given
        let header = """
            # Name: Garmin GPS 18x-5Hz
            # Chipset: unknown
            # Location: Dunedin, New Zealand,
            #   on the harbour wall
            # Date: 2019-04-12
            #
            # Recorded with gpspipe -R
            
            """
        let body = "$GPRMC,003956.00,A,4552.6540,S,17030.0067,E,0.02,,120419,,,A*7B\r\n"

        // When
        let sut = parse(header + body)

        // Then
        #expect(pairs(sut) == [
            "Name=Garmin GPS 18x-5Hz",
            "Chipset=unknown",
            "Location=Dunedin, New Zealand, on the harbour wall",
            "Date=2019-04-12",
            "Comment=Recorded with gpspipe -R",
        ])
        #expect(sut["Location"] == "Dunedin, New Zealand, on the harbour wall")
        #expect(sut["location"] == sut["LOCATION"], "keys are looked up without regard to case")
        #expect(sut["Submitter"] == nil)
        #expect(sut.bodyOffset == header.utf8.count)
    }

    @Test("bodyOffset points at the first byte after the header, with CRLF line ends too")
    func bodyOffsetWithCRLF() {
        // Given
        let header = "# Name: crlf\r\n# Notes: two lines\r\n#    and a second\r\n"
        let body = "$GPGGA,120000.00,,,,,0,00,,,M,,M,,*4B\r\n"
        let bytes = Array((header + body).utf8)

        // When
        let sut = bytes.withUnsafeBytes { CaptureHeader(parsing: $0) }

        // Then
        #expect(pairs(sut) == ["Name=crlf", "Notes=two lines and a second"])
        #expect(sut.bodyOffset == header.utf8.count)
        #expect(bytes[sut.bodyOffset] == UInt8(ascii: "$"))
    }

    @Test("A file without a header has no fields and its body starts at 0")
    func noHeader() {
        // Given
        let text = "$GPGGA,120000.00,,,,,0,00,,,M,,M,,*4B\r\n# not a header: after the body began\n"

        // When
        let sut = parse(text)

        // Then
        #expect(sut.fields.isEmpty)
        #expect(sut.bodyOffset == 0)
        #expect(sut == CaptureHeader(fields: []))
    }

    @Test("An empty file, and a file that is only a header")
    func emptyAndHeaderOnly() {
        #expect(parse("") == CaptureHeader(fields: []))
        let onlyHeader = parse("# Name: nothing recorded\n# Date: 2024-05-01")
        #expect(pairs(onlyHeader) == ["Name=nothing recorded", "Date=2024-05-01"])
        #expect(onlyHeader.bodyOffset == "# Name: nothing recorded\n# Date: 2024-05-01".utf8.count)
    }

    @Test("A line whose words before the colon are too many to be a key is a comment")
    func longKeyIsComment() {
        let sut = parse("# Two words: ok\n# Recorded by hand: on a bench\n# no colon at all\n$GPGGA*00\n")
        #expect(pairs(sut) == ["Two words=ok", "Comment=Recorded by hand: on a bench", "Comment=no colon at all"])
    }

    @Test("An indented line with nothing before it to continue is kept as a comment")
    func orphanContinuation() {
        let sut = parse("#   indented first\n# Name: x\n")
        #expect(pairs(sut) == ["Comment=indented first", "Name=x"])
    }

    @Test("text writes the header as it is read back")
    func roundTrip() {
        // Given
        let original = CaptureHeader(fields: [("Name", "drive"), ("Location", "Dunedin, NZ"), ("Date", "2019-04-12")])

        // When
        let text = original.text
        let reread = parse(text + "$GPGGA*00\n")

        // Then
        #expect(text == "# Name: drive\n# Location: Dunedin, NZ\n# Date: 2019-04-12\n")
        #expect(pairs(reread) == pairs(original))
        #expect(reread.bodyOffset == text.utf8.count)
    }
}
