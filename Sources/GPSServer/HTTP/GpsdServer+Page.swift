import GPSLocation
import GPSOutput
import GPSSystem
public import NMEA

/// What the page's server reads of the devices: STATUS reports for the event stream, the
/// snapshot at `/api/now` and the metrics at `/metrics`, all from one copy of the devices'
/// state taken under the lock, so a scrape never holds up a source longer than that copy.
extension GpsdServer {
    /// One device as the page sees it.
    struct DeviceView {
        var path: String
        var activated: Double?
        var health: DeviceHealth
        var tpv: [UInt8]?
        var sky: [UInt8]?
        /// The source's counts, read outside the lock.
        var statistics: Statistics?
    }

    /// How many clients of each kind, as the loop last counted them.
    struct ClientCounts: Equatable, Sendable {
        var gpsd = 0, nmea = 0, http = 0
    }

    /// The source's counts (sentences, bad checksums) of device `device`, read when the page
    /// or a scrape asks; a relay's feed gives each source's manager here.
    public func setStatistics(device: Int, _ read: @escaping @Sendable () -> Statistics?) {
        shared.withLock { s in
            // A fleet's server has no device until its first vehicle: nothing to count yet.
            guard s.devices.indices.contains(device) else { return }
            s.devices[device].health.statistics = read
        }
    }

    /// Adds metrics of a feed beside the server (an MQTT publisher's queue), read at each scrape.
    public func addMetrics(_ provider: @escaping @Sendable () -> [MetricFamily]) {
        shared.withLock { $0.metricProviders.append(provider) }
    }

    func deviceViews() -> (devices: [DeviceView], clients: ClientCounts) {
        let (views, readers, clients) = shared.withLock { s in
            (s.devices.map { DeviceView(path: $0.description.path, activated: $0.activated, health: $0.health,
                                        tpv: $0.lastTPV, sky: $0.lastSKY) },
             s.devices.map(\.health.statistics), s.clientCounts)
        }
        var devices = views
        for i in devices.indices { devices[i].statistics = readers[i]?() }
        return (devices, clients)
    }

    // MARK: - STATUS and /api/now

    /// gpsfix's STATUS report of one device (one line, CR LF), as the event stream carries it.
    static func status(_ d: DeviceView, clients: ClientCounts, now: Double) -> [UInt8] {
        var w = ByteWriter(capacity: 320)
        w.append("{\"class\":\"STATUS\",\"device\":")
        w.appendJSONString(d.path)
        statusMembers(d, clients: clients, now: now, into: &w)
        w.append("}\r\n")
        return w.bytes
    }

    private static func statusMembers(_ d: DeviceView, clients: ClientCounts, now: Double, into w: inout ByteWriter) {
        w.append(",\"state\":")
        w.appendJSONString(d.health.state)
        if let s = d.statistics {
            w.append(",\"sentences\":")
            w.append(s.sentences.byKind.reduce(0, &+))
            w.append(",\"bad_checksums\":")
            w.append(s.sentences.badChecksum)
            w.append(",\"malformed\":")
            w.append(s.sentences.malformed)
        }
        w.append(",\"epochs\":")
        w.append(d.health.epochs)
        w.append(",\"fixes\":")
        w.append(d.health.fixes)
        w.append(",\"fix_age\":")
        if let at = d.health.lastFixAt { w.append(max(0, now - at), decimals: 1) } else { w.append("null") }
        if let offset = d.health.timeOffset {
            w.append(",\"time_offset\":")
            w.append(offset, decimals: 6)
        }
        w.append(",\"clients\":")
        clientsObject(clients, into: &w)
    }

    /// `{"gpsd":N,"nmea":N,"http":N}`.
    private static func clientsObject(_ clients: ClientCounts, into w: inout ByteWriter) {
        w.append("{\"gpsd\":")
        w.append(clients.gpsd)
        w.append(",\"nmea\":")
        w.append(clients.nmea)
        w.append(",\"http\":")
        w.append(clients.http)
        w.append("}")
    }

