@testable import GPSServer
import Testing

@Suite("The JSON of a ?WATCH")
struct FlatJSONTests {
    @Test("A flat object: booleans, numbers, strings with escapes, null, in order, blanks anywhere")
    func reads() throws {
        let members = try #require(FlatJSON.object(#" { "enable" : true,"raw":2, "x":-1.5e2,"device":"\/dev\/tty\"A\"\u00e9\n","n":null,"f":false } "#))
        #expect(members.map(\.key) == ["enable", "raw", "x", "device", "n", "f"])
        #expect(members.map(\.value) == [.bool(true), .number(2), .number(-150), .string("/dev/tty\"A\"é\n"), .null, .bool(false)])
        #expect(FlatJSON.object("{}")?.isEmpty == true)
    }

    @Test("Anything else is not such an object", arguments: [
        "", "{", "}", "[1]", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{\"a\":1} x", "{\"a\":{\"b\":1}}",
        "{\"a\":[1]}", "{a:1}", "{\"a\":tru}", "{\"a\":\"\\q\"}", "{\"a\":\"unterminated}", "{\"a\":\"\\u12\"}",
        "{\"a\":1 \"b\":2}", "{\"a\":\"tab\there\"}",
    ])
    func refuses(_ text: String) {
        #expect(FlatJSON.object(Substring(text)) == nil)
    }

    @Test("A lone surrogate escape becomes U+FFFD rather than a crash")
    func loneSurrogate() {
        #expect(FlatJSON.object(#"{"a":"\ud800"}"#)?.first?.value == .string("\u{FFFD}"))
    }
}
