import NMEA
import Foundation
import GPSTestSupport
import GPSLocation
import Synchronization

/// A smaller 1 Hz capture than GPSTestSupport's `TestCapture` (no GSV): each epoch is RMC, GGA and
/// GSA stamped 12:00:ss on 2019-04-12, so these tests count three sentences an epoch.
enum SmallCapture {
    /// The sentences of the epoch `second` seconds after 12:00:00, framed, without line ends.
    static func epoch(_ second: Int) -> [String] {
        let t = "12" + pad(second / 60) + pad(second % 60) + ".00"
        return [
            "GPRMC,\(t),A,4807.0380,N,01131.0000,E,0.5,54.7,120419,,,A",
            "GPGGA,\(t),4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,",
            "GPGSA,A,3,04,05,09,12,24,,,,,,,,2.5,1.3,2.1",
        ].map(NMEASentence.framed)
    }

    /// The sentences of `count` epochs, one second apart.
    static func sentences(epochs count: Int) -> [String] {
        (0..<count).flatMap(epoch)
    }

    /// A capture as gpsfake writes it: a `#` header, then the sentences with CRLF line ends.
    static func text(epochs count: Int, header: Bool = true) -> String {
        (header ? "# Name: gpsfix test capture\n# Location: 48.1173 N 11.5167 E,\n#   a test bench\n" : "")
            + sentences(epochs: count).map { $0 + "\r\n" }.joined()
    }

    private static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}


/// A delegate that writes down everything a manager tells it, for tests that drive a manager
/// without a `LocationService`.
final class RecordingDelegate: LocationManagerDelegate {
    private let log = Mutex<[LocationEvent]>([])
    private let stamps = Mutex<[Double?]>([])

    var events: [LocationEvent] { log.withLock { $0 } }
    /// The fixes as the engine made them: a live source's arrival stamps are in `arrivals`,
    /// so that a live stream's fixes compare with a replay's.
    var fixes: [Fix] { events.compactMap { if case .fix(let f) = $0 { f } else { nil } } }
    /// Each fix's `arrival`, in order.
    var arrivals: [Double?] { stamps.withLock { $0 } }
    var ended: Bool { events.last?.isTerminal ?? false }

    func locationManager(_ manager: any LocationManagerInterface, didUpdateFix fix: Fix) {
        var made = fix
        made.arrival = nil
        stamps.withLock { $0.append(fix.arrival) }
        record(.fix(made))
    }
    func locationManager(_ manager: any LocationManagerInterface, didUpdateSkyView sky: SkyView) { record(.sky(sky)) }
    func locationManager(_ manager: any LocationManagerInterface, didChangeStatus status: SourceStatus) { record(.status(status)) }
    func locationManager(_ manager: any LocationManagerInterface, didFailWithError error: LocationError) { record(.error(error)) }
    func locationManager(_ manager: any LocationManagerInterface, didReceiveSentence sentence: String) { record(.sentence(sentence)) }
    func locationManager(_ manager: any LocationManagerInterface, didReceiveNote note: ReceiverNote) { record(.note(note)) }

    private func record(_ event: LocationEvent) { log.withLock { $0.append(event) } }
}

extension Fix {
    /// The second of the minute this fix was stamped with (the tests' captures start at 12:00:00).
    var second: Int? { timestamp.map { $0.time.minute * 60 + $0.time.second } }
}

extension LocationEvent {
    var fix: Fix? { if case .fix(let f) = self { f } else { nil } }
    var sky: SkyView? { if case .sky(let s) = self { s } else { nil } }
}

/// A delegate that starts its manager again from inside the first failure it is told of, as a
/// caller that retries on the news does, and counts the failures.
final class RestartingOnFailure: LocationManagerDelegate {
    private let failures = Mutex<[LocationError]>([])

    var errors: [LocationError] { failures.withLock { $0 } }

    func locationManager(_ manager: any LocationManagerInterface, didUpdateFix fix: Fix) {}

    func locationManager(_ manager: any LocationManagerInterface, didFailWithError error: LocationError) {
        let first = failures.withLock { $0.append(error); return $0.count == 1 }
        if first { manager.startUpdatingLocation() }
    }
}
