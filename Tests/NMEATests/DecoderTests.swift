import NMEA
import Testing

// One parameterised test per sentence type. Every expected value below is read by hand from
// the sentence text in the same case: `degrees(48, 7.038)` is "4807.038", 48° 7.038'.

private func t(_ h: Int, _ m: Int, _ s: Int, _ ms: Int = 0) -> TimeOfDay {
    TimeOfDay(hour: h, minute: m, second: s, millisecond: ms)
}


// MARK: - GGA

struct GGACase: Sendable, CustomTestStringConvertible {
    var body: String
    var time: TimeOfDay?
    var latitude: Double?
    var longitude: Double?
    var quality: Int?
    var satellites: Int?
    var hdop: Double?
    var altitude: Double?
    var separation: Double?
    var age: Double? = nil
    var station: Int? = nil
    var testDescription: String { body }
}

// MARK: - RMC

struct RMCCase: Sendable, CustomTestStringConvertible {
    var body: String
    var time: TimeOfDay?
    var valid: Bool?
    var latitude: Double?
    var longitude: Double?
    var knots: Double?
    var course: Double?
    var date: CalendarDate?
    var variation: Double?
    var mode: ModeIndicator?
    var status: NavigationalStatus?
    var testDescription: String { body }
}

// MARK: - GSA

struct GSACase: Sendable, CustomTestStringConvertible {
    var body: String
    var mode: FixMode?
    var satellites: [Int]
    var pdop: Double?
    var hdop: Double?
    var vdop: Double?
    var system: Int?
    var testDescription: String { body }
}

// MARK: - GSV

struct GSVCase: Sendable, CustomTestStringConvertible {
    struct Sat: Sendable, Equatable {
        var n: Int, el: Double?, az: Double?, snr: Double?
    }
    var body: String
    var total: Int?
    var part: Int?
    var inView: Int?
    var sats: [Sat]
    var signal: Int?
    var testDescription: String { body }
}

// MARK: - VTG, GLL, ZDA, GNS, GST, GBS, PGRME, PUBX

struct VTGCase: Sendable, CustomTestStringConvertible {
    var body: String
    var course: Double?
    var magnetic: Double?
    var knots: Double?
    var kmh: Double?
    var mode: ModeIndicator?
    var speed: Double?
    var testDescription: String { body }
}

struct GLLCase: Sendable, CustomTestStringConvertible {
    var body: String
    var latitude: Double?
    var longitude: Double?
    var time: TimeOfDay?
    var valid: Bool?
    var mode: ModeIndicator?
    var testDescription: String { body }
}

struct ZDACase: Sendable, CustomTestStringConvertible {
    var body: String
    var time: TimeOfDay?
    var date: CalendarDate?
    var testDescription: String { body }
}

struct GNSCase: Sendable, CustomTestStringConvertible {
    var body: String
    var time: TimeOfDay?
    var latitude: Double?
    var longitude: Double?
    var mode: ModeIndicator?
    var invalid: Bool
    var satellites: Int?
    var hdop: Double?
    var altitude: Double?
    var separation: Double?
    var status: NavigationalStatus?
    var testDescription: String { body }
}

struct ErrorsCase: Sendable, CustomTestStringConvertible {
    var body: String
    var values: [Double?]
    var testDescription: String { body }
}

@Suite("Decoders")
struct DecoderTests {
    @Test("GGA", arguments: [
        GGACase(body: "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
                time: t(12, 35, 19), latitude: degrees(48, 7.038), longitude: degrees(11, 31.0),
                quality: 1, satellites: 8, hdop: 0.9, altitude: 545.4, separation: 46.9),
        GGACase(body: "GPGGA,092750.000,5321.6802,N,00630.3372,W,2,8,1.03,61.7,M,55.2,M,3.2,0120",
                time: t(9, 27, 50), latitude: degrees(53, 21.6802), longitude: degrees(6, 30.3372, negative: true),
                quality: 2, satellites: 8, hdop: 1.03, altitude: 61.7, separation: 55.2, age: 3.2, station: 120),
        GGACase(body: "GNGGA,001043.25,3351.40800,S,15112.91800,E,4,12,0.71,-12.5,M,-22.4,M,1.0,0000",
                time: t(0, 10, 43, 250), latitude: degrees(33, 51.408, negative: true), longitude: degrees(151, 12.918),
                quality: 4, satellites: 12, hdop: 0.71, altitude: -12.5, separation: -22.4, age: 1.0, station: 0),
        // A cold start: quality 0 and 00 satellites are stated; everything else is unknown.
        GGACase(body: "GPGGA,,,,,,0,00,,,M,,M,,", time: nil, latitude: nil, longitude: nil,
                quality: 0, satellites: 0, hdop: nil, altitude: nil, separation: nil),
        // Nothing at all: not even quality 0.
        GGACase(body: "GPGGA,,,,,,,,,,,,,,", time: nil, latitude: nil, longitude: nil,
                quality: nil, satellites: nil, hdop: nil, altitude: nil, separation: nil),
        // A hemisphere missing: no coordinate, the rest still read.
        GGACase(body: "GPGGA,123519,4807.038,,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
                time: t(12, 35, 19), latitude: nil, longitude: nil,
                quality: 1, satellites: 8, hdop: 0.9, altitude: 545.4, separation: 46.9),
        // An impossible latitude (91°) or minutes of 60: no coordinate.
        GGACase(body: "GPGGA,123519,9100.000,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
                time: t(12, 35, 19), latitude: nil, longitude: nil,
                quality: 1, satellites: 8, hdop: 0.9, altitude: 545.4, separation: 46.9),
        GGACase(body: "GPGGA,123519,4860.000,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
                time: t(12, 35, 19), latitude: nil, longitude: nil,
                quality: 1, satellites: 8, hdop: 0.9, altitude: 545.4, separation: 46.9),
    ])
    func gga(_ c: GGACase) throws {
        // Given a GGA sentence; When it is decoded
        guard let x = decoded(c.body) as? GGA else { Issue.record("not a GGA"); return }
        // Then every field is as written, and empty ones are nil
        #expect(x.time == c.time)
        if let lat = c.latitude, let lon = c.longitude {
            #expect(near(x.coordinate?.latitude, lat))
            #expect(near(x.coordinate?.longitude, lon))
        } else {
            #expect(x.coordinate == nil)
        }
        #expect(x.qualityIndicator == c.quality)
        #expect(x.satellitesUsed == c.satellites)
        #expect(x.hdop == c.hdop)
        #expect(x.altitude == c.altitude)
        #expect(x.geoidSeparation == c.separation)
        #expect(x.differentialAge == c.age)
        #expect(x.differentialStation == c.station)
    }

