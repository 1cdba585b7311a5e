/// A small capture the tests write out: 1 Hz epochs from 12:00:00 on 12 April 2019 at
/// 48.1173° N 11.5166667° E, 545.4 m, five satellites in view and used.
public enum TestCapture {
    private static func stamp(_ second: Int) -> String {
        let m = second / 60, s = second % 60
        return "12" + (m < 10 ? "0\(m)" : "\(m)") + (s < 10 ? "0\(s)" : "\(s)") + ".00"
    }

    /// One 1 Hz epoch with a 3D fix: RMC, GGA, GSA and a two-part GSV of five satellites.
    public static func epoch(_ second: Int) -> [String] {
        let t = stamp(second)
        return [
            "GPRMC,\(t),A,4807.0380,N,01131.0000,E,0.5,54.7,120419,,,A",
            "GPGGA,\(t),4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,",
            "GPGSA,A,3,04,05,09,12,24,,,,,,,,2.5,1.3,2.1",
            "GPGSV,2,1,05,04,45,120,40,05,30,200,35,09,60,300,42,12,10,050,20",
            "GPGSV,2,2,05,24,70,010,45",
        ].map(NMEASentence.framed)
    }

    /// One epoch of a receiver without a fix.
    public static func noFixEpoch(_ second: Int) -> [String] {
        let t = stamp(second)
        return ["GPRMC,\(t),V,,,,,,,120419,,,N", "GPGGA,\(t),,,,,0,00,,,M,,M,,"].map(NMEASentence.framed)
    }

    public static func text(_ epochs: [[String]]) -> String {
        "# Name: gpsfix CLI test\n# Date: 2019-04-12\n" + epochs.joined().map { $0 + "\r\n" }.joined()
    }
}
