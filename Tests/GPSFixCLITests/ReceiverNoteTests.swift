import Foundation
import NMEA
import GPSLocation
import GPSTestSupport
import Synchronization
import Testing
@testable import GPSFixCLI

/// A receiver's notes (TXT) in the log: each change once, escaped, bounded, held to a rate.
@Suite("Receiver notes in the log")
struct ReceiverNoteLogTests {
    private func note(_ text: String, _ severity: ReceiverNote.Severity? = .notice) -> ReceiverNote {
        ReceiverNote(severity: severity, text: text)
    }

    @Test("ANTENNA OK every second is said once; OPEN is said, and OK again when it comes back")
    func changesOnly() {
        let log = ReceiverNoteLog()
        var said: [String] = []
        for text in ["ANTENNA OK", "ANTENNA OK", "ANTENNA OK", "ANTENNA OPEN", "ANTENNA OPEN", "ANTENNA OK", "ANTENNA OK"] {
            said += log.lines(note(text), source: "/dev/ttyACM0")
        }
        #expect(said == ["/dev/ttyACM0: receiver notice: ANTENNA OK", "/dev/ttyACM0: receiver notice: ANTENNA OPEN",
                         "/dev/ttyACM0: receiver notice: ANTENNA OK"])
    }

    @Test("a banner said again at a restart is not said again; each of its lines is its own topic")
    func banner() {
        let log = ReceiverNoteLog()
        let banner = ["u-blox AG - www.u-blox.com", "HW UBX-M80xx 00080000", "PROTVER 15.00", "ANTSTATUS=OK"]
        let first = banner.flatMap { log.lines(note($0), source: "gps") }
        let again = banner.flatMap { log.lines(note($0), source: "gps") }
        #expect(first.count == 4 && again.isEmpty)
        // `=` ends a word: ANTSTATUS=OPEN is news of the same topic, and OK after it too
        #expect(log.lines(note("ANTSTATUS=OPEN"), source: "gps") == ["gps: receiver notice: ANTSTATUS=OPEN"])
        #expect(log.lines(note("ANTSTATUS=OK"), source: "gps") == ["gps: receiver notice: ANTSTATUS=OK"])
    }

    @Test("the words for each kind, and for a note with parts missing", arguments: [
        (ReceiverNote(severity: .error, text: "NO FLASH"), "s: receiver error: NO FLASH"),
        (ReceiverNote(severity: .warning, text: "ANTENNA SHORT"), "s: receiver warning: ANTENNA SHORT"),
        (ReceiverNote(severity: .user, text: "hello"), "s: receiver message: hello"),
        (ReceiverNote(severity: nil, text: "TELIT SW Version: SL869"), "s: receiver message: TELIT SW Version: SL869"),
        (ReceiverNote(severity: ReceiverNote.Severity(rawValue: 42), text: "x"), "s: receiver message (type 42): x"),
        (ReceiverNote(severity: .notice, text: "ONE", isComplete: false), "s: receiver notice: ONE (incomplete)"),
    ])
    func words(note: ReceiverNote, line: String) {
        #expect(ReceiverNoteLog.line(note, source: "s") == line)
    }

    @Test("the receiver's text is escaped and cut: it cannot move the cursor, forge a line or decide a line's length")
    func hostileText() throws {
        let line = ReceiverNoteLog.line(note("ANTENNA\u{1B}[2J\ngpsfix: forged\u{202E}" + String(repeating: "x", count: 500)), source: "s")
        #expect(!line.contains("\u{1B}") && !line.contains("\n") && !line.contains("\u{202E}"))
        #expect(line.contains("\\u{1B}[2J\\u{A}gpsfix: forged\\u{202E}"))
        #expect(line.count < 200 && line.hasSuffix("…"))
    }

    @Test("a flood of different notes: ten a minute, then one count")
    func flood() {
        let now = Mutex(0.0)
        let log = ReceiverNoteLog(now: { now.withLock { $0 } })
        var said: [String] = []
        for i in 0..<50 { said += log.lines(note("FLOOD \(i)", .warning), source: "s") }
        #expect(said.count == 10)
        now.withLock { $0 = 61 }
        said = log.lines(note("LATER", .warning), source: "s")
        #expect(said == ["50 receiver notes from s in the last minute (40 not logged one by one)", "s: receiver warning: LATER"])
        #expect(log.flush().isEmpty)
    }

    @Test("serve logs each source's notes as they change, naming the source")
    func serve() {
        let said = Mutex<[String]>([])
        let feed = ServeNotes.Feed(note: { line in said.withLock { $0.append(line) } }, servesLastFix: true, several: false)
        let manager = NamedManager()
        let source = RelaySource(index: 0, service: LocationService(manager: manager))
        for text in ["ANTENNA OK", "ANTENNA OK", "ANTENNA OPEN"] { feed.take(.note(note(text)), from: source) }
        feed.stop()
        #expect(said.withLock { $0 } == ["gpsfix: \(manager.sourceDescription): receiver notice: ANTENNA OK",
                                         "gpsfix: \(manager.sourceDescription): receiver notice: ANTENNA OPEN"])
    }

    @Test("the live view shows the receiver's last note under its counters, escaped")
    func liveView() {
        var view = LiveView(source: "/dev/ttyACM0", unicode: true)
        view.apply(.note(note("ANTENNA OK")), at: 0)
        view.apply(.note(note("ANTENNA OPEN\u{07}", .warning)), at: 1)
        let frame = view.lines(now: 2, width: 100, height: 40)
        #expect(frame.last == "Receiver  warning: ANTENNA OPEN\\u{7}")
        #expect(!frame.contains { $0.contains("ANTENNA OK") })
    }
}

