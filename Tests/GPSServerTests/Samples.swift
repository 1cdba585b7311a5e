import NMEA
import GPSLocation
import GPSTestSupport

/// Fixes and sky views as the engine makes them from real sentences.
enum Sample {
    /// The engine's events for `seconds` epochs, in order.
    static func events(_ seconds: Range<Int>) -> [LocationEvent] {
        let text = seconds.flatMap(TestCapture.epoch).map { $0 + "\r\n" }.joined()
        return NMEAParser.events(of: Array(text.utf8)).map { event in
            switch event {
            case .fix(let fix): .fix(fix)
            case .sky(let sky): .sky(sky)
            case .note(let note): .note(note)
            }
        }
    }

    static var fix: Fix {
        for case .fix(let fix) in events(0..<2) { return fix }
        fatalError("the sample has a fix")
    }
}
