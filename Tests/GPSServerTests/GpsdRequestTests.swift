@testable import GPSServer
import Testing

@Suite("gpsd requests")
struct GpsdRequestTests {
    @Test("The requests gpsd's clients send are recognised", arguments: [
        ("?POLL", GpsdRequest.poll),
        ("?DEVICES", .devices),
        ("?VERSION", .version),
        ("?DEVICE", .device(configures: false)),
        ("?DEVICE={\"path\":\"/dev/ttyS0\",\"bps\":4800}", .device(configures: true)),
        ("?WATCH", .watch(nil)),
        ("?WATCH={\"enable\":true,\"json\":true}", .watch(.init(enable: true, json: true))),
        ("?WATCH={\"enable\":true,\"nmea\":true,\"raw\":1}", .watch(.init(enable: true, nmea: true, raw: 1))),
        // What libgps sends with WATCH_ENABLE|WATCH_JSON|WATCH_SCALED|WATCH_TIMING|WATCH_DEVICE:
        ("?WATCH={\"enable\":true,\"json\":true,\"scaled\":true,\"timing\":true,\"device\":\"/dev/ttyUSB0\"}", .watch(.init(enable: true, json: true, device: "/dev/ttyUSB0"))),
        ("?WATCH={\"enable\":false}", .watch(.init(enable: false))),
    ])
    func recognised(_ text: String, _ expected: GpsdRequest) {
        #expect(GpsdRequest(Substring(text)) == expected)
    }

    @Test("Anything else is named back in the error, as gpsd does", arguments: ["?FOO", "?POLLX", "hello", "?POLL=1", "?"])
    func unrecognised(_ text: String) {
        #expect(GpsdRequest(Substring(text)) == .unrecognized(text))
    }

    @Test("A WATCH with bad JSON, a wrong type or another class is invalid, with the reason", arguments: [
        ("?WATCH={\"enable\":true", "Invalid WATCH: not a JSON object"),
        ("?WATCH=[1,2]", "Invalid WATCH: not a JSON object"),
        ("?WATCH={\"enable\":\"yes\"}", "Invalid WATCH: 'enable' must be true or false"),
        ("?WATCH={\"raw\":7}", "Invalid WATCH: 'raw' must be 0, 1 or 2"),
        ("?WATCH={\"class\":\"POLL\",\"enable\":true}", "Invalid WATCH: 'class' must be \"WATCH\""),
    ])
    func invalidWatch(_ text: String, _ message: String) {
        #expect(GpsdRequest(Substring(text)) == .invalid(message))
    }

    @Test("A member gpsd does not know is ignored, as gpsd ignores it 'for cross-version compatibility'", arguments: [
        ("?WATCH={\"bogus\":1}", WatchPolicy.Change()),
        ("?WATCH={\"enable\":true,\"json\":true,\"future\":{}}", nil),
        ("?WATCH={\"enable\":true,\"json\":true,\"future\":\"x\",\"later\":null}", WatchPolicy.Change(enable: true, json: true)),
    ])
    func unknownMembers(_ text: String, _ expected: WatchPolicy.Change?) {
        // A nested value is no flat request (FlatJSON), known member or not.
        #expect(GpsdRequest(Substring(text)) == (expected.map { .watch($0) } ?? .invalid("Invalid WATCH: not a JSON object")))
    }

    @Test("A member not named comes to what gpsd's json_watch_read makes it: enable true, device every one, json, nmea and raw as they were")
    func membersNotNamed() {
        var policy = WatchPolicy()
        policy.apply(.init(json: true))
        #expect(policy.enable && policy.wantsReports, "enable not named is true")
        policy.apply(.init(enable: true, nmea: true, device: "/dev/ttyUSB1"))
        #expect(policy.json && policy.nmea && policy.device == "/dev/ttyUSB1", "json kept; the device named")
        policy.apply(.init(raw: 1))
        #expect(policy.enable && policy.json && policy.nmea && policy.raw == 1)
        #expect(policy.device == nil, "a watch that does not name the device is of every device")
        policy.apply(.init(enable: false))
        #expect(!policy.enable && policy.json && policy.nmea && policy.raw == 1)
        policy.apply(.init())
        #expect(policy.enable, "an empty object starts the watch again")
    }

