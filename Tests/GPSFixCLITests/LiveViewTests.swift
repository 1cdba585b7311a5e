import NMEA
import Glibc
import GPSLocation
import GPSSources
import GPSGpsd
import GPSTestSupport
import Testing
@testable import GPSFixCLI

/// The live view's frames, drawn from events with a clock and a screen size handed in.
@Suite("Live view", .timeLimit(.minutes(1)))
struct LiveViewTests {
    // MARK: - Fixtures

    static let fix: Fix = {
        var f = Fix()
        f.timestamp = FixTime(date: CalendarDate(year: 2019, month: 4, day: 12), time: TimeOfDay(hour: 12, minute: 0, second: 3))
        f.mode = .threeD
        f.quality = .dgps
        f.coordinate = Coordinate(latitude: 48.1173, longitude: -11.5166667)
        f.altitude = 545.4
        f.ellipsoidalAltitude = 592.3
        f.geoidSeparation = 46.9
        f.speed = 10
        f.course = 54.7
        f.satellitesUsed = 4
        f.dop = DilutionOfPrecision(position: 2.5, horizontal: 1.3, vertical: 2.1)
        f.horizontalAccuracy = 1.25
        f.verticalAccuracy = 2.5
        return f
    }()

    static let sky = SkyView(satellites: [
        Satellite(id: SatelliteID(constellation: .gps, svid: 4), elevation: 45, azimuth: 120, snr: 40, used: true),
        Satellite(id: SatelliteID(constellation: .gps, svid: 9), elevation: 60, azimuth: 300, snr: 50, used: true),
        Satellite(id: SatelliteID(constellation: .gps, svid: 24), elevation: 3, azimuth: 252, snr: nil, used: false),
        Satellite(id: SatelliteID(constellation: .galileo, svid: 5), elevation: 30, azimuth: 200, snr: 25, used: true),
        Satellite(id: SatelliteID(constellation: .glonass, svid: 12), elevation: 10, azimuth: 50, snr: 20, used: true),
    ], dop: DilutionOfPrecision(position: 2.5, horizontal: 1.3, vertical: 2.1))

    /// A view that has seen `events`, the first at t = 100 s.
    func view(_ events: [LocationEvent], source: String = "/dev/ttyACM0", kind: SourceKind = .receiver,
              unicode: Bool = true) -> LiveView {
        var view = LiveView(source: source, kind: kind, unicode: unicode)
        for event in events { view.apply(event, at: 100) }
        return view
    }

    func line(_ lines: [String], _ prefix: String) -> String? {
        lines.first { $0.hasPrefix(prefix) }
    }

    // MARK: - What a new user tripped on

    @Test("One count of satellites used on one screen: the sky's (GSA names them) over the fix's (GGA's number)")
    func oneUsedCount() throws {
        // Given a GGA that says 12 and a GSA whose satellites number 4 (as a receiver may)
        var fix = Self.fix
        fix.satellitesUsed = 12
        let lines = view([.fix(fix), .sky(Self.sky)]).lines(now: 100, width: 100, height: 40)

        // Then both rows say the sky's
        #expect(try #require(line(lines, "Fix")).contains("4 satellites used"))
        #expect(try #require(line(lines, "Sky")).contains("5 satellites in view, 4 used"))
        // and without a sky, the fix's
        let alone = view([.fix(fix)]).lines(now: 100, width: 100, height: 40)
        #expect(try #require(line(alone, "Fix")).contains("12 satellites used"))
    }