    @Test("GGA quality indicator", arguments: [
        (0, nil), (1, .gps), (2, .dgps), (3, .precise), (4, .rtkFixed), (5, .rtkFloat),
        (6, .deadReckoning), (7, .manual), (8, .simulated),
    ] as [(Int, FixQuality?)])
    func ggaQuality(indicator: Int, quality: FixQuality?) {
        // Given a GGA with quality indicator `indicator`; When it is decoded and parsed alone
        // Then its quality is `quality`, and only a valid one makes a (3D: it has altitude) fix;
        // the receiver's simulator (8) only when simulated fixes are asked for
        let body = "GPGGA,123519,4807.038,N,01131.000,E,\(indicator),08,0.9,545.4,M,46.9,M,,"
        guard let x = decoded(body) as? GGA else { Issue.record("not a GGA"); return }
        #expect(x.quality == quality)
        #expect(x.isValid == (quality != nil))
        let real = quality == .simulated ? nil : quality
        let fix = events(nmea(body)).fixes.first
        #expect(fix?.quality == real)
        #expect(fix?.mode == (real == nil ? .noFix : .threeD))
        let demo = events(nmea(body), acceptsSimulatedFixes: true).fixes.first
        #expect(demo?.quality == quality)
        #expect(demo?.mode == (quality == nil ? .noFix : .threeD))
    }

    @Test("RMC", arguments: [
        RMCCase(body: "GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W",
                time: t(12, 35, 19), valid: true, latitude: degrees(48, 7.038), longitude: degrees(11, 31),
                knots: 22.4, course: 84.4, date: CalendarDate(year: 1994, month: 3, day: 23),
                variation: -3.1, mode: nil, status: nil),
        // NMEA 4.10/4.11: mode A and navigational status V (u-blox always sends V).
        RMCCase(body: "GNRMC,235958.00,A,5128.67580,N,00000.00240,W,0.008,,311223,,,A,V",
                time: t(23, 59, 58), valid: true, latitude: degrees(51, 28.6758),
                longitude: degrees(0, 0.0024, negative: true), knots: 0.008, course: nil,
                date: CalendarDate(year: 2023, month: 12, day: 31), variation: nil, mode: .autonomous, status: .notValid),
        RMCCase(body: "GNRMC,083559.50,A,4717.11437,N,00833.91522,E,0.004,77.52,091202,1.2,E,D,S",
                time: t(8, 35, 59, 500), valid: true, latitude: degrees(47, 17.11437), longitude: degrees(8, 33.91522),
                knots: 0.004, course: 77.52, date: CalendarDate(year: 2002, month: 12, day: 9),
                variation: 1.2, mode: .differential, status: .safe),
        RMCCase(body: "GPRMC,,V,,,,,,,,,,N", time: nil, valid: false, latitude: nil, longitude: nil,
                knots: nil, course: nil, date: nil, variation: nil, mode: .notValid, status: nil),
        // Status empty: neither valid nor invalid.
        RMCCase(body: "GPRMC,,,,,,,,,,,,", time: nil, valid: nil, latitude: nil, longitude: nil,
                knots: nil, course: nil, date: nil, variation: nil, mode: nil, status: nil),
        // 31 February does not exist: no date rather than a made-up one.
        RMCCase(body: "GPRMC,120000,A,4807.038,N,01131.000,E,0.0,,310224,,", time: t(12, 0, 0), valid: true,
                latitude: degrees(48, 7.038), longitude: degrees(11, 31), knots: 0, course: nil, date: nil,
                variation: nil, mode: nil, status: nil),
    ])
    func rmc(_ c: RMCCase) {
        // Given the case's sentence; When it is decoded
        // Then each field is what the sentence says, and each empty field is nil
        guard let x = decoded(c.body) as? RMC else { Issue.record("not an RMC"); return }
        #expect(x.time == c.time)
        #expect(x.isValid == c.valid)
        if let lat = c.latitude, let lon = c.longitude {
            #expect(near(x.coordinate?.latitude, lat))
            #expect(near(x.coordinate?.longitude, lon))
        } else {
            #expect(x.coordinate == nil)
        }
        #expect(x.speedKnots == c.knots)
        #expect(x.course == c.course)
        #expect(x.date == c.date)
        #expect(x.magneticVariation == c.variation)
        #expect(x.mode == c.mode)
        #expect(x.navigationalStatus == c.status)
    }

