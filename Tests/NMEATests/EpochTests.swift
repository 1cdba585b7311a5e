import NMEA
import Testing

/// One 1 Hz epoch of a simple receiver, RMC GGA GSA, at 12:00:`second`, moving north.
private func epoch(_ second: Int, fix: Bool = true) -> [String] {
    let time = "1200\(second < 10 ? "0" : "")\(second).00"
    let minutes = String(format2: 7.0 + Double(second) * 0.001)
    guard fix else {
        return [
            nmea("GPRMC,\(time),V,,,,,,,150624,,,N"),
            nmea("GPGGA,\(time),,,,,0,00,,,M,,M,,"),
            nmea("GPGSA,A,1,,,,,,,,,,,,,,,"),
        ]
    }
    return [
        nmea("GPRMC,\(time),A,48\(minutes),N,01131.000,E,3.9,0.0,150624,,,A"),
        nmea("GPGGA,\(time),48\(minutes),N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
        nmea("GPGSA,A,3,04,05,09,12,24,,,,,,,,2.5,1.3,2.1"),
    ]
}

private extension String {
    /// `7.001` as `07.001`: minutes with two integer digits and three decimals.
    init(format2 value: Double) {
        let thousandths = Int((value * 1000).rounded())
        let whole = thousandths / 1000, fraction = thousandths % 1000
        self = (whole < 10 ? "0" : "") + "\(whole)." + String(repeating: "0", count: 3 - "\(fraction)".count) + "\(fraction)"
    }
}

/// Feeds `lines` one at a time and records, for each event, the index of the line whose
/// feeding produced it (`lines.count` for `finish`).
private func feedLines(_ lines: [String]) -> [(line: Int, event: EngineEvent)] {
    let parser = NMEAParser()
    var log: [(Int, EngineEvent)] = []
    for (i, line) in lines.enumerated() {
        parser.parse(bytes(line)) { log.append((i, $0)) }
    }
    parser.finish { log.append((lines.count, $0)) }
    return log
}

private func second(_ fix: Fix) -> Int? { fix.timestamp.map { $0.time.milliseconds / 1000 % 60 } }

@Suite("Epochs")
struct EpochTests {
    @Test("sentences sharing a time are one epoch: one fix each")
    func grouping() {
        // Given three epochs of RMC GGA GSA
        let out = events((0..<3).flatMap { epoch($0) }.joined())
        // Then there are three fixes, at 12:00:00, :01, :02, each with the RMC's speed and the GGA's altitude
        let fixes = out.fixes
        #expect(fixes.map(second) == [0, 1, 2])
        #expect(fixes.allSatisfy { $0.mode == .threeD && $0.altitude == 545.4 && near($0.speed, 3.9 * 1852 / 3600) })
        #expect(near(fixes[2].coordinate?.latitude, degrees(48, 7.002)))
    }

    @Test("an epoch is reported at its learned ender, before the next epoch's first line")
    func deliveredAtEnder() {
        // Given three epochs fed one line at a time (lines 0–2, 3–5, 6–8)
        let lines = (0..<3).flatMap { epoch($0) }
        let log = feedLines(lines).filter { if case .fix = $0.event { true } else { false } }
        // Then epoch 0, before any ender is known, comes when epoch 1's RMC (line 3) arrives;
        // from then on GSA is the known ender and each epoch comes with its GSA (lines 5 and 8),
        // before the next epoch's first line is fed, and nothing is left for finish
        #expect(log.map(\.line) == [3, 5, 8])
        let seconds = log.map { entry -> Int? in if case .fix(let f) = entry.event { second(f) } else { nil } }
        #expect(seconds == [0, 1, 2])
    }

    @Test("the learned ender can be the second of two sentences of a kind")
    func secondGSAIsTheEnder() {
        // Given epochs of RMC GGA GSA(GPS) GSA(GLONASS), like a u-blox M8 with two GNGSA
        func cycle(_ s: Int) -> [String] {
            [
                nmea("GNRMC,12000\(s).00,A,4807.038,N,01131.000,E,0.0,,150624,,,A"),
                nmea("GNGGA,12000\(s).00,4807.038,N,01131.000,E,1,10,0.9,545.4,M,46.9,M,,"),
                nmea("GNGSA,A,3,04,05,09,12,24,,,,,,,,2.5,1.3,2.1"),
                nmea("GNGSA,A,3,66,67,68,76,82,,,,,,,,2.5,1.3,2.1"),
            ]
        }
        let lines = (0..<3).flatMap(cycle)
        // When they are fed line by line
        let log = feedLines(lines).filter { if case .fix = $0.event { true } else { false } }
        // Then epochs 1 and 2 come with their second GNGSA (lines 7 and 11), not the first
        #expect(log.map(\.line) == [4, 7, 11])
    }

    @Test("the last epoch is reported at finish when no ender is known")
    func lastAtFinish() {
        // Given a single epoch: no ender can be learned from it
        let lines = epoch(0)
        let log = feedLines(lines)
        // Then nothing comes until finish, and then its fix
        #expect(log.count == 1)
        #expect(log.first?.line == lines.count)
        if case .fix(let f)? = log.first?.event {
            #expect(second(f) == 0)
            #expect(f.mode == .threeD)
        } else {
            Issue.record("no fix at finish")
        }
    }

    @Test("an epoch cut short before its ender is reported at finish")
    func cutShortAtFinish() {
        // Given two whole epochs and a third without its GSA (the known ender)
        let lines = epoch(0) + epoch(1) + Array(epoch(2).prefix(2))
        let log = feedLines(lines).filter { if case .fix = $0.event { true } else { false } }
        // Then the third is reported at finish, with what it had
        #expect(log.map(\.line) == [3, 5, lines.count])
        if case .fix(let f)? = log.last?.event {
            #expect(second(f) == 2)
            #expect(f.altitude == 545.4)
            // no GSA: a valid GGA with an altitude is taken as 3D
            #expect(f.mode == .threeD)
            // no GSA this epoch: the last one's DOPs stand until restated, as gpsd keeps them
            #expect(f.dop.position == 2.5)
        }
    }

    @Test("a no-fix epoch is reported, with mode .noFix and nothing invented")
    func noFixEpoch() {
        // Given a no-fix epoch between two fixes
        let out = events((epoch(0) + epoch(1, fix: false) + epoch(2)).joined())
        let fixes = out.fixes
        // Then it is reported in its place, with its time, and nothing else
        #expect(fixes.map(second) == [0, 1, 2])
        let noFix = fixes[1]
        #expect(noFix.mode == .noFix)
        #expect(!noFix.hasFix)
        #expect(noFix.coordinate == nil)
        #expect(noFix.altitude == nil)
        #expect(noFix.speed == nil)
        #expect(noFix.quality == nil)
        #expect(noFix.satellitesUsed == 0)
        #expect(fixes[0].mode == .threeD && fixes[2].mode == .threeD)
    }

    @Test("sentences without a time split epochs by repetition")
    func untimedRepeats() {
        // Given a receiver with no time yet sending the same burst three times
        let burst = nmea(["GPGGA,,,,,,0,00,,,M,,M,,", "GPGSA,A,1,,,,,,,,,,,,,,,", "GPRMC,,V,,,,,,,,,,N"])
        let out = events(burst + burst + burst)
        // Then there are three no-fix epochs, without timestamps
        #expect(out.fixes.count == 3)
        #expect(out.fixes.allSatisfy { $0.mode == .noFix && $0.timestamp == nil })
    }

    @Test("a GSV set in several parts belongs to one epoch and gives one sky")
    func gsvParts() {
        // Given two epochs whose GSV set has three parts listing 9 satellites
        func cycle(_ time: String) -> String {
            nmea([
                "GPGGA,\(time),4807.038,N,01131.000,E,1,04,0.9,545.4,M,46.9,M,,",
                "GPGSA,A,3,04,05,09,12,,,,,,,,,2.5,1.3,2.1",
                "GPGSV,3,1,09,04,63,041,40,05,27,307,37,09,48,252,39,12,38,093,41",
                "GPGSV,3,2,09,17,19,160,30,20,11,211,,24,52,148,22,25,08,012,",
                "GPGSV,3,3,09,29,05,300,",
            ])
        }
        let out = events(cycle("120000.00") + cycle("120001.00"))
        // Then there are two fixes and two skies of 9 satellites, 4 of them used
        #expect(out.fixes.count == 2)
        #expect(out.skies.count == 2)
        let sky = out.skies[0]
        #expect(sky.satellites.map(\.id.svid) == [4, 5, 9, 12, 17, 20, 24, 25, 29])
        #expect(sky.satellitesUsed == 4)
        #expect(sky.satellites.first { $0.id.svid == 20 }?.snr == nil)
        #expect(sky.satellites.first { $0.id.svid == 4 }?.snr == 40)
        #expect(sky.satellites.first { $0.id.svid == 4 }?.elevation == 63)
        #expect(sky.satellites.first { $0.id.svid == 4 }?.azimuth == 41)
    }

    @Test("one satellite on two signals is one entry with the stronger SNR")
    func twoSignals() {
        // Given GPS 8 at 45 dB-Hz on L1 (signal 1) and 40 on L2 CL (signal 6), NMEA 4.11
        let out = events(nmea([
            "GNGGA,120000.00,4807.038,N,01131.000,E,1,04,0.9,545.4,M,46.9,M,,",
            "GNGSA,A,3,08,,,,,,,,,,,,2.5,1.3,2.1,1",
            "GPGSV,1,1,01,08,52,062,45,1",
            "GPGSV,1,1,01,08,52,062,40,6",
        ]))
        // Then the sky lists it once, with 45, and as used
        let sky = out.skies.first
        #expect(sky?.satellites.count == 1)
        #expect(sky?.satellites.first?.snr == 45)
        #expect(sky?.satellites.first?.used == true)
        #expect(out.fixes.count == 1)
    }

    @Test("GSA system IDs keep same-numbered satellites of different systems apart")
    func systemIDs() {
        // Given a GN receiver using GPS 26 (system 1) and BeiDou 26 (system 4)
        let out = events(nmea([
            "GNGGA,120000.00,4807.038,N,01131.000,E,1,02,0.9,545.4,M,46.9,M,,",
            "GNGSA,A,3,26,,,,,,,,,,,,1.5,0.9,1.2,1",
            "GNGSA,A,3,26,,,,,,,,,,,,1.5,0.9,1.2,4",
            "GPGSV,1,1,01,26,45,268,44,1",
            "GBGSV,1,1,01,26,34,233,39,1",
        ]))
        // Then the sky has both, both used
        let ids = out.skies.first?.satellites.filter(\.used).map(\.id)
        #expect(ids == [SatelliteID(constellation: .gps, svid: 26), SatelliteID(constellation: .beidou, svid: 26)])
    }

    @Test("climb is derived from consecutive 3D altitudes one second apart")
    func climb() {
        // Given two epochs one second apart at 100.0 m and 102.5 m
        let out = events(nmea([
            "GPRMC,120000.00,A,4807.038,N,01131.000,E,0.0,,150624,,,A",
            "GPGGA,120000.00,4807.038,N,01131.000,E,1,08,0.9,100.0,M,46.9,M,,",
            "GPRMC,120001.00,A,4807.038,N,01131.000,E,0.0,,150624,,,A",
            "GPGGA,120001.00,4807.038,N,01131.000,E,1,08,0.9,102.5,M,46.9,M,,",
        ]))
        // Then the first has no climb (nothing before it) and the second climbs 2.5 m/s
        #expect(out.fixes.count == 2)
        #expect(out.fixes[0].climb == nil)
        #expect(near(out.fixes[1].climb, 2.5))
    }

    @Test("statistics count epochs, fixes and early reports")
    func statistics() {
        // Given four epochs; When they are parsed; Then the counts are those of four epochs
        let (parser, out) = parsed(bytes((0..<4).flatMap { epoch($0) }.joined()))
        #expect(out.fixes.count == 4)
        let s = parser.statistics
        #expect(s.epochs.epochs == 4)
        #expect(s.epochs.fixes == 4)
        // Epochs 1–3 were reported at their ender; epoch 0 when epoch 1 began.
        #expect(s.epochs.earlyReports == 3)
        #expect(s.sentences[RMC.self] == 4)
        #expect(s.sentences[GGA.self] == 4)
        #expect(s.sentences[GSA.self] == 4)
        #expect(s.framing.lines == 12)
    }
}