    @Test("Colour, where the terminal has it: the state in the title, green with a fix, red when lost, yellow while waiting")
    func colour() throws {
        func title(_ events: [LocationEvent], colour: Bool = true) -> String {
            var view = LiveView(source: "/dev/ttyACM0", kind: .receiver, unicode: true, colour: colour)
            for event in events { view.apply(event, at: 100) }
            return view.lines(now: 100, width: 80, height: 30)[0]
        }
        #expect(title([.fix(Self.fix)]).hasSuffix("\u{1B}[32m3D fix\u{1B}[0m"))
        #expect(title([.fix(Self.fix), .status(.disconnected(reason: "gone"))]).hasSuffix("\u{1B}[31mdevice unplugged — waiting\u{1B}[0m"))
        #expect(title([.status(.started)]).hasSuffix("\u{1B}[33mwaiting for fix\u{1B}[0m"))
        #expect(!title([.fix(Self.fix)], colour: false).contains("\u{1B}"))
        // Only the title: every other row stays plain text, cut to the width as before
        var view = LiveView(source: "/dev/ttyACM0", kind: .receiver, unicode: true, colour: true)
        view.apply(.fix(Self.fix), at: 100)
        #expect(view.lines(now: 100, width: 80, height: 30).dropFirst().allSatisfy { !$0.contains("\u{1B}") })
    }

    @Test("Which terminals redraw and which have colour", arguments: [
        ("xterm-256color", nil, true, true), ("dumb", nil, false, false), ("", nil, true, false),
        ("screen", nil, true, true), ("tmux-256color", "1", true, false), ("vt52", nil, true, false),
    ] as [(String, String?, Bool, Bool)])
    func terminalKinds(term: String, noColor: String?, redraws: Bool, colours: Bool) {
        #expect(TerminalScreen.canRedraw(term: term) == redraws)
        #expect(TerminalScreen.hasColour(term: term, noColor: noColor) == colours)
        #expect(TerminalScreen.canRedraw(term: nil) == true)
        #expect(TerminalScreen.hasColour(term: nil, noColor: nil) == false)
    }

    // MARK: - The fix and the sky

    @Test("A fix shows time and age, position, both altitudes, speed, course, mode, DOPs and accuracy")
    func fixBlock() throws {
        // Given
        let view = view([.status(.started), .fix(Self.fix), .sky(Self.sky)])

        // When: drawn 2.5 s after the fix arrived
        let lines = view.lines(now: 102.5, width: 100, height: 40)

        // Then
        #expect(try #require(line(lines, "Time")).hasSuffix("2019-04-12 12:00:03.000 UTC   age 2.5 s"))
        #expect(try #require(line(lines, "Position")).contains("48.1173000 N   11.5166667 W"))
        let altitude = try #require(line(lines, "Altitude"))
        #expect(altitude.contains("545.4 m MSL") && altitude.contains("592.3 m ellipsoidal"), "\(altitude)")
        let speed = try #require(line(lines, "Speed"))
        #expect(speed.contains("10.00 m/s (36.0 km/h)") && speed.contains("course 54.7° NE"), "\(speed)")
        let mode = try #require(line(lines, "Fix"))
        #expect(mode.contains("3D") && mode.contains("DGPS") && mode.contains("4 satellites used"), "\(mode)")
        #expect(try #require(line(lines, "DOP")).contains("PDOP 2.5   HDOP 1.3   VDOP 2.1   TDOP —"))
        #expect(try #require(line(lines, "Accuracy")).contains("horizontal ±1.3 m   vertical ±2.5 m"))
        #expect(lines[0].hasPrefix("gpsfix watch  /dev/ttyACM0") && lines[0].hasSuffix("3D fix"), "\(lines[0])")
        #expect(lines[0].count == 100, "the status sits at the right edge")
    }

    @Test("A course or azimuth just below 360 is drawn as 0, as the JSON writes it: never 360.0° (issue 17)")
    func bearingsJustBelow360() throws {
        var fix = Self.fix
        fix.course = 359.96
        var sky = Self.sky
        sky.satellites[0].azimuth = 359.6
        let lines = view([.status(.started), .fix(fix), .sky(sky)]).lines(now: 102.5, width: 100, height: 40)
        let speed = try #require(line(lines, "Speed"))
        #expect(speed.contains("course 0.0° N"), "\(speed)")
        let g04 = try #require(lines.first { $0.contains("G04") })
        #expect(g04.contains(" 0°") && !g04.contains("360°"), "\(g04)")
        #expect(LiveViewText.bearing(359.94, 1) == "359.9")
        #expect(LiveViewText.bearing(12.25, 0) == "12")
    }

