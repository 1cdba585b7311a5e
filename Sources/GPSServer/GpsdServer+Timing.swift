public import GPSSystem
import GPSOutput

extension GpsdServer {
    /// gpsd's two time reports, for watchers that ask with `"pps":true` (`ntpshmmon`-style
    /// monitors, `gpspipe -w -P`, ntpd's GPSD_JSON driver).
    public enum TimingReport: String, Sendable {
        /// A pulse paired with its second: the true time at the edge, and the system's.
        case pps = "PPS"
        /// An NMEA epoch's time against when it arrived.
        case toff = "TOFF"
    }

    /// Sends a PPS or TOFF of device `device` to its watchers that asked for them: `real` is
    /// the true time (the receiver's), `clock` the system's at the same moment, `precision`
    /// log2 of the seconds it is good to (-20 for a pulse, -1 for NMEA), `shm` the NTP segment
    /// the same sample went to ("NTP1"), if any. Called on the source's thread.
    public func publishTiming(_ report: TimingReport, real: WallTime, clock: WallTime, precision: Int, shm: String? = nil, device: Int = 0) {
        let path = shared.withLock { $0.devices.indices.contains(device) ? $0.devices[device].description.path : nil }
        guard let path else { return }
        var w = ByteWriter(capacity: 256)
        w.append("{\"class\":\"")
        w.append(report.rawValue)
        w.append("\",\"device\":")
        w.appendJSONString(path)
        w.append(",\"real_sec\":")
        w.append(Int(real.seconds))
        w.append(",\"real_nsec\":")
        w.append(Int(real.nanoseconds))
        w.append(",\"clock_sec\":")
        w.append(Int(clock.seconds))
        w.append(",\"clock_nsec\":")
        w.append(Int(clock.nanoseconds))
        w.append(",\"precision\":")
        w.append(precision)
        if let shm {
            w.append(",\"shm\":")
            w.appendJSONString(shm)
        }
        w.append("}\r\n")
        deliver([(w.bytes, .timing)], device: device)
    }
}