    /// `/api/now`: every device's last TPV and SKY as gpsd wrote them, its state and counts.
    func snapshot(now: Double) -> [UInt8] {
        let (devices, clients) = deviceViews()
        var w = ByteWriter(capacity: 1024 + devices.count * 2048)
        w.append("{\"class\":\"NOW\",\"version\":")
        w.appendJSONString(configuration.release)
        w.append(",\"time\":")
        w.append(Clocks.wallSeconds, decimals: 3)
        w.append(",\"tiles\":")
        if let tiles = configuration.tileURL { w.appendJSONString(tiles) } else { w.append("null") }
        w.append(",\"devices\":[")
        for (i, d) in devices.enumerated() {
            if i > 0 { w.append(",") }
            w.append("{\"path\":")
            w.appendJSONString(d.path)
            w.append(",\"activated\":")
            w.append(d.activated == nil ? "false" : "true")
            w.append(",\"state\":")
            w.appendJSONString(d.health.state)
            w.append(",\"tpv\":")
            if let tpv = d.tpv { w.append(bytes: tpv) } else { w.append("null") }
            w.append(",\"sky\":")
            if let sky = d.sky { w.append(bytes: sky) } else { w.append("null") }
            w.append(",\"status\":{\"class\":\"STATUS\",\"device\":")
            w.appendJSONString(d.path)
            Self.statusMembers(d, clients: clients, now: now, into: &w)
            w.append("}}")
        }
        w.append("],\"clients\":")
        Self.clientsObject(clients, into: &w)
        w.append("}\n")
        return w.bytes
    }

    // MARK: - /metrics

    func metrics(now: Double) -> [UInt8] {
        let (devices, clients) = deviceViews()
        let providers = shared.withLock { $0.metricProviders }
        return MetricsText.write(Self.families(devices, clients: clients, release: configuration.release, now: now)
                                 + providers.flatMap { $0() })
    }