    @Test("The sky: a heading per constellation, then each satellite with elevation, azimuth, SNR bar and used flag")
    func skyTable() throws {
        // Given
        let view = view([.fix(Self.fix), .sky(Self.sky)])

        // When
        let lines = view.lines(now: 100, width: 100, height: 40)

        // Then
        #expect(try #require(line(lines, "Sky")).contains("5 satellites in view, 4 used"))
        let groups = lines.filter { $0.hasPrefix(" ") && !$0.hasPrefix("  ") }
        #expect(groups == [" GPS  3 in view, 2 used", " Galileo  1 in view, 1 used", " GLONASS  1 in view, 1 used"])
        let g04 = try #require(line(lines, "  G04"))
        #expect(g04.contains("45°   120°    40  " + String(repeating: "█", count: 16) + " "), "\(g04)")
        #expect(g04.hasSuffix("✓"))
        #expect(try #require(line(lines, "  G09")).contains(String(repeating: "█", count: 20)), "50 dB-Hz fills the bar")
        let g24 = try #require(line(lines, "  G24"))
        #expect(g24.contains("3°   252°     —") && !g24.contains("█") && !g24.contains("✓"), "no SNR, not used: \(g24)")
        #expect(try #require(line(lines, "  E05")).contains("██████████ "), "25 dB-Hz is half the bar")
        #expect(line(lines, "  R12") != nil)
        // Satellites in the order the sky view holds them: GPS, Galileo, GLONASS.
        let order = lines.compactMap { l in ["G04", "G09", "G24", "E05", "R12"].first { l.hasPrefix("  " + $0) } }
        #expect(order == ["G04", "G09", "G24", "E05", "R12"])
    }

    @Test("Partial bar cells in eighths: 41 dB-Hz is 16.4 cells")
    func barEighths() {
        let view = LiveView(source: "x", unicode: true)
        #expect(view.bar(41) == String(repeating: "█", count: 16) + "▍")
        #expect(view.bar(0) == "")
        #expect(view.bar(nil) == "")
        #expect(view.bar(99) == String(repeating: "█", count: 20), "capped at the full scale")
    }

    @Test("The age counts on between fixes, from when the fix arrived, in minutes when long")
    func age() throws {
        let view = view([.fix(Self.fix)])
        #expect(try #require(line(view.lines(now: 100.04, width: 100, height: 40), "Time")).hasSuffix("age 0.0 s"))
        #expect(try #require(line(view.lines(now: 225, width: 100, height: 40), "Time")).hasSuffix("age 2 min 5 s"))
    }

    // MARK: - Status

    @Test("Before any fix: 'waiting for fix', dashes for the fix, and no sky yet")
    func waiting() throws {
        // Given: the source has opened, and sent a fix without a position
        let opened = view([.status(.started)])
        var noFix = Fix()
        noFix.mode = .noFix
        let searching = view([.status(.streaming), .fix(noFix)])

        // When
        let lines = opened.lines(now: 100, width: 100, height: 40)

        // Then
        #expect(lines[0].hasSuffix("waiting for fix"))
        #expect(line(lines, "Position")?.hasSuffix("waiting for fix") == true)
        #expect(line(lines, "Altitude")?.hasSuffix("—") == true)
        #expect(line(lines, "Sky")?.hasSuffix("no satellites reported yet") == true)
        #expect(lines.last == "Sentences —   bad checksums —   other errors —   fixes 0   sky views 0")
        #expect(searching.statusText == "waiting for fix")
        #expect(line(searching.lines(now: 100, width: 100, height: 40), "Position")?.hasSuffix("no fix") == true)
        #expect(view([]).statusText == "waiting for fix", "a replay says nothing until its first fix")
    }

    @Test("The kind of source comes from the manager built, not from its name")
    func sourceKinds() {
        #expect(SourceKind(GpsdManager(host: "gpsd-box")) == .gpsd)
        #expect(SourceKind(ReplayManager(path: "gpsd at 127.0.0.1:2947")) == .capture)
        #expect(SourceKind(SerialNMEAManager(path: "/dev/ttyACM0")) == .receiver)
    }