/// A source that only has a name.
private final class NamedManager: LocationManagerInterface, @unchecked Sendable {
    var delegate: (any LocationManagerDelegate)?
    let sourceDescription = "/dev/ttyTEST"
    func startUpdatingLocation() {}
    func stopUpdatingLocation() {}
}


@Suite("gpsfix watch: a receiver's notes", .enabled(if: GPSFixBinary.isAvailable), .timeLimit(.minutes(1)))
struct WatchNotesTests {
    @Test("a u-blox's banner and antenna state are said on stderr, each once; stdout is the JSON alone")
    func onStderr() async throws {
        // Given a capture whose receiver says its banner, then ANTENNA OK every second and once OPEN
        let dir = try TemporaryDirectory()
        var lines = ["GNTXT,01,01,02,u-blox AG - www.u-blox.com", "GNTXT,01,01,02,PROTVER 15.00"]
        for second in 0..<6 {
            let t = "1200\(second < 10 ? "0" : "")\(second).00"
            lines += ["GPRMC,\(t),A,4807.0380,N,01131.0000,E,0.5,54.7,120419,,,A",
                      "GPGGA,\(t),4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,",
                      second == 3 ? "GNTXT,01,01,01,ANTENNA OPEN" : "GNTXT,01,01,02,ANTENNA OK"]
        }
        let path = try dir.write("notes.nmea", lines.map { NMEASentence.framed($0) + "\r\n" }.joined())

        // When
        let result = try #require(await gpsfix("watch", "--replay", path, "--json", "--speed", "max"))

        // Then
        #expect(result.status == 0, "\(result)")
        let notes = result.stderr.split(separator: "\n").filter { $0.contains("receiver") }
        #expect(notes == [
            "gpsfix: \(path): receiver notice: u-blox AG - www.u-blox.com", "gpsfix: \(path): receiver notice: PROTVER 15.00",
            "gpsfix: \(path): receiver notice: ANTENNA OK", "gpsfix: \(path): receiver warning: ANTENNA OPEN",
            "gpsfix: \(path): receiver notice: ANTENNA OK",
        ])
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("{\"class\":\"TPV\"") })
    }

    @Test("gpsd's sl869 capture: the Telit's version, which gpsd drops, is said",
          .enabled(if: haveGpsdCaptures, "../shared/captures/gpsd is not beside the project"))
    func telit() async throws {
        let path = gpsdCaptures.appendingPathComponent("sl869.log").path
        let result = try #require(await gpsfix("watch", "--replay", path, "--speed", "max"))
        #expect(result.status == 0)
        #expect(result.stderr.contains("gpsfix: \(path): receiver message: TELIT SW Version: SL869 v3.1.2.1 -STD -N96\n"))
    }
}
