import Foundation
import NMEA
import Testing

private let gpsdCaptures = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/captures/gpsd")

extension Array where Element == EngineEvent {
    var notes: [ReceiverNote] { compactMap { if case .note(let n) = $0 { n } else { nil } } }
}

/// Receivers' text messages: each a note as soon as it is whole, part of no epoch.
@Suite("TXT")
struct TXTTests {
    @Test("u-blox's banner line: one part of one, a notice, the text as sent without the padding around it")
    func ublox() throws {
        let x = try #require(decoded("GNTXT,01,01,02,HW UBX-M80xx 00080000 ") as? TXT)
        #expect(x.totalParts == 1 && x.part == 1 && x.severity == .notice)
        #expect(x.text == "HW UBX-M80xx 00080000 ")
        #expect(events(nmea("GNTXT,01,01,02,HW UBX-M80xx 00080000 ")).notes == [ReceiverNote(severity: .notice, text: "HW UBX-M80xx 00080000")])
    }

    @Test("kinds: 00 error, 01 warning, 02 notice, 07 user, another number as it is, none when out of range", arguments: [
        ("00", ReceiverNote.Severity.error as ReceiverNote.Severity?), ("01", .warning), ("02", .notice), ("07", .user),
        ("42", ReceiverNote.Severity(rawValue: 42)), ("100", nil), ("", nil),
    ])
    func severity(field: String, expected: ReceiverNote.Severity?) throws {
        let x = try #require(decoded("GPTXT,01,01,\(field),ANTENNA OPEN") as? TXT)
        #expect(x.severity == expected)
        #expect(x.text == "ANTENNA OPEN")
    }

    @Test("a Telit SL869's TXT of text alone (gpsd ignores it): a note without a kind")
    func textAlone() {
        let notes = events("$GPTXT,TELIT SW Version: SL869 v3.1.2.1 -STD -N96\r\n").notes
        #expect(notes == [ReceiverNote(severity: nil, text: "TELIT SW Version: SL869 v3.1.2.1 -STD -N96")])
    }

    @Test("commas in the text are kept: the text is everything after the third field")
    func commas() {
        #expect(events(nmea("GNTXT,01,01,02,GNSS OTP: GPS GLO, SEL: GPS GLO")).notes.map(\.text) == ["GNSS OTP: GPS GLO, SEL: GPS GLO"])
    }

    @Test("a message in three parts is one note, its parts joined in order, when its last part comes")
    func multipart() {
        let events = events(nmea(["GPTXT,03,01,01,ANTENNA ", "GPTXT,03,02,01,SHORT ON ", "GPTXT,03,03,01,PIN 5"]))
        #expect(events.notes == [ReceiverNote(severity: .warning, text: "ANTENNA SHORT ON PIN 5")])
    }

    @Test("a part missed, or one out of turn: the message so far is a note marked incomplete", arguments: [
        (["GPTXT,03,01,02,ONE ", "GPTXT,03,03,02,THREE"],
         [ReceiverNote(severity: .notice, text: "ONE", isComplete: false), ReceiverNote(severity: .notice, text: "THREE", isComplete: false)]),
        (["GPTXT,02,01,02,FIRST ", "GPTXT,01,01,02,OTHER"],
         [ReceiverNote(severity: .notice, text: "FIRST", isComplete: false), ReceiverNote(severity: .notice, text: "OTHER")]),
        (["GPTXT,02,02,02,LATE"], [ReceiverNote(severity: .notice, text: "LATE", isComplete: false)]),
        // The stream ends in the middle of a message: what came is reported at the end.
        (["GPTXT,02,01,02,CUT"], [ReceiverNote(severity: .notice, text: "CUT", isComplete: false)]),
        // Part 3 of 2: the numbers are unknown (and counted); the text is a note of its own.
        (["GPTXT,02,03,02,ODD"], [ReceiverNote(severity: .notice, text: "ODD", isComplete: true)]),
    ] as [([String], [ReceiverNote])])
    func broken(bodies: [String], expected: [ReceiverNote]) {
        #expect(events(nmea(bodies)).notes == expected)
    }

    @Test("a message is bounded: 256 bytes of text, eight parts; the rest is cut and the note says so")
    func bounded() {
        let part = String(repeating: "x", count: 60)
        let bodies = (1...20).map { "GPTXT,20,\($0 < 10 ? "0" : "")\($0),02,\(part)" }
        let notes = events(nmea(bodies)).notes
        #expect(notes.count == 1)
        #expect(notes.first?.text.utf8.count == ReceiverNote.maximumLength)
        #expect(notes.first?.isComplete == false)
    }

    @Test("a banner of TXTs between two cycles changes no fix and splits no epoch")
    func noEpoch() {
        let cycle = { (s: Int) in [
            "GPRMC,0812\(s)0.00,A,4717.11437,N,00833.91522,E,0.004,77.52,091202,,,A",
            "GPGGA,0812\(s)0.00,4717.11437,N,00833.91522,E,1,08,1.01,499.6,M,48.0,M,,",
        ] }
        let banner = ["GPTXT,01,01,02,u-blox ag - www.u-blox.com", "GPTXT,01,01,02,HW  UBX-G50xx  00040005",
                      "GPTXT,01,01,02,ROM BASE 4.00", "GPTXT,01,01,02,MOD LEA-5H-0", "GPTXT,01,01,02,ANTSTATUS=OK"]
        let plain = events(nmea(cycle(1) + cycle(2) + cycle(3)))
        let withNotes = events(nmea(cycle(1) + banner + cycle(2) + banner + cycle(3)))
        #expect(withNotes.fixes == plain.fixes)
        #expect(withNotes.fixes.count == 3)
        #expect(withNotes.notes.count == 10)
        // Each note comes as soon as it is whole, held for no epoch: the first banner before the
        // first fix (reported when the second cycle begins), the second between the cycles
        let kinds = withNotes.map { event in
            switch event {
            case .fix: "F"
            case .note: "N"
            case .sky: "S"
            }
        }.joined()
        #expect(kinds == "NNNNNFFNNNNNF")
    }

    @Test("gpsd's nl2008u capture: its u-blox banner and antenna state, eight notes in the order sent",
          .enabled(if: FileManager.default.fileExists(atPath: gpsdCaptures.path), "../shared/captures/gpsd is not beside the project"))
    func nl2008u() throws {
        let bytes = [UInt8](try Data(contentsOf: gpsdCaptures.appendingPathComponent("nl2008u.log")))
        let notes = parsed(bytes).events.notes
        #expect(notes.map(\.text) == [
            "u-blox AG - www.u-blox.com", "HW UBX-M80xx 00080000", "ROM CORE 2.01 (75331) Oct 29 2013 13:28:17", "PROTVER 15.00",
            "GNSS OTP:  GPS GLO, SEL:  GPS GLO", "ANTSUPERV=AC SD PDoS SR", "ANTSTATUS=OK",
            "LLC FFFFFFFF-FFFFFFED-FFFFFFFF-FFFFFFFF-FFFFFFE9",
        ])
        #expect(notes.allSatisfy { $0.severity == .notice && $0.isComplete })
    }
}