    @Test("RMC and GNS navigational status (NMEA 4.10)", arguments: [
        ("S", .safe), ("C", .caution), ("U", .unsafe), ("V", .notValid), ("", nil),
    ] as [(String, NavigationalStatus?)])
    func navigationalStatus(letter: String, status: NavigationalStatus?) {
        // Given an RMC and a GNS whose last field is `letter`
        let rmc = "GNRMC,120000.00,A,4807.038,N,01131.000,E,0.0,,150624,,,A,\(letter)"
        let gns = "GNGNS,120000.00,4807.038,N,01131.000,E,AA,10,0.8,545.4,46.9,,,\(letter)"
        // When each is decoded, and when each alone makes a fix
        guard let r = decoded(rmc) as? RMC, let g = decoded(gns) as? GNS else {
            Issue.record("not decoded"); return
        }
        // Then the status is read, and the fix carries it
        #expect(r.navigationalStatus == status)
        #expect(g.navigationalStatus == status)
        #expect(events(nmea(rmc)).fixes.first?.navigationalStatus == status)
        #expect(events(nmea(gns)).fixes.first?.navigationalStatus == status)
    }

    @Test("RMC mode indicator decides validity and quality", arguments: [
        ("A", .gps), ("D", .dgps), ("E", .deadReckoning), ("F", .rtkFloat), ("R", .rtkFixed),
        ("P", .precise), ("M", .manual), ("S", .simulated), ("N", nil),
    ] as [(String, FixQuality?)])
    func rmcMode(letter: String, quality: FixQuality?) {
        // Given an RMC with status A and mode `letter`
        let body = "GPRMC,120000.00,A,4807.038,N,01131.000,E,1.0,90.0,150624,,,\(letter)"
        guard let x = decoded(body) as? RMC else { Issue.record("not an RMC"); return }
        // Then N overrules the A status; any other letter is a fix of that quality, S (the
        // receiver's simulator) only when simulated fixes are asked for
        #expect(x.hasFix == (quality != nil))
        let real = quality == .simulated ? nil : quality
        let fix = events(nmea(body)).fixes.first
        #expect(fix?.quality == real)
        // An RMC alone has no altitude: a valid one is a 2D fix.
        #expect(fix?.mode == (real == nil ? .noFix : .twoD))
        let demo = events(nmea(body), acceptsSimulatedFixes: true).fixes.first
        #expect(demo?.quality == quality)
        #expect(demo?.mode == (quality == nil ? .noFix : .twoD))
    }

    @Test("GSA", arguments: [
        // NMEA 4.10: one GSA per constellation, system ID last.
        GSACase(body: "GNGSA,A,3,66,67,68,,,,,,,,,,0.94,0.52,0.78,2", mode: .threeD, satellites: [66, 67, 68],
                pdop: 0.94, hdop: 0.52, vdop: 0.78, system: 2),
        GSACase(body: "GNGSA,A,3,04,09,11,19,,,,,,,,,1.10,0.60,0.92,3", mode: .threeD, satellites: [4, 9, 11, 19],
                pdop: 1.1, hdop: 0.6, vdop: 0.92, system: 3),
        GSACase(body: "GNGSA,M,2,12,21,26,29,01,02,03,04,05,06,07,08,2.5,2.3,1.0,4", mode: .twoD,
                satellites: [12, 21, 26, 29, 1, 2, 3, 4, 5, 6, 7, 8], pdop: 2.5, hdop: 2.3, vdop: 1.0, system: 4),
        // No fix: every number empty.
        GSACase(body: "GPGSA,A,1,,,,,,,,,,,,,,,", mode: .noFix, satellites: [], pdop: nil, hdop: nil, vdop: nil, system: nil),
        GSACase(body: "GNGSA,A,1,,,,,,,,,,,,,,,,1", mode: .noFix, satellites: [], pdop: nil, hdop: nil, vdop: nil, system: 1),
        // Mode empty: unknown, not "no fix".
        GSACase(body: "GPGSA,A,,,,,,,,,,,,,,,,", mode: nil, satellites: [], pdop: nil, hdop: nil, vdop: nil, system: nil),
    ])
    func gsa(_ c: GSACase) {
        // Given the case's sentence; When it is decoded
        // Then each field is what the sentence says, and each empty field is nil
        guard let x = decoded(c.body) as? GSA else { Issue.record("not a GSA"); return }
        #expect(x.mode == c.mode)
        #expect(x.satellites.map { Int($0) } == c.satellites)
        #expect(x.pdop == c.pdop)
        #expect(x.hdop == c.hdop)
        #expect(x.vdop == c.vdop)
        #expect(x.systemID == c.system)
    }

