public import GPSLocation
public import GPSSystem

/// gpsd's own time reports, read as one of its clients: `TOFF` (an NMEA epoch's time against
/// the system time gpsd read it at) and `PPS` (a pulse paired with its second), which gpsd
/// sends to a watch that asks with `"pps":true`. gpsd's fixes carry no time of arrival, but
/// these carry gpsd's own measure of it: what `gpsfix timing --gpsd` reads.
///
/// A peer's line is held to `LineBuffer`'s bound and judged before use: a report whose class,
/// device or times are not what gpsd sends (seconds outside 1980–2179, nanoseconds outside
/// 0…999,999,999) is skipped and counted.
public final class GpsdTimeReports: Sendable {
    /// One report.
    public struct Report: Equatable, Sendable {
        /// Which report it was.
        public enum Kind: String, Sendable {
            /// The NMEA's time (`real`) and when gpsd read it (`clock`).
            case toff = "TOFF"
            /// The second a pulse began (`real`) and its edge by the system clock (`clock`).
            case pps = "PPS"
        }
        /// TOFF or PPS.
        public let kind: Kind
        /// The device gpsd names.
        public let device: String
        /// The true time: the receiver's.
        public let real: WallTime
        /// The system time at the same moment.
        public let clock: WallTime
    }

    /// gpsd's host (a name, or an IPv4 or IPv6 address).
    public let host: String
    /// gpsd's port.
    public let port: Int
    private let wakeup: Wakeup

    /// Reports of the gpsd at `host`:`port`; nothing is connected until `run`.
    public init(host: String = "127.0.0.1", port: Int = 2947) throws(LocationError) {
        guard let wakeup = Wakeup() else { throw .io("no descriptors left for a wake-up pipe") }
        self.host = host
        self.port = port
        self.wakeup = wakeup
    }

    /// Connects, watches, and calls `report` with each report, on the calling thread, for
    /// `duration` or until `stop()`; returns how many lines were skipped. gpsd not there, or
    /// gone, throws `.gpsdUnavailable`.
    public func run(for duration: Duration, _ report: (Report) -> Void) throws(LocationError) -> Int {
        let deadline = Clocks.monotonicSeconds + duration.inSeconds
        let connection: TCPConnection
        do {
            connection = try TCPConnection.connect(host: host, port: port, timeout: .seconds(5), wakeup: wakeup)
            try connection.sendAll(Array("?WATCH={\"enable\":true,\"json\":true,\"pps\":true};\n".utf8), timeout: .seconds(5), wakeup: wakeup)
        } catch {
            throw .gpsdUnavailable(host: host, port: port, reason: "\(error)")
        }
        var lines = LineBuffer(maximumLine: 16_384)
        var skipped = 0
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while case let left = deadline - Clocks.monotonicSeconds, left > 0 {
            let waited: FileDescriptor.Wait
            do {
                waited = try connection.waitReadable(within: .milliseconds(Int64((left * 1000).rounded(.up))), wakeup: wakeup)
            } catch {
                throw .gpsdUnavailable(host: host, port: port, reason: "\(error)")
            }
            guard waited == .ready else { return skipped }
            let read = buffer.withUnsafeMutableBytes { raw in Result { () throws(SystemError) in try connection.receive(into: raw) } }
            switch read {
            case .success(.processed(0)):
                throw .gpsdUnavailable(host: host, port: port, reason: "gpsd closed the connection")
            case .success(.processed(let count)):
                buffer.withUnsafeBytes { raw in
                    lines.append(UnsafeRawBufferPointer(rebasing: raw[0..<count])) { line in
                        // gpsd names the class first; TPV and SKY are passed over unparsed.
                        guard line.starts(with: Self.toffPrefix) || line.starts(with: Self.ppsPrefix) else { return }
                        if let parsed = Self.report(Array(line)) { report(parsed) } else { skipped += 1 }
                    }
                }
            case .success(.wouldBlock):
                continue
            case .failure(let error):
                throw .gpsdUnavailable(host: host, port: port, reason: "\(error)")
            }
        }
        return skipped
    }

    private static let toffPrefix = Array("{\"class\":\"TOFF\"".utf8)
    private static let ppsPrefix = Array("{\"class\":\"PPS\"".utf8)

    /// Ends a `run` from another thread (Ctrl-C).
    public func stop() { wakeup.signal() }

    /// A TOFF or PPS line, judged: nil for anything else.
    static func report(_ line: [UInt8]) -> Report? {
        guard let value = JSONValue(parsing: line), let kind = value["class"]?.string.flatMap(Report.Kind.init(rawValue:)),
              let device = value["device"]?.string, device.utf8.count <= 256,
              let real = time(value, "real"), let clock = time(value, "clock") else { return nil }
        return Report(kind: kind, device: device, real: real, clock: clock)
    }

    private static func time(_ value: JSONValue, _ name: String) -> WallTime? {
        // 1980-01-01 to 2179-12-31, the years the engine takes.
        guard let seconds = value[name + "_sec"]?.double, seconds == seconds.rounded(), seconds >= 315_532_800, seconds < 6_626_563_200,
              let nanoseconds = value[name + "_nsec"]?.double, nanoseconds == nanoseconds.rounded(), nanoseconds >= 0, nanoseconds < 1e9
        else { return nil }
        return WallTime(seconds: Int64(seconds), nanoseconds: Int64(nanoseconds))
    }
}
