import NMEA
import Testing

// The project's own captures (Captures/, written by Tools/make-captures.py). Each expected
// value was read from the capture's text: a coordinate `4552.52280,S` is written here as
// `degrees(45, 52.5228, negative: true)`.

private func date(_ y: Int, _ m: Int, _ d: Int) -> CalendarDate { CalendarDate(year: y, month: m, day: d)! }

private func clock(_ f: Fix) -> (h: Int, m: Int, s: Int, ms: Int)? {
    f.timestamp.map { ($0.time.hour, $0.time.minute, $0.time.second, $0.time.millisecond) }
}

private func run(_ name: String) throws -> (parser: NMEAParser, events: [EngineEvent]) {
    parsed(try capture(name))
}

@Suite("Captures")
struct CaptureTests {
    // MARK: drive-1hz

    @Test("drive-1hz: 180 fixes, all 3D, one a second on 2024-06-15")
    func driveFixes() throws {
        // Given the default capture, a three-minute drive at 1 Hz
        let (_, out) = try run("drive-1hz.nmea")
        let fixes = out.fixes
        // Then there is one fix per epoch, all 3D GPS fixes dated 15 June 2024
        #expect(fixes.count == 180)
        #expect(fixes.allSatisfy { $0.mode == .threeD && $0.quality == .gps })
        #expect(fixes.allSatisfy { $0.timestamp?.date == date(2024, 6, 15) })
        // from 03:12:07 to 03:15:06, one second apart
        #expect(clock(fixes.first!)! == (3, 12, 7, 0))
        #expect(clock(fixes.last!)! == (3, 15, 6, 0))
        let stamps = fixes.compactMap { $0.timestamp?.millisecondsSinceEpoch }
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $1 - $0 == 1000 })
        // GGA says 12 satellites (u-blox NMEA 4.0 caps it) with 7.9 m of geoid separation
        #expect(fixes.allSatisfy { $0.satellitesUsed == 12 && $0.geoidSeparation == 7.9 })
    }

    @Test("drive-1hz: starts and ends where its GGAs say, in Dunedin (S/E)")
    func driveEnds() throws {
        // Given the drive capture; When it is parsed
        // Then its first and last fixes are its first and last GGAs, south and east
        let fixes = try run("drive-1hz.nmea").events.fixes
        // $GNGGA,031207.00,4552.52280,S,17030.27120,E,1,12,0.74,9.0,M,7.9,M,,
        #expect(near(fixes.first?.coordinate?.latitude, degrees(45, 52.5228, negative: true)))
        #expect(near(fixes.first?.coordinate?.longitude, degrees(170, 30.2712)))
        #expect(fixes.first?.altitude == 9.0)
        #expect(near(fixes.first?.ellipsoidalAltitude, 9.0 + 7.9))
        // $GNGGA,031506.00,4551.68788,S,17031.16214,E,1,12,0.72,47.0,M,7.9,M,,
        #expect(near(fixes.last?.coordinate?.latitude, degrees(45, 51.68788, negative: true)))
        #expect(near(fixes.last?.coordinate?.longitude, degrees(170, 31.16214)))
        #expect(fixes.last?.altitude == 47.0)
    }

    @Test("drive-1hz: speeds and courses are those of a car, and agree with the track")
    func driveMotion() throws {
        // Given the drive capture; When it is parsed
        // Then speeds and courses are plausible for a car and consistent with the positions
        let fixes = try run("drive-1hz.nmea").events.fixes
        let speeds = fixes.compactMap(\.speed)
        #expect(speeds.count == 180)
        // Up to 43.737 knots (81 km/h) on the motorway; stopped twice
        #expect(near(speeds.max(), 43.737 * 1852 / 3600))
        // The RMC leaves the course empty exactly when the car stands still (12 epochs)
        #expect(fixes.filter { $0.course == nil }.count == 12)
        #expect(fixes.allSatisfy { ($0.course == nil) == ($0.speed! < 0.01) })
        // It turns: many distinct courses, all within 0..<360
        let courses = Set(fixes.compactMap(\.course))
        #expect(courses.count > 60)
        #expect(courses.allSatisfy { $0 >= 0 && $0 < 360 })
        // The track's length is what the speeds add up to (within 1%)
        let track = zip(fixes, fixes.dropFirst()).reduce(0.0) { $0 + $1.0.coordinate!.distance(to: $1.1.coordinate!) }
        let travelled = zip(speeds, speeds.dropFirst()).reduce(0.0) { $0 + ($1.0 + $1.1) / 2 }
        #expect(track > 2000)
        #expect(abs(track - travelled) / travelled < 0.01)
    }

    @Test("drive-1hz: a sky per epoch, GPS and GLONASS")
    func driveSky() throws {
        // Given the drive capture; When it is parsed
        // Then each epoch has a sky with its GSV satellites, the GSA ones marked used
        let skies = try run("drive-1hz.nmea").events.skies
        #expect(skies.count == 180)
        for sky in skies {
            // GPGSV lists 10 satellites, GLGSV 6 (numbered 65–96 → GLONASS 1–32)
            #expect(sky.satellites.filter { $0.id.constellation == .gps }.count == 10)
            #expect(sky.satellites.filter { $0.id.constellation == .glonass }.count == 6)
        }
        // The first epoch's two GNGSA list 02 05 13 15 18 20 29 30 and 66 67 75 76 77
        let used = skies[0].satellites.filter(\.used).map(\.id)
        #expect(used.filter { $0.constellation == .gps }.map(\.svid) == [2, 5, 13, 15, 18, 20, 29, 30])
        #expect(used.filter { $0.constellation == .glonass }.map(\.svid) == [2, 3, 11, 12, 13])
    }

    @Test("drive-1hz: the fix's DOPs are the GSA's")
    func driveDOP() throws {
        // Given the first epoch: GGA HDOP 0.74 and GSA "…,1.30,0.74,1.07" (PDOP, HDOP, VDOP)
        let fix = try run("drive-1hz.nmea").events.fixes.first
        #expect(fix?.dop.position == 1.30)
        #expect(fix?.dop.horizontal == 0.74)
        #expect(fix?.dop.vertical == 1.07)
    }

    // MARK: multignss-10hz

    @Test("multignss-10hz: 41 epochs 100 ms apart across the new year")
    func multiGNSSTimes() throws {
        // Given the 10 Hz capture across the new year; When it is parsed
        // Then there are 41 epochs, dated by their RMC, 100 ms apart across midnight
        let fixes = try run("multignss-10hz.nmea").events.fixes
        #expect(fixes.count == 41)
        #expect(fixes.allSatisfy { $0.mode == .threeD })
        // 2023-12-31 23:59:58.0 to 2024-01-01 00:00:02.0
        #expect(fixes.first?.timestamp?.date == date(2023, 12, 31))
        #expect(clock(fixes.first!)! == (23, 59, 58, 0))
        #expect(fixes.last?.timestamp?.date == date(2024, 1, 1))
        #expect(clock(fixes.last!)! == (0, 0, 2, 0))
        // Twenty epochs in 2023, then 21 from midnight in 2024: day, month and year all roll
        #expect(fixes.filter { $0.timestamp?.date == date(2023, 12, 31) }.count == 20)
        #expect(clock(fixes[20])! == (0, 0, 0, 0))
        #expect(fixes[20].timestamp?.date == date(2024, 1, 1))
        let stamps = fixes.compactMap { $0.timestamp?.millisecondsSinceEpoch }
        #expect(stamps.count == 41)
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $1 - $0 == 100 })
    }

    @Test("multignss-10hz: crossing the prime meridian eastwards at midnight")
    func multiGNSSMeridian() throws {
        // Given the 10 Hz capture; When it is parsed
        // Then the positions go from west of Greenwich to east of it, and the 4.11 fields are read
        let fixes = try run("multignss-10hz.nmea").events.fixes
        // $GNGGA,235958.00,5128.6758000,N,00000.0024000,W … and $GNGGA,000002.00,5128.6758264,N,00000.0024515,E
        #expect(near(fixes.first?.coordinate?.latitude, degrees(51, 28.6758)))
        #expect(near(fixes.first?.coordinate?.longitude, degrees(0, 0.0024, negative: true)))
        #expect(near(fixes.last?.coordinate?.latitude, degrees(51, 28.6758264)))
        #expect(near(fixes.last?.coordinate?.longitude, degrees(0, 0.0024515)))
        // West before midnight, east from midnight on, always moving east
        #expect(fixes.prefix(20).allSatisfy { $0.coordinate!.longitude < 0 })
        #expect(fixes.suffix(21).allSatisfy { $0.coordinate!.longitude > 0 })
        let longitudes = fixes.map { $0.coordinate!.longitude }
        #expect(zip(longitudes, longitudes.dropFirst()).allSatisfy { $0 < $1 })
        // NMEA 4.11 fields: navigational status V, 20 satellites, DOPs from the 18-field GNGSA
        #expect(fixes.allSatisfy { $0.navigationalStatus == .notValid })
        #expect(fixes.allSatisfy { $0.satellitesUsed == 20 })
        #expect(fixes.allSatisfy { $0.dop.position == 0.94 && $0.dop.horizontal == 0.52 && $0.dop.vertical == 0.78 })
    }

    @Test("multignss-10hz: one sky a second, four constellations, two signals merged")
    func multiGNSSSky() throws {
        // Given the 10 Hz capture; When it is parsed
        // Then each second has one sky of 22 satellites in four systems
        let skies = try run("multignss-10hz.nmea").events.skies
        // GSV sets come with every tenth epoch: .0 s, five times
        #expect(skies.count == 5)
        for sky in skies {
            func count(_ c: Constellation) -> Int { sky.satellites.filter { $0.id.constellation == c }.count }
            // GPS 8 (L1 and L2 sets, merged), GLONASS 5, Galileo 5 (E1 and E5b, merged), BeiDou 4
            #expect(count(.gps) == 8)
            #expect(count(.glonass) == 5)
            #expect(count(.galileo) == 5)
            #expect(count(.beidou) == 4)
            #expect(sky.satellites.count == 22)
            // GSA system IDs 1–4 mark 7 + 5 + 4 + 4 used
            #expect(sky.satellitesUsed == 20)
            // GPS 26 and BeiDou 26 are different satellites, both used
            #expect(sky.satellites.contains { $0.id == SatelliteID(constellation: .gps, svid: 26) && $0.used })
            #expect(sky.satellites.contains { $0.id == SatelliteID(constellation: .beidou, svid: 26) && $0.used })
            // GPS 23 at 9° elevation is in view but not used
            #expect(sky.satellites.contains { $0.id == SatelliteID(constellation: .gps, svid: 23) && !$0.used })
        }
        #expect(skies.first?.timestamp?.date == date(2023, 12, 31))
        #expect(skies.last?.timestamp?.date == date(2024, 1, 1))
    }

    // MARK: cold-start

    @Test("cold-start: nothing, then time, then a bogus date, then 2D, then 3D")
    func coldStart() throws {
        // Given a cold start; When it is parsed
        // Then its phases show in the fixes, one by one
        let (_, out) = try run("cold-start.nmea")
        let fixes = out.fixes
        #expect(fixes.count == 38)
        // 5 epochs of empty sentences: no time, no fix
        #expect(fixes[0..<5].allSatisfy { $0.timestamp == nil && $0.mode == .noFix && $0.coordinate == nil })
        #expect(fixes[0..<5].allSatisfy { $0.satellitesUsed == 0 })
        // 5 with a time (from 17:41:03) and no date, then 5 whose RMC V says 06-01-1980: still no date
        #expect(clock(fixes[5])! == (17, 41, 3, 0))
        #expect(fixes[5..<15].allSatisfy { $0.timestamp != nil && $0.timestamp?.date == nil && $0.mode == .noFix })
        // 3 epochs of 2D on three satellites, without altitude, with the first real date
        #expect(fixes[15..<18].allSatisfy { $0.mode == .twoD && $0.altitude == nil && $0.satellitesUsed == 3 })
        #expect(fixes[15].timestamp?.date == date(2024, 11, 5))
        // $GPGGA,174113.000,4000.9133,N,10516.2430,W,1,03,4.71,,M,-16.8,M,,
        #expect(clock(fixes[15])! == (17, 41, 13, 0))
        #expect(near(fixes[15].coordinate?.latitude, degrees(40, 0.9133)))
        #expect(near(fixes[15].coordinate?.longitude, degrees(105, 16.2430, negative: true)))
        // then 20 of 3D, near 1624 m, 16.8 m below the ellipsoid's geoid
        let threeD = fixes[18...]
        #expect(threeD.count == 20)
        #expect(threeD.allSatisfy { $0.mode == .threeD && $0.timestamp?.date == date(2024, 11, 5) })
        #expect(threeD.allSatisfy { abs($0.altitude! - 1624) < 7 && $0.geoidSeparation == -16.8 })
        #expect(threeD.allSatisfy { near($0.ellipsoidalAltitude, $0.altitude! - 16.8, within: 1e-6) })
        // $GPGGA,174116.000,4000.9043,N,10516.2328,W,1,04,1.41,1624.0,M,-16.8,M,,
        #expect(threeD.first?.altitude == 1624.0)
        #expect(threeD.first?.satellitesUsed == 4)
        // $GPGGA,174135.000,4000.9009,N,10516.2327,W,1,07,0.96,1624.2,M,-16.8,M,,
        #expect(clock(threeD.last!)! == (17, 41, 35, 0))
        #expect(near(threeD.last?.coordinate?.latitude, degrees(40, 0.9009)))
        #expect(near(threeD.last?.coordinate?.longitude, degrees(105, 16.2327, negative: true)))
        #expect(threeD.last?.satellitesUsed == 7)
        // One sky per epoch; the first five list nothing
        #expect(out.skies.count == 38)
        #expect(out.skies.prefix(5).allSatisfy { $0.satellites.isEmpty })
        #expect(out.skies.last?.satellites.count == 8)
        #expect(out.skies.last?.satellitesUsed == 7)
    }

    // MARK: noisy-line

    @Test("noisy-line: every kind of damage counted exactly")
    func noisyStatistics() throws {
        // Given the noisy capture; When it is parsed
        // Then each kind of damage is counted exactly as often as it was put in
        let (parser, _) = try run("noisy-line.nmea")
        let s = parser.statistics
        // Bad checksums: the GSV of epoch 1, the noise-hit GGA of epoch 13
        #expect(s.sentences.badChecksum == 2)
        // Truncated: the glued GLL (4), the VTG cut by a NUL (5), the GSV cut by UBX (12), the RMC at end of file
        #expect(s.framing.truncated == 4)
        // Overlong: the PUBX,03 after epoch 8
        #expect(s.framing.overlong == 1)
        // Malformed: the GLL cut inside its checksum (11)
        #expect(s.sentences.malformed == 1)
        // Without checksum: the GGA of epoch 3
        #expect(s.sentences.withoutChecksum == 1)
        // Lines framed: the 45 sentences of the epochs (the noise-hit GGA among them), the bad GSV
        // and the malformed GLL
        #expect(s.framing.lines == 47)
        #expect(s.sentences[RMC.self] == 15)
        #expect(s.sentences[GGA.self] == 14)
        #expect(s.sentences[GSA.self] == 15)
        #expect(s.sentences.unknown == 0)
        // Junk: at least the banner, both binary packets (twice the UBX) and the NULs
        #expect(s.framing.junkBytes > 100 + 2 * 100 + 98 + 6)
    }

    @Test("noisy-line: every good epoch around the damage still gives its fix")
    func noisyFixes() throws {
        // Given the noisy capture; When it is parsed
        // Then each of its 15 epochs gives its fix, whatever damage is around it
        let fixes = try run("noisy-line.nmea").events.fixes
        // 15 epochs, 12:00:00 to 12:00:14 on 14 March 2024, all 3D
        #expect(fixes.count == 15)
        #expect(fixes.map { clock($0)!.s } == Array(0...14))
        #expect(fixes.allSatisfy { $0.timestamp?.date == date(2024, 3, 14) && $0.mode == .threeD })
        #expect(fixes.allSatisfy { $0.coordinate != nil })
        // GGA altitudes 3.0 + 0.1 × epoch; epoch 13 lost its GGA, so no altitude and no satellite count
        for (i, fix) in fixes.enumerated() where i != 13 {
            #expect(near(fix.altitude, 3.0 + 0.1 * Double(i), within: 1e-9), "epoch \(i)")
            #expect(fix.satellitesUsed == 8, "epoch \(i)")
        }
        #expect(fixes[13].altitude == nil)
        #expect(fixes[13].satellitesUsed == nil)
        // Epoch 3's GGA had no checksum and was used
        #expect(fixes[3].altitude == 3.3)
        // $GPRMC,120000.00,A,5332.7072,N,00957.9804,E,… and $GPRMC,120014.00,A,5332.7064,N,00957.9410,E,…
        #expect(near(fixes[0].coordinate?.latitude, degrees(53, 32.7072)))
        #expect(near(fixes[0].coordinate?.longitude, degrees(9, 57.9804)))
        #expect(near(fixes[14].coordinate?.latitude, degrees(53, 32.7064)))
        #expect(near(fixes[14].coordinate?.longitude, degrees(9, 57.9410)))
        // Heading west all the way: longitudes fall epoch by epoch
        let longitudes = fixes.map { $0.coordinate!.longitude }
        #expect(zip(longitudes, longitudes.dropFirst()).allSatisfy { $0 > $1 })
        // Speed 6.03 knots and course 268.0 from every RMC
        #expect(fixes.allSatisfy { near($0.speed, 6.03 * 1852 / 3600) && $0.course == 268.0 })
    }

    // MARK: quadrants

    @Test("quadrants: 29 fixes, all 3D")
    func quadrantsCount() throws {
        // Given the quadrants capture; When it is parsed; Then one 3D fix per epoch
        let fixes = try run("quadrants.nmea").events.fixes
        #expect(fixes.count == 29)
        #expect(fixes.allSatisfy { $0.mode == .threeD && $0.satellitesUsed == 8 })
    }

    @Test("quadrants: the signs of all four quadrants", arguments: [
        // (index of the stretch's first fix, latitude, longitude) as in its GGA
        (3, degrees(35, 40.872), degrees(139, 46.026)),                              // N/E Tokyo
        (6, degrees(40, 44.904), degrees(73, 59.142, negative: true)),               // N/W New York
        (10, degrees(33, 51.408, negative: true), degrees(151, 12.918)),             // S/E Sydney
        (13, degrees(34, 36.222, negative: true), degrees(58, 22.896, negative: true)), // S/W Buenos Aires
    ])
    func quadrants(index: Int, latitude: Double, longitude: Double) throws {
        // Given the first fix of a stretch; Then its signs are its hemispheres'
        let fixes = try run("quadrants.nmea").events.fixes
        #expect(near(fixes[index].coordinate?.latitude, latitude))
        #expect(near(fixes[index].coordinate?.longitude, longitude))
    }

    @Test("quadrants: the antimeridian, 179.9999 E, 180 E, 180 W, 179.9999 W")
    func antimeridian() throws {
        // Given the Fiji stretch; When it is parsed
        // Then longitudes keep their sign across 180, and the two sides of 180 are neighbours
        let fixes = try run("quadrants.nmea").events.fixes
        let stretch = fixes[16..<20]
        // 17959.99400,E / 18000.00000,E / 18000.00000,W / 17959.99400,W at 1648.00000,S
        let longitudes = stretch.map { $0.coordinate!.longitude }
        #expect(near(longitudes[0], degrees(179, 59.994)))
        #expect(longitudes[1] == 180)
        #expect(longitudes[2] == -180)
        #expect(near(longitudes[3], degrees(179, 59.994, negative: true)))
        #expect(stretch.allSatisfy { near($0.coordinate?.latitude, -16.8) })
        // 0.0001° of longitude at 16.8° S is about 10.6 m; 180 E and 180 W are the same meridian
        #expect(abs(stretch[16].coordinate!.distance(to: stretch[19].coordinate!) - 21.3) < 0.2)
        #expect(stretch[17].coordinate!.distance(to: stretch[18].coordinate!) < 0.001)
    }

    @Test("quadrants: near both poles")
    func poles() throws {
        // Given the polar stretches; Then latitudes within a few metres of 90 N and 90 S read right
        let fixes = try run("quadrants.nmea").events.fixes
        // 8959.99400,N 04500.00000,E and 8959.99400,S 13916.20000,E at 2835 m
        #expect(near(fixes[20].coordinate?.latitude, degrees(89, 59.994)))
        #expect(near(fixes[20].coordinate?.longitude, 45))
        #expect(near(fixes[23].coordinate?.latitude, degrees(89, 59.994, negative: true)))
        #expect(near(fixes[23].coordinate?.longitude, degrees(139, 16.2)))
        #expect(fixes[23].altitude == 2835.0)
    }

    @Test("quadrants: below the sea and at cruising altitude")
    func altitudes() throws {
        // Given the aircraft and Dead Sea stretches; Then the altitudes keep their sign and size
        let fixes = try run("quadrants.nmea").events.fixes
        // The aircraft: GGA altitude 11000.0, geoid 55.2
        #expect(fixes[0..<3].allSatisfy { $0.altitude == 11000.0 })
        #expect(fixes[0..<3].allSatisfy { near($0.ellipsoidalAltitude, 11055.2, within: 1e-6) })
        #expect(near(fixes[0].coordinate?.latitude, 52) && near(fixes[0].coordinate?.longitude, -30))
        // The Dead Sea shore: -430.0 m, geoid 19.6: the ellipsoidal height is -410.4
        #expect(fixes[26..<29].allSatisfy { $0.altitude == -430.0 })
        #expect(fixes[26..<29].allSatisfy { near($0.ellipsoidalAltitude, -410.4, within: 1e-6) })
        #expect(near(fixes[26].coordinate?.latitude, degrees(31, 33.54)))
        #expect(near(fixes[26].coordinate?.longitude, degrees(35, 28.392)))
    }

    @Test("quadrants: dates — none, leap day, 1999/2000, ZDA, leap second")
    func quadrantDates() throws {
        // Given the quadrants capture; When it is parsed
        // Then each stretch has the date its sentences give it, or none
        let fixes = try run("quadrants.nmea").events.fixes
        // A: GGA and GSA only, before any date source: time 14:20:00, no date
        #expect(fixes[0..<3].allSatisfy { $0.timestamp?.date == nil })
        #expect(clock(fixes[0])! == (14, 20, 0, 0))
        // B: RMC 290224
        #expect(fixes[3..<6].allSatisfy { $0.timestamp?.date == date(2024, 2, 29) })
        // C: RMC 311299 then 010100
        #expect(fixes[6..<10].map { $0.timestamp?.date } ==
                [date(1999, 12, 31), date(1999, 12, 31), date(2000, 1, 1), date(2000, 1, 1)])
        #expect(clock(fixes[7])! == (23, 59, 59, 0))
        #expect(clock(fixes[8])! == (0, 0, 0, 0))
        // D: ZDA 17,08,2025 only
        #expect(fixes[10..<13].allSatisfy { $0.timestamp?.date == date(2025, 8, 17) })
        // E: 23:59:59, 23:59:60 on 311216, then 00:00:00 on 010117
        #expect(fixes[13..<16].map { $0.timestamp?.date } == [date(2016, 12, 31), date(2016, 12, 31), date(2017, 1, 1)])
        #expect(clock(fixes[14])! == (23, 59, 60, 0))
        // F–I: 100924, 150424, 150125, 010524
        #expect(fixes[16].timestamp?.date == date(2024, 9, 10))
        #expect(fixes[20].timestamp?.date == date(2024, 4, 15))
        #expect(fixes[23].timestamp?.date == date(2025, 1, 15))
        #expect(fixes[26].timestamp?.date == date(2024, 5, 1))
    }

    // MARK: all captures

    @Test("one byte per call gives exactly the events of the whole buffer", arguments: [
        "drive-1hz.nmea", "multignss-10hz.nmea", "cold-start.nmea", "noisy-line.nmea", "quadrants.nmea",
    ])
    func dribbledEqualsWhole(name: String) throws {
        // Given a capture, parsed whole and dribbled byte by byte
        let data = try capture(name)
        let whole = parsed(data)
        let slow = dribbled(data)
        // Then the events and statistics are the same
        #expect(!whole.events.isEmpty)
        #expect(slow.events == whole.events)
        #expect(slow.parser.statistics == whole.parser.statistics)
    }

    @Test("odd chunk sizes give the same events too", arguments: [7, 64, 333, 4096])
    func chunked(size: Int) throws {
        // Given the noisy capture fed in chunks of `size` bytes
        // Then the events and statistics are those of the whole buffer
        let data = try capture("noisy-line.nmea")
        let whole = parsed(data)
        let parser = NMEAParser()
        var out: [EngineEvent] = []
        var start = 0
        while start < data.count {
            let end = min(data.count, start + size)
            parser.parse(data[start..<end]) { out.append($0) }
            start = end
        }
        parser.finish { out.append($0) }
        #expect(out == whole.events)
        #expect(parser.statistics == whole.parser.statistics)
    }

    @Test("the captures' headers are gpsfake's and hold no sentence start", arguments: [
        "drive-1hz.nmea", "multignss-10hz.nmea", "cold-start.nmea", "noisy-line.nmea", "quadrants.nmea",
    ])
    func headers(name: String) throws {
        // Given a capture; Then it starts with gpsfake's header lines and is small
        let data = try capture(name)
        let text = String(decoding: data.prefix(4000), as: UTF8.self)
        let header = text.split(separator: "\n", omittingEmptySubsequences: false).prefix { $0.hasPrefix("#") }
        for key in ["# Name: ", "# Chipset: ", "# Date: ", "# Location: ", "# Comments: "] {
            #expect(header.contains { $0.hasPrefix(key) }, "\(name) lacks \(key)")
        }
        #expect(header.allSatisfy { !$0.contains("$") && !$0.contains("!") })
        // And the file stays small
        #expect(data.count < 200_000)
    }
}