    @Test("An unplugged receiver and a lost gpsd say so, and the last fix stays with its age",
          arguments: [
              ("/dev/ttyACM0", SourceKind.receiver, SourceStatus.disconnected(reason: "/dev/ttyACM0 hung up"), "device unplugged — waiting"),
              ("/dev/ttyACM0", .receiver, .reconnecting(attempt: 3), "device unplugged — waiting (attempt 3)"),
              ("gpsd at 127.0.0.1:2947", .gpsd, .disconnected(reason: "connection closed"), "gpsd went away — waiting"),
              ("gpsd at 127.0.0.1:2947", .gpsd, .reconnecting(attempt: 2), "gpsd reconnecting (attempt 2)"),
              ("/dev/ttyUSB0", .receiver, .stale(after: .seconds(5.2)), "nothing received for 5 s"),
              ("drive.nmea", .capture, .stopped, "stopped"),
          ])
    func statuses(source: String, kind: SourceKind, status: SourceStatus, expected: String) throws {
        // Given
        let view = view([.fix(Self.fix), .status(status)], source: source, kind: kind)

        // When
        let lines = view.lines(now: 110, width: 100, height: 40)

        // Then
        #expect(view.statusText == expected)
        #expect(lines[0].hasSuffix(expected), "\(lines[0])")
        #expect(try #require(line(lines, "Position")).contains("48.1173000 N"))
        #expect(try #require(line(lines, "Time")).hasSuffix("age 10.0 s"))
    }

    @Test("After a reconnect the view is back to the fix it has")
    func streamingAgain() {
        let view = view([.status(.disconnected(reason: "gone")), .status(.streaming), .fix(Self.fix)])
        #expect(view.statusText == "3D fix")
    }

    @Test("A failure is shown for what it is")
    func failure() {
        let view = view([.error(.deviceGone(path: "/dev/ttyACM0"))])
        #expect(view.statusText == "failed: /dev/ttyACM0 went away (unplugged?).")
    }

    // MARK: - Counters

