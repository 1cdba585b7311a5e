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

    @Test("What is not RFC 8259 JSON is refused (issue 17: both readers took these)", arguments: [
        "{\"a\":+1}", "{\"a\":01}", "{\"a\":.9}", "{\"a\":0.}", "{\"a\":1e}", "{\"a\":1.e5}", "{\"a\":-}", "{\"a\":--1}",
        "{\"a\":0x10}", "{\"a\":1e400}", "{\"a\":\"\\V\"}", "{\"a\":\"\\u-000\"}", "{\"a\":\"\\u+041\"}", "{\"a\":\"\\u00g1\"}",
        "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\"}", "{\"a\":\"\\ud800\\u0041\"}", "{\"a\":NaN}", "{\"a\":Infinity}", "{\"a\":true,}",
    ])
    func refusesNonJSON(_ text: String) {
        #expect(FlatJSON.object(Substring(text)) == nil)
    }

    @Test("A surrogate pair is one character; a lone half is an error, not U+FFFD")
    func surrogates() {
        #expect(FlatJSON.object(#"{"a":"\ud83d\ude00x"}"#)?.first?.value == .string("\u{1F600}x"))
        #expect(FlatJSON.object(#"{"a":"\ud800"}"#) == nil)
        #expect(FlatJSON.object(#"{"a":"\ude00\ud83d"}"#) == nil)
    }

    @Test("Numbers in JSON's own shape are read", arguments: [
        ("0", 0.0), ("-0", -0.0), ("10", 10), ("-1.5e2", -150), ("1E+2", 100), ("2.50", 2.5), ("1e-2", 0.01),
    ] as [(String, Double)])
    func numbers(_ text: String, _ value: Double) {
        #expect(FlatJSON.object(Substring("{\"a\":\(text)}"))?.first?.value == .number(value))
    }
}