    static func families(_ devices: [DeviceView], clients: ClientCounts, release: String, now: Double) -> [MetricFamily] {
        typealias S = MetricFamily.Sample
        func each(_ value: (DeviceView) -> Double?) -> [S] {
            devices.compactMap { d in value(d).map { S($0, labels: [("device", d.path)]) } }
        }
        let states = ["waiting", "started", "streaming", "stale", "disconnected", "reconnecting", "finished", "failed", "stopped"]
        var dops: [S] = [], used: [S] = [], seen: [S] = []
        for d in devices {
            let dop = d.health.lastSky?.dop ?? d.health.lastFix?.dop
            let kinds: [(String, Double?)] = [("hdop", dop?.horizontal), ("vdop", dop?.vertical), ("pdop", dop?.position),
                                              ("tdop", dop?.time), ("xdop", dop?.longitude), ("ydop", dop?.latitude)]
            for (kind, value) in kinds {
                if let value { dops.append(S(value, labels: [("device", d.path), ("kind", kind)])) }
            }
            guard let sky = d.health.lastSky else { continue }
            var tally: [Constellation: (used: Int, seen: Int)] = [:]
            for sat in sky.satellites {
                var t = tally[sat.id.constellation] ?? (0, 0)
                t.seen += 1
                if sat.used { t.used += 1 }
                tally[sat.id.constellation] = t
            }
            for constellation in Constellation.allCases {
                guard let t = tally[constellation] else { continue }
                let labels = [("device", d.path), ("constellation", constellation.metricName)]
                used.append(S(Double(t.used), labels: labels))
                seen.append(S(Double(t.seen), labels: labels))
            }
        }
        return [
            MetricFamily("gpsfix_build_info", .gauge, help: "The release serving, as its version label; always 1.",
                         samples: [S(1, labels: [("version", release)])]),
            MetricFamily("gpsfix_device_active", .gauge, help: "1 while the device is in service (listed in gpsd's DEVICES), 0 while it is gone.",
                         samples: each { $0.activated == nil ? 0 : 1 }),
            MetricFamily("gpsfix_source_state", .gauge, help: "1 for the source's current state, 0 for the others.",
                         samples: devices.flatMap { d in states.map { S(d.health.state == $0 ? 1 : 0, labels: [("device", d.path), ("state", $0)]) } }),
            MetricFamily("gpsfix_fix_mode", .gauge, help: "The last epoch's fix: 0 unknown, 1 no fix, 2 two-dimensional, 3 three-dimensional (gpsd's TPV mode).",
                         samples: each { $0.health.lastFix.map { Double($0.mode.rawValue) } }),
            MetricFamily("gpsfix_satellites_used", .gauge, help: "Satellites used in the last fix, by constellation.", samples: used),
            MetricFamily("gpsfix_satellites_seen", .gauge, help: "Satellites in view in the last sky view, by constellation.", samples: seen),
            MetricFamily("gpsfix_dilution_of_precision", .gauge, help: "The last dilutions of precision (unitless), by kind.", samples: dops),
            MetricFamily("gpsfix_horizontal_error_meters", .gauge, help: "The last fix's estimated horizontal error, 95 % (gpsd's eph).",
                         samples: each { $0.health.lastFix?.hasFix == true ? $0.health.lastFix?.estimatedErrors.horizontal : nil }),
            MetricFamily("gpsfix_vertical_error_meters", .gauge, help: "The last fix's estimated vertical error, 95 % (gpsd's epv).",
                         samples: each { $0.health.lastFix?.mode == .threeD ? $0.health.lastFix?.estimatedErrors.vertical : nil }),
            MetricFamily("gpsfix_latitude_degrees", .gauge, help: "The last fix's latitude (WGS 84).",
                         samples: each { $0.health.lastFix?.hasFix == true ? $0.health.lastFix?.coordinate?.latitude : nil }),
            MetricFamily("gpsfix_longitude_degrees", .gauge, help: "The last fix's longitude (WGS 84).",
                         samples: each { $0.health.lastFix?.hasFix == true ? $0.health.lastFix?.coordinate?.longitude : nil }),
            MetricFamily("gpsfix_altitude_meters", .gauge, help: "The last 3D fix's altitude above mean sea level.",
                         samples: each { $0.health.lastFix?.mode == .threeD ? $0.health.lastFix?.altitude : nil }),
            MetricFamily("gpsfix_speed_meters_per_second", .gauge, help: "The last fix's speed over ground.",
                         samples: each { $0.health.lastFix?.hasFix == true ? $0.health.lastFix?.speed : nil }),
            MetricFamily("gpsfix_fix_age_seconds", .gauge, help: "Time since the last fix with a position.",
                         samples: each { $0.health.lastFixAt.map { max(0, now - $0) } }),
            MetricFamily("gpsfix_time_offset_seconds", .gauge, help: "The last live fix's arrival less its time: how late the receiver's NMEA comes (gpsfix timing's offset).",
                         samples: each { $0.health.timeOffset }),
            MetricFamily("gpsfix_epochs_total", .counter, help: "Epochs reported (one TPV each).", samples: each { Double($0.health.epochs) }),
            MetricFamily("gpsfix_fixes_total", .counter, help: "Epochs reported with a 2D or 3D fix.", samples: each { Double($0.health.fixes) }),
            MetricFamily("gpsfix_sentences_total", .counter, help: "NMEA sentences accepted (checksum good).",
                         samples: each { $0.statistics.map { Double($0.sentences.byKind.reduce(0, &+)) } }),
            MetricFamily("gpsfix_sentence_checksum_errors_total", .counter, help: "NMEA lines dropped for a checksum that did not match.",
                         samples: each { $0.statistics.map { Double($0.sentences.badChecksum) } }),
            MetricFamily("gpsfix_sentences_malformed_total", .counter, help: "Lines dropped as no sentence at all.",
                         samples: each { $0.statistics.map { Double($0.sentences.malformed) } }),
            MetricFamily("gpsfix_clients", .gauge, help: "Clients connected, by feed (gpsd's protocol, bare NMEA over TCP, the web page and its event streams).",
                         samples: [S(Double(clients.gpsd), labels: [("feed", "gpsd")]), S(Double(clients.nmea), labels: [("feed", "nmea")]),
                                   S(Double(clients.http), labels: [("feed", "http")])]),
        ]
    }
}

extension Constellation {
    /// Its label value in the metrics: lower case, one word.
    var metricName: String {
        switch self {
        case .gps: "gps"
        case .sbas: "sbas"
        case .galileo: "galileo"
        case .beidou: "beidou"
        case .imes: "imes"
        case .qzss: "qzss"
        case .glonass: "glonass"
        case .navic: "navic"
        }
    }
}