    @Test("Counters: sentences and errors from the engine's statistics; the run's total stands once it comes")
    func counters() throws {
        // Given: the engine's counts over two epochs, one sentence with a bad checksum and one cut off
        let good = TestCapture.epoch(0) + TestCapture.epoch(1)
        let broken = "$GPGGA,120002.00,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,*00"
        let bytes = Array(((good + [broken]).map { $0 + "\r\n" }.joined() + "$GPRMC,1200").utf8)
        let parser = NMEAParser()
        parser.parse(bytes) { _ in }
        parser.finish { _ in }
        var view = view([.fix(Self.fix), .sky(Self.sky), .fix(Self.fix)])

        // When
        view.update(parser.statistics)
        let running = try #require(view.lines(now: 100, width: 100, height: 40).last)
        let earlier = NMEAParser()
        earlier.parse(Array(TestCapture.epoch(0).map { $0 + "\r\n" }.joined().utf8)) { _ in }
        view.apply(.status(.finished(parser.statistics)), at: 101)
        view.update(earlier.statistics)

        // Then
        #expect(running == "Sentences 10   bad checksums 1   other errors 1   fixes 2   sky views 1")
        #expect(view.lines(now: 101, width: 100, height: 40).last?.hasPrefix("Sentences 10   bad checksums 1") == true,
                "a snapshot after the end does not replace the total")
        #expect(view.statusText == "end of capture")
    }

    @Test("A replay shares its counts while it runs, and they add up to its total")
    func replayStatistics() async throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.drive(epochs: 4)
        let manager = ReplayManager(path: path, speed: .maximum)
        let service = LocationService(manager: manager)
        #expect(manager.statistics == nil, "nothing read yet")

        // When
        let events = await drain(service.updates())

        // Then
        #expect(events.finished)
        guard case .status(.finished(let total))? = events.elements.last else {
            Issue.record("no .finished: \(events.elements.last.map { "\($0)" } ?? "nothing")")
            return
        }
        #expect(manager.statistics == total)
        #expect(manager.statistics?.sentences.decoded == 20)
        #expect((GpsdManager() as any LocationManagerInterface).statistics == nil, "gpsd parses, not us: nothing to show")
    }

    // MARK: - Small and plain terminals

    @Test("A small terminal: rows cut, never wrapped; the sky table gives way, the counters stay")
    func truncation() throws {
        // Given
        let view = view([.fix(Self.fix), .sky(Self.sky)])

        // When: 40 columns, 19 rows (the full frame is 23)
        let lines = view.lines(now: 100, width: 40, height: 19)

        // Then
        #expect(lines.count == 19)
        #expect(lines.allSatisfy { $0.count <= 40 }, "\(lines.filter { $0.count > 40 })")
        #expect(lines[0].hasPrefix("gpsfix watch  /dev/ttyACM0"))
        #expect(line(lines, "Position")?.hasPrefix("Position   48.1173000 N") == true)
        #expect(lines.last?.hasPrefix("Sentences — ") == true, "the counters stay")
        #expect(line(lines, "  G09") != nil)
        #expect(line(lines, "  G24") == nil)
        let more = try #require(line(lines, "  +"))
        #expect(more.hasPrefix("  +3 more (a taller window"), "\(more)")
    }

    @Test("Tiny terminals get what fits, down to nothing", arguments: [(1, 1), (10, 3), (0, 0), (100, 12)])
    func tiny(width: Int, height: Int) {
        let lines = view([.fix(Self.fix), .sky(Self.sky)]).lines(now: 100, width: width, height: height)
        #expect(lines.count == min(height, 23))
        #expect(lines.allSatisfy { $0.count <= width })
    }

    @Test("Without a UTF-8 locale, plain ASCII: '#' bars, '*' for used, '-' for unknown")
    func ascii() throws {
        // Given
        let view = view([.fix(Self.fix), .sky(Self.sky), .status(.disconnected(reason: "gone"))], unicode: false)

        // When
        let lines = view.lines(now: 100, width: 100, height: 40)

        // Then
        #expect(lines.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }, "\(lines.filter { !$0.utf8.allSatisfy { $0 < 0x80 } })")
        #expect(lines[0].hasSuffix("device unplugged - waiting"))
        let g04 = try #require(line(lines, "  G04"))
        #expect(g04.contains("45    120    40  " + String(repeating: "#", count: 16)) && g04.hasSuffix("*"), "\(g04)")
        #expect(try #require(line(lines, "Accuracy")).contains("horizontal +/-1.3 m"))
        #expect(lines[1] == String(repeating: "-", count: 100))
    }

    // MARK: - The terminal side

    @Test("The screen: the alternate screen in, one frame of positioned rows, the terminal back as it was")
    func screenSequences() throws {
        // Given: a terminal whose stdout is a pipe
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        var screen = TerminalScreen(terminal: Terminal(outFD: fds[1], errFD: 2))

        // When
        screen.leave()          // before entering: nothing to undo
        screen.enter()
        screen.draw(["one", "two"], height: 3)
        screen.leave()
        screen.leave()          // twice: once is enough
        screen.draw(["after"], height: 1)
        close(fds[1])
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fds[0], &buffer, buffer.count)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        let text = String(decoding: bytes, as: UTF8.self)

        // Then
        let esc = "\u{1B}"
        #expect(text == "\(esc)[?1049h\(esc)[?25l\(esc)[?7l\(esc)[H\(esc)[2J"
            + "\(esc)[1;1H\(esc)[Kone\(esc)[2;1H\(esc)[Ktwo\(esc)[3;1H\(esc)[K"
            + "\(esc)[?7h\(esc)[?25h\(esc)[?1049l", "\(text.debugDescription)")
        let size = screen.size()
        #expect(size.width == 80 && size.height == 24, "a pipe has no size: the classic one")
    }
}