    @Test("GSA in the standard NMEA 2.x/3.x form (17 fields) reads its three DOPs")
    func gsaStandardForm() {
        // Given the classic GSA: mode A, 3D, twelve satellite fields, PDOP 2.5 HDOP 1.3 VDOP 2.1
        let body = "GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1"
        guard let x = decoded(body) as? GSA else { Issue.record("not a GSA"); return }
        #expect(x.mode == .threeD)
        #expect(x.satellites.map { Int($0) } == [4, 5, 9, 12, 24])
        #expect(x.systemID == nil)
        #expect(x.pdop == 2.5)
        #expect(x.hdop == 1.3)
        #expect(x.vdop == 2.1)
    }

    @Test("GSV", arguments: [
        GSVCase(body: "GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00", total: 3, part: 1, inView: 11,
                sats: [.init(n: 3, el: 3, az: 111, snr: 0), .init(n: 4, el: 15, az: 270, snr: 0),
                       .init(n: 6, el: 1, az: 10, snr: 0), .init(n: 13, el: 6, az: 292, snr: 0)], signal: nil),
        // NMEA 4.10 last part with a signal ID (Galileo E1, 7) and an untracked satellite.
        GSVCase(body: "GAGSV,2,2,06,19,41,287,42,36,08,096,,7", total: 2, part: 2, inView: 6,
                sats: [.init(n: 19, el: 41, az: 287, snr: 42), .init(n: 36, el: 8, az: 96, snr: nil)], signal: 7),
        GSVCase(body: "GBGSV,1,1,02,12,,,35,21,58,151,,1", total: 1, part: 1, inView: 2,
                sats: [.init(n: 12, el: nil, az: nil, snr: 35), .init(n: 21, el: 58, az: 151, snr: nil)], signal: 1),
        GSVCase(body: "GPGSV,1,1,00", total: 1, part: 1, inView: 0, sats: [], signal: nil),
        GSVCase(body: "GLGSV,1,1,00,1", total: 1, part: 1, inView: 0, sats: [], signal: 1),
        GSVCase(body: "GPGSV,,,,", total: nil, part: nil, inView: nil, sats: [], signal: nil),
        // A satellite cut after two or three of its fields is left out; an empty field where a
        // signal ID would be is no signal ID; a satellite without a number is skipped.
        GSVCase(body: "GPGSV,1,1,02,05,40,100,30,07,12", total: 1, part: 1, inView: 2,
                sats: [.init(n: 5, el: 40, az: 100, snr: 30)], signal: nil),
        GSVCase(body: "GPGSV,1,1,02,05,40,100,30,07,12,200", total: 1, part: 1, inView: 2,
                sats: [.init(n: 5, el: 40, az: 100, snr: 30)], signal: nil),
        GSVCase(body: "GPGSV,1,1,01,05,40,100,30,", total: 1, part: 1, inView: 1,
                sats: [.init(n: 5, el: 40, az: 100, snr: 30)], signal: nil),
        GSVCase(body: "GPGSV,1,1,02,,40,100,30,07,12,200,25", total: 1, part: 1, inView: 2,
                sats: [.init(n: 7, el: 12, az: 200, snr: 25)], signal: nil),
    ])
    func gsv(_ c: GSVCase) {
        // Given the case's sentence; When it is decoded
        // Then each field is what the sentence says, and each empty field is nil
        guard let x = decoded(c.body) as? GSV else { Issue.record("not a GSV"); return }
        #expect(x.totalParts == c.total)
        #expect(x.part == c.part)
        #expect(x.satellitesInView == c.inView)
        #expect(x.entries.map { GSVCase.Sat(n: $0.number, el: $0.elevation, az: $0.azimuth, snr: $0.snr) } == c.sats)
        #expect(x.signalID == c.signal)
    }