    @Test("Enabling a watch without naming an output sends nothing, as gpsd 3.22 does (json stays false until asked)")
    func enableAloneSendsNothing() {
        var policy = WatchPolicy()
        policy.apply(.init(enable: true))
        #expect(!policy.wantsReports && !policy.wantsSentences)
        #expect(policy.enable && !policy.json)
        // and a later change that names json keeps the watch on
        policy.apply(.init(json: true))
        #expect(policy.wantsReports)

        var nmea = WatchPolicy()
        nmea.apply(.init(enable: true, nmea: true))
        #expect(!nmea.wantsReports && nmea.wantsSentences)

        var both = WatchPolicy()
        both.apply(.init(enable: true, json: true, nmea: true))
        #expect(both.wantsReports && both.wantsSentences)

        both.apply(.init(enable: false))
        #expect(!both.wantsReports && !both.wantsSentences, "disabling keeps the outputs but sends nothing")
    }
}

@Suite("Request scanning")
struct RequestScannerTests {
    func feed(_ scanner: inout RequestScanner, _ text: String) -> [RequestScanner.Outcome] {
        Array(text.utf8).withUnsafeBytes { scanner.feed($0) }
    }

    @Test("A ';' inside a JSON string does not end the request (issue 17); one outside does")
    func semicolonInsideString() {
        var scanner = RequestScanner()
        // Given a device path holding ';' and an escaped quote, sent in one read and in pieces
        let text = #"?WATCH={"enable":true,"device":"/dev/a;b\";c"};?POLL;"#
        let expected: [RequestScanner.Outcome] = [.request(.watch(.init(enable: true, device: #"/dev/a;b";c"#))), .request(.poll)]
        #expect(feed(&scanner, text) == expected)
        var pieces: [RequestScanner.Outcome] = []
        for c in text { pieces += feed(&scanner, String(c)) }
        #expect(pieces == expected)
        // And an open quote is closed by the newline's end: the next request is read afresh
        #expect(feed(&scanner, "?WATCH={\"device\":\"x;\n?POLL;") == [.request(.invalid("Invalid WATCH: not a JSON object")), .request(.poll)])
    }

    @Test("Any bytes cut into any reads give the same requests as fed whole, up to an overlong one (seeded)")
    func chunkingDifferential() {
        // Pieces that matter to the scanner (quotes, escapes, ';', line ends) among junk
        let pieces: [[UInt8]] = [Array("?WATCH=".utf8), Array("{\"device\":".utf8), [0x22], [0x5C], [0x3B], [0x0A], [0x0D], [0x20],
                                 Array("\"a;b\"".utf8), Array("true}".utf8), Array("?POLL".utf8), [0xC3], [0xA9], [0xFF], [0x00]]
        var state: UInt64 = 2026
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        for _ in 0..<300 {
            var bytes: [UInt8] = []
            for _ in 0..<(next() % 40) { bytes += pieces[next() % pieces.count] }
            var whole = RequestScanner(limit: 64)
            let expected = bytes.withUnsafeBytes { whole.feed($0) }
            var chunked = RequestScanner(limit: 64)
            var outcomes: [RequestScanner.Outcome] = []
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + 1 + next() % 7)
                outcomes += bytes[offset..<end].withUnsafeBytes { chunked.feed($0) }
                offset = end
            }
            // An overlong request ends the client (the server cuts it off), and with it the
            // read it came in: compared up to there.
            func upToOverlong(_ o: [RequestScanner.Outcome]) -> ArraySlice<RequestScanner.Outcome> {
                o.firstIndex(of: .overlong).map { o[...$0] } ?? o[...]
            }
            #expect(upToOverlong(outcomes) == upToOverlong(expected), "\(bytes)")
        }
    }

    @Test("Bytes that are not UTF-8 are an unrecognized request, never a WATCH read with replacements")
    func invalidUTF8() {
        var scanner = RequestScanner()
        let bytes: [UInt8] = Array(#"?WATCH={"enable":true,"device":""#.utf8) + [0xC0, 0xAF] + Array(#""};?POLL;"#.utf8)
        let outcomes = bytes.withUnsafeBytes { scanner.feed($0) }
        #expect(outcomes == [.request(.unrecognized(#"?WATCH={"enable":true,"device":"��"}"#)), .request(.poll)])
    }

    @Test("Requests end at ';' or a newline, several in one read or one split across many")
    func terminators() {
        var scanner = RequestScanner()
        #expect(feed(&scanner, "?VERSION;?POLL;\n?DEVICES\r\n") == [.request(.version), .request(.poll), .request(.devices)])
        #expect(feed(&scanner, "?WAT").isEmpty)
        #expect(feed(&scanner, "CH={\"enable\":tr").isEmpty)
        #expect(feed(&scanner, "ue};") == [.request(.watch(.init(enable: true)))])
    }

    @Test("A request's JSON object ends it at its closing brace: clients that send nothing after it are answered, and a ';' after it ends nothing more")
    func objectEndsRequest() {
        var scanner = RequestScanner()
        #expect(feed(&scanner, "?WATCH={\"enable\":true,\"json\":true}") == [.request(.watch(.init(enable: true, json: true)))])
        #expect(feed(&scanner, ";?POLL;") == [.request(.poll)])
        // A brace inside a string is the string's; the object closes at the last.
        #expect(feed(&scanner, #"?WATCH={"device":"/dev/{x}"}?VERSION;"#) == [.request(.watch(.init(device: "/dev/{x}"))), .request(.version)])
        // A nested object closes only at its outer brace (and is no flat request).
        #expect(feed(&scanner, #"?WATCH={"a":{"b":1}}"#) == [.request(.invalid("Invalid WATCH: not a JSON object"))])
        // A '}' with no object open is a character like another.
        #expect(feed(&scanner, "}?POLL;") == [.request(.unrecognized("}?POLL"))])
    }

    @Test("Blank lines and blanks around a request are not requests")
    func blanks() {
        var scanner = RequestScanner()
        #expect(feed(&scanner, "\r\n\n  ?POLL ;\n;;") == [.request(.poll)])
    }

    @Test("More than the limit without an end is overlong, and what follows is read afresh")
    func overlong() {
        var scanner = RequestScanner(limit: 16)
        #expect(feed(&scanner, String(repeating: "x", count: 17)) == [.overlong])
        #expect(feed(&scanner, "?POLL;") == [.request(.poll)])
        var exact = RequestScanner(limit: 16)
        #expect(feed(&exact, "?WATCH={\"a\":1};") == [.request(.watch(.init()))])
        var objectPastLimit = RequestScanner(limit: 16)
        #expect(feed(&objectPastLimit, "?WATCH={\"abc\":12}") == [.overlong], "17 bytes, the last the closing brace")
    }
}

@Suite("Listen addresses")
struct ListenAddressTests {
    @Test("HOST:PORT, [IPv6]:PORT, :PORT, PORT alone (loopback) and HOST alone", arguments: [
        ("127.0.0.1:2947", ListenAddress(host: "127.0.0.1", port: 2947)),
        ("0.0.0.0:3000", ListenAddress(host: "0.0.0.0", port: 3000)),
        ("[::1]:2948", ListenAddress(host: "::1", port: 2948)),
        ("[::]", ListenAddress(host: "::", port: 2947)),
        (":0", ListenAddress(host: "127.0.0.1", port: 0)),
        ("localhost", ListenAddress(host: "localhost", port: 2947)),
        ("2950", ListenAddress(host: "127.0.0.1", port: 2950)),
        ("0", ListenAddress(host: "127.0.0.1", port: 0)),
        ("gps-box.local.:2948", ListenAddress(host: "gps-box.local.", port: 2948)),
        ("[fe80::1%eth0]:2947", ListenAddress(host: "fe80::1%eth0", port: 2947)),
    ])
    func parses(_ text: String, _ expected: ListenAddress) {
        #expect(ListenAddress(parsing: text) == expected)
    }

    @Test("Malformed addresses are refused", arguments: [
        "127.0.0.1:", "127.0.0.1:70000", "::1:2947", "[::1", "[::1]2947", "a b:1", "host:port", "",
        "70000", "300.1.1.1:2947", "1.2.3:2947", "1.2.3.4.5", "[1.2.3.4]:2947", "[::g]:1", "[fe80::1%]:1",
        "-host:1", "under_score:1", "a..b:1", "127.0.0.1:+1", "/tmp/sock",
    ])
    func refuses(_ text: String) {
        #expect(ListenAddress(parsing: text) == nil)
    }

    @Test("A host alone takes the caller's default port; digits alone are still a port")
    func defaultPort() {
        #expect(ListenAddress(parsing: "0.0.0.0", defaultPort: 10110) == ListenAddress(host: "0.0.0.0", port: 10110))
        #expect(ListenAddress(parsing: "10111", defaultPort: 10110) == ListenAddress(host: "127.0.0.1", port: 10111))
    }

    @Test("IPv6 addresses print with brackets")
    func prints() {
        #expect(ListenAddress(host: "::1", port: 2947).description == "[::1]:2947")
        #expect(ListenAddress.gpsdDefault.description == "127.0.0.1:2947")
    }
}
