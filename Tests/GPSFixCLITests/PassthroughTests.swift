import Foundation
import GPSTestSupport
import Testing


/// Every sentence the engine does not decode still reaches the NMEA outputs unchanged: AIS
/// (`!AIVDM`, `!AIVDO`), proprietary sentences, SiRF's `$PSRFTXT…` whose address runs into its
/// text, MediaTek's 203-byte `$PMTKCHN`. (`record` keeps the bytes themselves:
/// `NetworkSourceTests`' recordStream.)
@Suite("Undecoded sentences passed through", .enabled(if: GPSFixBinary.isAvailable), .timeLimit(.minutes(1)))
struct PassthroughTests {
    /// The capture's sentence lines (`$` or `!`), without their line ends.
    static func sentences(_ text: String) -> [String] {
        text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
            .map(String.init).filter { $0.hasPrefix("$") || $0.hasPrefix("!") }
    }

    @Test("watch --nmea of gpsd's captures gives every sentence as received: AIS, proprietary, SiRF's text, MediaTek's long lines",
          .enabled(if: haveGpsdCaptures, "../shared/captures/gpsd is not beside the project"),
          arguments: [("ait250.log", "!AIVDM,"), ("ait250.log", "!AIVDO,"), ("saab-r4.log", "$PFEC,"),
                      ("blumax-gps009.log", "$PSRFTXT"), ("mtk-3301.log", "$PMTKCHN,")])
    func watchNMEA(capture: String, undecoded: String) async throws {
        // Given a capture whose every sentence line has a good checksum, some of a kind gpsfix does not read
        let path = gpsdCaptures.appendingPathComponent(capture).path
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        let expected = Self.sentences(text)
        #expect(expected.contains { $0.hasPrefix(undecoded) }, "the capture has \(undecoded) sentences")

        // When
        let result = try #require(await gpsfix("watch", "--replay", path, "--nmea", "--speed", "max"))

        // Then every one comes out, byte for byte, in order, each ended by CR LF
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == expected.map { $0 + "\r\n" }.joined())
    }

    /// A capture of 1 Hz epochs, each with sentences gpsfix does not decode between its own.
    static func mixed(epochs: Int) -> [String] {
        (0..<epochs).flatMap { second -> [String] in
            let t = "12" + String(format: "%02d%02d", second / 60, second % 60) + ".00"
            return [
                NMEASentence.framed("GPRMC,\(t),A,5012.7908,N,00806.8796,W,0.5,3.0,010611,,A"),
                NMEASentence.framed("GPGGA,\(t),5012.7908,N,00806.8796,W,2,08,1.0,10.0,M,50.0,M,,"),
                "!" + String(NMEASentence.framed("AIVDM,1,1,,B,13aGhtw0R<OJf=6LgQ?Ad1FF05`L,0").dropFirst()),
                "!" + String(NMEASentence.framed("AIVDO,1,1,,,B3aC3LP00063aj7RNpl03wSUwP06,0").dropFirst()),
                NMEASentence.framed("PFEC,AIcmd,0,35,A,01062011,\(t)"),
                NMEASentence.framed("PSRFTXTVersion GSW3.2.2_3.1.00.12-SDK003P1.01a "),
                NMEASentence.framed("GPTXT,01,01,02,ANTENNA OK"),
            ]
        }
    }

    @Test("serve's NMEA listener and a gpsd watcher with nmea:true get AIS and proprietary sentences as received, in order")
    func serveNMEA() async throws {
        // Given serve replaying (looped, ten epochs a second) a capture of mixed sentences
        let dir = try TemporaryDirectory()
        let lines = Self.mixed(epochs: 20)
        let capture = try dir.write("mixed.nmea", lines.map { $0 + "\r\n" }.joined())
        let serve = try await ServeProcess(["--replay", capture, "--loop", "--speed", "10", "--nmea-listen", "127.0.0.1:0"])
        let nmeaPort = try #require(ServeNMEAFeedTests.nmeaPort(serve.stderr), "\(serve.stderr)")

        // When a bare NMEA client and a gpsd watcher of NMEA each read 30 lines
        let bare = try LineClient(port: nmeaPort)
        let watcher = try LineClient(port: serve.port)
        watcher.send("?WATCH={\"enable\":true,\"nmea\":true};")
        let fromBare = bare.readLines(30, within: 10)
        let fromWatcher = watcher.readLines(33, within: 10).filter { !$0.hasPrefix("{") }
        #expect(await serve.stop() == 0)

        // Then each got a run of the capture's lines, whole and in order, the undecoded ones among them
        for (name, got) in [("NMEA listener", fromBare), ("gpsd watcher", fromWatcher)] {
            #expect(got.count >= 25, "\(name): \(got)")
            // (the capture looped: it may wrap from its last epoch to its first)
            let cycle = lines + lines
            #expect(cycle.indices.contains { start in start + got.count <= cycle.count && Array(cycle[start..<start + got.count]) == got },
                    "\(name): \(got)")
            for kind in ["!AIVDM,", "!AIVDO,", "$PFEC,", "$PSRFTXTVersion"] {
                #expect(got.contains { $0.hasPrefix(kind) }, "\(name) got no \(kind)")
            }
        }
    }
}