    @Test("VTG", arguments: [
        VTGCase(body: "GPVTG,054.7,T,034.4,M,005.5,N,010.2,K", course: 54.7, magnetic: 34.4, knots: 5.5, kmh: 10.2,
                mode: nil, speed: 5.5 * 1852 / 3600),
        VTGCase(body: "GNVTG,,T,,M,0.025,N,0.045,K,A", course: nil, magnetic: nil, knots: 0.025, kmh: 0.045,
                mode: .autonomous, speed: 0.025 * 1852 / 3600),
        // Before NMEA 2.0: the four values without unit letters.
        VTGCase(body: "GPVTG,054.7,034.4,005.5,010.2", course: 54.7, magnetic: 34.4, knots: 5.5, kmh: 10.2,
                mode: nil, speed: 5.5 * 1852 / 3600),
        // Only km/h given: speed from it.
        VTGCase(body: "GPVTG,90.0,T,,M,,N,36.0,K,D", course: 90, magnetic: nil, knots: nil, kmh: 36,
                mode: .differential, speed: 10),
        VTGCase(body: "GPVTG,,T,,M,,N,,K,N", course: nil, magnetic: nil, knots: nil, kmh: nil, mode: .notValid, speed: nil),
    ])
    func vtg(_ c: VTGCase) {
        // Given the case's sentence; When it is decoded
        // Then each field is what the sentence says, and each empty field is nil
        guard let x = decoded(c.body) as? VTG else { Issue.record("not a VTG"); return }
        #expect(x.course == c.course)
        #expect(x.magneticCourse == c.magnetic)
        #expect(x.speedKnots == c.knots)
        #expect(x.speedKilometresPerHour == c.kmh)
        #expect(x.mode == c.mode)
        if let s = c.speed { #expect(near(x.speed, s)) } else { #expect(x.speed == nil) }
    }

    @Test("GLL", arguments: [
        GLLCase(body: "GPGLL,4916.45,N,12311.12,W,225444,A", latitude: degrees(49, 16.45),
                longitude: degrees(123, 11.12, negative: true), time: t(22, 54, 44), valid: true, mode: nil),
        GLLCase(body: "GNGLL,4552.52280,S,17030.27120,E,031207.00,A,A", latitude: degrees(45, 52.5228, negative: true),
                longitude: degrees(170, 30.2712), time: t(3, 12, 7), valid: true, mode: .autonomous),
        // NMEA 1.x: position only, no time, no status.
        GLLCase(body: "GPGLL,4916.45,N,12311.12,W", latitude: degrees(49, 16.45),
                longitude: degrees(123, 11.12, negative: true), time: nil, valid: nil, mode: nil),
        GLLCase(body: "GPGLL,,,,,,V,N", latitude: nil, longitude: nil, time: nil, valid: false, mode: .notValid),
    ])
    func gll(_ c: GLLCase) {
        // Given the case's sentence; When it is decoded
        // Then each field is what the sentence says, and each empty field is nil
        guard let x = decoded(c.body) as? GLL else { Issue.record("not a GLL"); return }
        if let lat = c.latitude, let lon = c.longitude {
            #expect(near(x.coordinate?.latitude, lat))
            #expect(near(x.coordinate?.longitude, lon))
        } else {
            #expect(x.coordinate == nil)
        }
        #expect(x.time == c.time)
        #expect(x.isValid == c.valid)
        #expect(x.mode == c.mode)
    }

    @Test("ZDA", arguments: [
        ZDACase(body: "GPZDA,201530.00,04,07,2002,00,00", time: t(20, 15, 30), date: CalendarDate(year: 2002, month: 7, day: 4)),
        // Four digits carry past the two-digit pivot: 2100 is not 1900 or 2000.
        ZDACase(body: "GNZDA,000000.00,01,01,2100,,", time: t(0, 0, 0), date: CalendarDate(year: 2100, month: 1, day: 1)),
        ZDACase(body: "GPZDA,235960.00,31,12,2016,00,00", time: t(23, 59, 60), date: CalendarDate(year: 2016, month: 12, day: 31)),
        ZDACase(body: "GPZDA,120000.00,30,02,2024,00,00", time: t(12, 0, 0), date: nil),
        ZDACase(body: "GPZDA,,,,,,", time: nil, date: nil),
    ])
    func zda(_ c: ZDACase) {
        // Given the case's sentence; When it is decoded
        // Then each field is what the sentence says, and each empty field is nil
        guard let x = decoded(c.body) as? ZDA else { Issue.record("not a ZDA"); return }
        #expect(x.time == c.time)
        #expect(x.date == c.date)
    }

    @Test("GNS", arguments: [
        GNSCase(body: "GNGNS,014035.00,4332.69262,S,17235.48549,E,RR,13,0.9,25.63,11.24,,,S", time: t(1, 40, 35),
                latitude: degrees(43, 32.69262, negative: true), longitude: degrees(172, 35.48549), mode: .rtk,
                invalid: false, satellites: 13, hdop: 0.9, altitude: 25.63, separation: 11.24, status: .safe),
        // One mode character per constellation: GPS differential, GLONASS autonomous, Galileo none.
        GNSCase(body: "GNGNS,122310.20,3722.425671,N,12258.856215,W,DAN,14,0.9,1005.543,6.5,,,C", time: t(12, 23, 10, 200),
                latitude: degrees(37, 22.425671), longitude: degrees(122, 58.856215, negative: true), mode: .differential,
                invalid: false, satellites: 14, hdop: 0.9, altitude: 1005.543, separation: 6.5, status: .caution),
        GNSCase(body: "GNGNS,112257.00,,,,,NNNN,00,99.99,,,,,V", time: t(11, 22, 57), latitude: nil, longitude: nil,
                mode: nil, invalid: true, satellites: 0, hdop: 99.99, altitude: nil, separation: nil, status: .notValid),
        GNSCase(body: "GNGNS,,,,,,,,,,,,,", time: nil, latitude: nil, longitude: nil, mode: nil, invalid: false,
                satellites: nil, hdop: nil, altitude: nil, separation: nil, status: nil),
    ])
    func gns(_ c: GNSCase) {
        // Given the case's sentence; When it is decoded
        // Then each field is what the sentence says, and each empty field is nil
        guard let x = decoded(c.body) as? GNS else { Issue.record("not a GNS"); return }
        #expect(x.time == c.time)
        if let lat = c.latitude, let lon = c.longitude {
            #expect(near(x.coordinate?.latitude, lat))
            #expect(near(x.coordinate?.longitude, lon))
        } else {
            #expect(x.coordinate == nil)
        }
        #expect(x.mode == c.mode)
        #expect(x.isInvalid == c.invalid)
        #expect(x.satellitesUsed == c.satellites)
        #expect(x.hdop == c.hdop)
        #expect(x.altitude == c.altitude)
        #expect(x.geoidSeparation == c.separation)
        #expect(x.navigationalStatus == c.status)
    }

    @Test("GST: rms, ellipse, orientation, lat/lon/alt sigma", arguments: [
        ErrorsCase(body: "GPGST,172814.0,0.006,0.023,0.020,273.6,0.023,0.020,0.031",
                   values: [0.006, 0.023, 0.020, 273.6, 0.023, 0.020, 0.031]),
        ErrorsCase(body: "GNGST,172814.0,,,,,,,", values: [nil, nil, nil, nil, nil, nil, nil]),
    ])
    func gst(_ c: ErrorsCase) {
        // Given the case's sentence; When it is decoded
        // Then each field is what the sentence says, and each empty field is nil
        guard let x = decoded(c.body) as? GST else { Issue.record("not a GST"); return }
        #expect(x.time == t(17, 28, 14))
        #expect([x.rms, x.semiMajor, x.semiMinor, x.orientation, x.latitudeError, x.longitudeError, x.altitudeError] == c.values)
    }

    @Test("GBS: lat/lon/alt expected error", arguments: [
        ErrorsCase(body: "GPGBS,235458.00,1.4,1.3,3.1,03,,-21.4,3.8,1,0", values: [1.4, 1.3, 3.1]),
        ErrorsCase(body: "GNGBS,235458.00,,,,,,,,,", values: [nil, nil, nil]),
    ])
    func gbs(_ c: ErrorsCase) {
        // Given the case's sentence; When it is decoded
        // Then each field is what the sentence says, and each empty field is nil
        guard let x = decoded(c.body) as? GBS else { Issue.record("not a GBS"); return }
        #expect(x.time == t(23, 54, 58))
        #expect([x.latitudeError, x.longitudeError, x.altitudeError] == c.values)
    }

    @Test("PGRME: Garmin horizontal, vertical, spherical error", arguments: [
        ErrorsCase(body: "PGRME,15.0,M,45.0,M,25.0,M", values: [15, 45, 25]),
        ErrorsCase(body: "PGRME,,M,,M,,M", values: [nil, nil, nil]),
    ])
    func pgrme(_ c: ErrorsCase) {
        // Given the case's sentence; When it is decoded
        // Then each field is what the sentence says, and each empty field is nil
        guard let x = decoded(c.body) as? PGRME else { Issue.record("not a PGRME"); return }
        #expect([x.horizontalError, x.verticalError, x.sphericalError] == c.values)
    }

    @Test("PUBX,00: u-blox position, altitude above the ellipsoid")
    func pubx() {
        // Given u-blox's documented example: 546.589 m is ellipsoidal height, SOG in km/h
        let body = "PUBX,00,081350.00,4717.113210,N,00833.915187,E,546.589,G3,2.1,2.0,0.007,77.52,0.007,,0.92,1.19,0.77,9,0,0"
        guard let x = decoded(body) as? PUBXPosition else { Issue.record("not a PUBX,00"); return }
        #expect(x.time == t(8, 13, 50))
        #expect(near(x.coordinate?.latitude, degrees(47, 17.113210)))
        #expect(near(x.coordinate?.longitude, degrees(8, 33.915187)))
        #expect(x.ellipsoidalAltitude == 546.589)
        #expect(x.mode == .threeD)
        #expect(x.quality == .gps)
        #expect(x.horizontalAccuracy == 2.1)
        #expect(x.verticalAccuracy == 2.0)
        #expect(x.speedKilometresPerHour == 0.007)
        #expect(x.course == 77.52)
        #expect(x.verticalVelocityDown == 0.007)
        #expect([x.hdop, x.vdop, x.tdop] == [0.92, 1.19, 0.77])
        #expect(x.satellitesUsed == 9)
        // When it makes a fix alone, Then its altitude is ellipsoidal, never mean sea level
        let fix = events(nmea(body)).fixes.first
        #expect(fix?.ellipsoidalAltitude == 546.589)
        #expect(fix?.altitude == nil)
        #expect(fix?.mode == .threeD)
        #expect(near(fix?.speed, 0.007 / 3.6))
        #expect(fix?.climb == -0.007)
    }

    @Test("PUBX,00 with a GGA: MSL from GGA, ellipsoidal from PUBX")
    func pubxWithGGA() {
        // Given a GGA (499.6 m above sea level, separation empty) and a PUBX,00 (546.589 m
        // above the ellipsoid) for the same epoch; When they are parsed
        // Then each height goes where it belongs
        let input = nmea([
            "GPGGA,081350.00,4717.113210,N,00833.915187,E,1,09,0.92,499.6,M,,M,,",
            "PUBX,00,081350.00,4717.113210,N,00833.915187,E,546.589,G3,2.1,2.0,0.007,77.52,0.007,,0.92,1.19,0.77,9,0,0",
        ])
        let fix = events(input).fixes.last
        #expect(fix?.altitude == 499.6)
        #expect(fix?.ellipsoidalAltitude == 546.589)
        // The GGA left the separation empty: it is the difference of the two heights.
        #expect(near(fix?.geoidSeparation, 546.589 - 499.6))
    }

    @Test("PUBX,00 states no fix", arguments: ["NF", "DR", "TT"])
    func pubxNoFix(status: String) {
        // Given a PUBX,00 whose navigation status is `status`; Then it is no fix
        let body = "PUBX,00,000012.00,0000.00000,N,00000.00000,E,0.000,\(status),5303302,3750001,0.000,0.00,0.000,,99.99,99.99,99.99,0,0,0"
        guard let x = decoded(body) as? PUBXPosition else { Issue.record("not a PUBX,00"); return }
        #expect(x.mode == .noFix)
        let fix = events(nmea(body)).fixes.first
        #expect(fix?.mode == .noFix)
        #expect(fix?.coordinate == nil)
    }

    @Test("other PUBX messages are counted, not decoded")
    func pubxOther() throws {
        // Given a PUBX,04 (time of day and clock); Then it is a PUBX for the statistics, but
        // nothing is decoded from it
        let line = nmea("PUBX,04,073731.00,091202,113851.00,1196,15D,1930035,-2660.664,43")
        #expect(try check(line).get().kind == SentenceKind(PUBXPosition.self))
        #expect(decode(line) == nil)
    }

    @Test("every talker is read", arguments: [
        ("GP", .gps), ("GN", nil), ("GL", .glonass), ("GA", .galileo), ("GB", .beidou), ("BD", .beidou),
        ("GQ", .qzss), ("GI", .navic),
    ] as [(String, Constellation?)])
    func talkers(talker: String, constellation: Constellation?) throws {
        // Given the same GGA, RMC, GSA and GSV from talker `talker`
        let gga = "\(talker)GGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
        let input = nmea([
            "\(talker)RMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W",
            gga,
            "\(talker)GSA,A,3,05" + String(repeating: ",", count: 12) + "2.5,1.3,2.1",
            "\(talker)GSV,1,1,01,05,40,100,30",
        ])
        // When the GGA is checked and decoded
        let checked = try check(nmea(gga)).get()
        #expect(checked.kind == SentenceKind(GGA.self))
        #expect(checked.talker == talker)
        #expect(checked.address == talker + "GGA")
        guard let x = decode(nmea(gga)) as? GGA else { Issue.record("not a GGA"); return }
        #expect(x.altitude == 545.4)
        // Then the talker names its constellation (none for GN)
        #expect(checked.constellation == constellation)
        // And a whole epoch from it is a 3D fix, with satellite 5 of that constellation (GPS for GN)
        let out = events(input)
        #expect(out.fixes.count == 1)
        #expect(out.fixes.first?.mode == .threeD)
        #expect(near(out.fixes.first?.coordinate?.latitude, degrees(48, 7.038)))
        let satellite = out.skies.first?.satellites.first
        #expect(satellite?.id == SatelliteID(constellation: constellation ?? .gps, svid: 5))
        #expect(satellite?.used == true)
    }

    @Test("PQ (QZSS from Quectel firmware) is a talker too")
    func pqTalker() {
        // Given a QZSS satellite 2 listed by a `PQGSV` (Quectel), the engine's own comment says
        // PQ is QZSS; SentenceKind already reads PQGSV as a GSV.
        let input = nmea([
            "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
            "PQGSV,1,1,01,02,40,100,30",
        ])
        let sky = events(input).skies.first
        #expect(sky?.satellites.count == 1)
        #expect(sky?.satellites.first?.id == SatelliteID(constellation: .qzss, svid: 2))
    }

    @Test("each formatter maps to its kind", arguments: [
        ("GPGGA", SentenceKind(GGA.self)), ("GNRMC", SentenceKind(RMC.self)), ("GLGSA", SentenceKind(GSA.self)),
        ("GAGSV", SentenceKind(GSV.self)), ("GPVTG", SentenceKind(VTG.self)), ("GNGLL", SentenceKind(GLL.self)),
        ("GPZDA", SentenceKind(ZDA.self)), ("GNGNS", SentenceKind(GNS.self)), ("GPGST", SentenceKind(GST.self)),
        ("GBGBS", SentenceKind(GBS.self)), ("PGRME", SentenceKind(PGRME.self)), ("PUBX", SentenceKind(PUBXPosition.self)),
        ("PGRMZ", SentenceKind(PGRMZ.self)), ("PQGSV", SentenceKind(GSV.self)),
        ("GPDTM", SentenceKind(DTM.self)), ("GNGRS", SentenceKind(GRS.self)), ("GPTXT", SentenceKind(TXT.self)),
        ("GPHDX", .unknown), ("PGRMM", .unknown), ("PSRF", .unknown), ("GPGGAX", .unknown), ("PSRFTXT", .unknown),
    ] as [(String, SentenceKind)])
    func kinds(address: String, kind: SentenceKind) throws {
        // Given a sentence with address `address`; When it is checked; Then it is of `kind`
        #expect(try check(nmea(address + ",1,2,3")).get().kind == kind)
    }

    /// The all-empty form of each sentence, from receivers that have nothing to say yet.
    @Test("empty fields are nil, never zero", arguments: [
        "GPGGA,,,,,,,,,,,,,,", "GPRMC,,,,,,,,,,,,,", "GPGSA,,,,,,,,,,,,,,,,,", "GPGSV,,,,,,,", "GPVTG,,,,,,,,,",
        "GPGLL,,,,,,,", "GPZDA,,,,,,", "GNGNS,,,,,,,,,,,,,", "GPGST,,,,,,,,", "GPGBS,,,,,,,,,,", "PGRME,,,,,,",
        "PUBX,00,,,,,,,,,,,,,,,,,,,,", "PGRMZ,,,",
    ])
    func emptyIsNil(body: String) {
        // Given a sentence with every field empty; When it is decoded
        guard let d = decoded(body) else { Issue.record("not decoded"); return }
        // Then no number comes out of nothing
        let numbers: [Double?]
        switch d {
        case let x as GGA:
            numbers = [x.time.map { Double($0.milliseconds) }, x.coordinate?.latitude, x.qualityIndicator.map(Double.init),
                       x.satellitesUsed.map(Double.init), x.hdop, x.altitude, x.geoidSeparation, x.differentialAge,
                       x.differentialStation.map(Double.init)]
        case let x as RMC:
            numbers = [x.time.map { Double($0.milliseconds) }, x.coordinate?.latitude, x.speedKnots, x.course,
                       x.date.map { Double($0.year) }, x.magneticVariation]
            #expect(x.isValid == nil)
        case let x as GSA:
            numbers = [x.mode.map { Double($0.rawValue) }, x.pdop, x.hdop, x.vdop, x.systemID.map(Double.init)]
            #expect(x.satellites.isEmpty)
        case let x as GSV:
            numbers = [x.totalParts.map(Double.init), x.part.map(Double.init), x.satellitesInView.map(Double.init),
                       x.signalID.map(Double.init)]
            #expect(x.entries.isEmpty)
        case let x as VTG:
            numbers = [x.course, x.magneticCourse, x.speedKnots, x.speedKilometresPerHour, x.speed]
        case let x as GLL:
            numbers = [x.coordinate?.latitude, x.time.map { Double($0.milliseconds) }]
            #expect(x.isValid == nil)
        case let x as ZDA:
            numbers = [x.time.map { Double($0.milliseconds) }, x.date.map { Double($0.year) }]
        case let x as GNS:
            numbers = [x.time.map { Double($0.milliseconds) }, x.coordinate?.latitude, x.satellitesUsed.map(Double.init),
                       x.hdop, x.altitude, x.geoidSeparation, x.differentialAge]
            #expect(x.mode == nil)
        case let x as GST:
            numbers = [x.rms, x.semiMajor, x.semiMinor, x.orientation, x.latitudeError, x.longitudeError, x.altitudeError]
        case let x as GBS:
            numbers = [x.latitudeError, x.longitudeError, x.altitudeError]
        case let x as PGRME:
            numbers = [x.horizontalError, x.verticalError, x.sphericalError]
        case let x as PUBXPosition:
            numbers = [x.time.map { Double($0.milliseconds) }, x.coordinate?.latitude, x.ellipsoidalAltitude,
                       x.horizontalAccuracy, x.verticalAccuracy, x.speedKilometresPerHour, x.course,
                       x.verticalVelocityDown, x.hdop, x.vdop, x.tdop, x.satellitesUsed.map(Double.init)]
        case let x as PGRMZ:
            numbers = [x.altitude, x.mode.map { Double($0.rawValue) }]
        default:
            Issue.record("\(type(of: d)) is not covered here")
            return
        }
        #expect(numbers.allSatisfy { $0 == nil }, "\(numbers)")
        // And a parser given it alone reports at most a no-fix with nothing in it
        for fix in events(nmea(body)).fixes {
            #expect(fix.mode == .noFix)
            #expect(fix.coordinate == nil)
            #expect(fix.altitude == nil)
            #expect(fix.speed == nil)
            #expect(fix.satellitesUsed == nil)
        }
    }

    @Test("numbers: whole values written with a fraction, signs, and garbage", arguments: [
        ("08.0", 8, 8.0), ("-3", nil, -3.0), ("+7", 7, 7.0), ("1.5", nil, 1.5), ("1.2.3", nil, nil), ("x", nil, nil),
        ("", nil, nil), ("0", 0, 0.0),
    ] as [(String, Int?, Double?)])
    func numbers(text: String, integer: Int?, double: Double?) {
        // Given a GGA whose satellites-used and altitude fields hold `text`; When it is decoded
        // Then they read as `integer` and `double`, nil where `text` is no such number (or, for
        // a count of satellites, a negative one)
        let body = "GPGGA,123519,4807.038,N,01131.000,E,1,\(text),0.9,\(text),M,46.9,M,,"
        guard let x = decoded(body) as? GGA else { Issue.record("not a GGA"); return }
        #expect(x.satellitesUsed == integer)
        #expect(x.altitude == double)
    }

    @Test("time of day to the millisecond", arguments: [
        ("123519", 45_319_000), ("123519.5", 45_319_500), ("123519.25", 45_319_250), ("123519.125", 45_319_125),
        ("123519.1234", 45_319_123), ("000000.00", 0), ("235960.00", 86_400_000),
        ("2400", nil), ("240000", nil), ("126000", nil), ("123561", nil), ("-12351", nil),
    ] as [(String, Int?)])
    func timeOfDay(text: String, milliseconds: Int?) {
        // Given a GGA whose time field is `text`; When it is decoded
        // Then the time is `milliseconds` after midnight, or nil when impossible
        let body = "GPGGA,\(text),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
        guard let x = decoded(body) as? GGA else { Issue.record("not a GGA"); return }
        #expect(x.time?.milliseconds == milliseconds)
    }

    @Test("a time rounded up at the end of the day is not a leap second")
    func roundingAtMidnight() {
        // Given 23:59:59.9996, printed with four decimals
        guard let x = decoded("GPGGA,235959.9996,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,") as? GGA else {
            Issue.record("not a GGA"); return
        }
        // Then it must not read as 23:59:60, the leap second; 23:59:59.999 (or the next day's
        // midnight) is right
        #expect((x.time?.milliseconds ?? 0) < 86_400_000)
    }
}
