import GPSLocation
import GPSTestSupport

/// Fixes and sky views as the engine makes them from real sentences.
enum Sample {
    static func epoch(_ second: Int) -> [String] {
        let t = "1200" + (second < 10 ? "0\(second)" : "\(second)") + ".00"
        return [
            "GPRMC,\(t),A,4807.0380,N,01131.0000,E,0.5,54.7,120419,,,A",
            "GPGGA,\(t),4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,",
            "GPGSA,A,3,04,05,09,12,24,,,,,,,,2.5,1.3,2.1",
            "GPGSV,2,1,05,04,45,120,40,05,30,200,35,09,60,300,42,12,10,050,20",
            "GPGSV,2,2,05,24,70,010,45",
        ].map(NMEASentence.framed)
    }

    /// The engine's events for `seconds` epochs, in order.
    static func events(_ seconds: Range<Int>) -> [LocationEvent] {
        let text = seconds.flatMap(epoch).map { $0 + "\r\n" }.joined()
        return NMEAParser.events(of: Array(text.utf8)).map { event in
            switch event {
            case .fix(let fix): .fix(fix)
            case .sky(let sky): .sky(sky)
            }
        }
    }

    static var fix: Fix {
        for case .fix(let fix) in events(0..<2) { return fix }
        fatalError("the sample has a fix")
    }
}
