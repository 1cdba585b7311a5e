import Testing
@testable import GPSLocation

@Suite("PeerText: a peer's label shown safely")
struct PeerTextTests {
    @Test func plainNamesAreShownAsThey() {
        #expect(PeerText.display("van-7") == "van-7")
        #expect(PeerText.display("Fahrzeug Größe 3") == "Fahrzeug Größe 3")
        #expect(PeerText.isPlain("van-7"))
    }

    @Test func controlsBidiAndZeroWidthAreEscaped() {
        #expect(PeerText.display("a\u{1B}[2Jb") == "a\\u{1B}[2Jb")
        #expect(PeerText.display("van\nERROR forged") == "van\\u{A}ERROR forged")
        #expect(PeerText.display("\u{202E}7-nav") == "\\u{202E}7-nav")
        #expect(PeerText.display("van\u{200B}7") == "van\\u{200B}7")
        #expect(PeerText.display("x\u{2066}y\u{FEFF}") == "x\\u{2066}y\\u{FEFF}")
        #expect(PeerText.display("c1\u{85}") == "c1\\u{85}")
        #expect(!PeerText.isPlain("van\u{200D}"))
    }

    @Test func aBackslashIsDoubledSoAnEscapeCannotBeForged() {
        #expect(PeerText.display("a\\u{202E}") == "a\\\\u{202E}")
        #expect(PeerText.display("a\\u{202E}") != PeerText.display("a\u{202E}"))
    }

    @Test func longTextIsCut() {
        let long = String(repeating: "x", count: 60_000)
        let shown = PeerText.display(long)
        #expect(shown.count == PeerText.defaultLimit + 1)
        #expect(shown.hasSuffix("…"))
        #expect(PeerText.display("abcdef", limit: 3) == "abc…")
    }
}
