import GPSLocation
import GPSTestSupport
import Testing

@Suite("CaptureHeaderSkipper")
struct CaptureHeaderSkipperTests {
    /// Captures whose header ends in every way `CaptureHeader(parsing:)` knows.
    static let captures: [String] = [
        "# Name: drive\n# Date: 2019-04-12\n$GPGGA,120000.00,,,,,0,00,,,M,,M,,*4B\r\n",
        "# Name: crlf\r\n#    continued\r\n$GPGGA,120000.00,,,,,0,00,,,M,,M,,*4B\r\n",
        "$GPGGA,120000.00,,,,,0,00,,,M,,M,,*4B\r\n# not a header: after the body began\n",
        "#\n#\n\n# after an empty line: body\n",
        "# a header that never ends its last line",
        "# Name: only a header\n",
        "#",
        "",
        "\n# body from the first byte\n",
    ]

    /// Where the reference (the whole-file parser) says the body begins.
    private func wholeFileOffset(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { CaptureHeader(parsing: $0).bodyOffset }
    }

    /// Where the skipper says the body begins when `bytes` arrives cut at `cuts`.
    private func streamedOffset(_ bytes: [UInt8], cuts: [Int]) -> Int {
        var sut = CaptureHeaderSkipper()
        var start = 0
        for end in cuts + [bytes.count] where end >= start {
            let offset = bytes[start..<end].withUnsafeBytes { sut.bodyStart(in: $0) }
            if offset < end - start { return start + offset }
            start = end
        }
        return bytes.count
    }

    @Test("Cut once anywhere, the body begins where the whole-file parser says", arguments: captures)
    func everySingleCut(capture: String) {
        // Given
        let bytes = Array(capture.utf8)
        let expected = wholeFileOffset(bytes)

        // When
        let offsets = (0...bytes.count).map { streamedOffset(bytes, cuts: [$0]) }

        // Then
        #expect(offsets.allSatisfy { $0 == expected }, "whole file: \(expected); cut at 0…\(bytes.count): \(offsets)")
    }

    @Test("A byte at a time, and cut at random many times over, the body begins at the same place", arguments: captures)
    func manyCuts(capture: String) {
        // Given
        let bytes = Array(capture.utf8)
        let expected = wholeFileOffset(bytes)
        var random = SplitMix64(seed: 10)

        // When
        let byteAtATime = streamedOffset(bytes, cuts: Array(0...bytes.count))
        let randomCuts = (0..<200).map { _ in
            streamedOffset(bytes, cuts: (0..<4).map { _ in Int.random(in: 0...bytes.count, using: &random) }.sorted())
        }

        // Then
        #expect(byteAtATime == expected)
        #expect(randomCuts.allSatisfy { $0 == expected })
    }

    @Test("Once past the header, every later piece is body from its first byte")
    func bodyStaysBody() {
        // Given
        var sut = CaptureHeaderSkipper()
        let first = Array("# Name: x\n$GPGGA".utf8)
        let second = Array("# looks like a header, but the body has begun\n".utf8)

        // When
        let inFirst = first.withUnsafeBytes { sut.bodyStart(in: $0) }
        let inSecond = second.withUnsafeBytes { sut.bodyStart(in: $0) }

        // Then
        #expect(inFirst == "# Name: x\n".utf8.count)
        #expect(sut.isInBody)
        #expect(inSecond == 0)
    }
}
