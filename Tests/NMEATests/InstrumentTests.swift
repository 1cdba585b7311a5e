import Foundation
import NMEA
import Testing

// The instruments that share a boat's NMEA wire with its receiver: each decoder on good,
// empty, out-of-range and wrongly labelled fields, and how their sentences join epochs.

/// A decoded sentence of type `T`, or a failure naming what came instead.
private func decoded<T: SentenceType>(_ body: String, as type: T.Type) throws -> T {
    try #require(decoded(body) as? T, "\(body) did not decode as \(T.self)")
}

@Suite("Heading and attitude sentences")
struct AttitudeSentenceTests {
    @Test("HDT: degrees true; 360 is north; a reference other than T is no heading", arguments: [
        ("HEHDT,341.8,T", 341.8, 0), ("GPHDT,25.50,T", 25.5, 0), ("GPHDT,360.0,T", 0, 0), ("GPHDT,0,", 0, 0),
        ("GPHDT,,T", nil, 0), ("GPHDT,361.0,T", nil, 1), ("GPHDT,-1,T", nil, 1), ("GPHDT,12.5,M", nil, 0),
    ] as [(String, Double?, Int)])
    func hdt(body: String, heading: Double?, outOfRange: Int) throws {
        let x = try decoded(body, as: HDT.self)
        #expect(x.heading == heading)
        #expect(x.outOfRange == outOfRange)
    }

    @Test("THS: a heading only when its mode says it is one", arguments: [
        ("GNTHS,121.15,A", 121.15, THS.Mode.autonomous), ("GNTHS,121.15,E", 121.15, .estimated),
        ("GNTHS,121.15,M", 121.15, .manual), ("GNTHS,121.15,V", nil, .invalid), ("GNTHS,121.15,S", nil, .simulator),
        ("GNTHS,121.15,", nil, nil), ("GNTHS,121.15,X", nil, nil), ("GNTHS,,A", nil, .autonomous),
    ] as [(String, Double?, THS.Mode?)])
    func ths(body: String, heading: Double?, mode: THS.Mode?) throws {
        let x = try decoded(body, as: THS.self)
        #expect(x.heading == heading)
        #expect(x.mode == mode)
    }

    @Test("THS out of range is counted")
    func thsOutOfRange() throws {
        let x = try decoded("GNTHS,400.0,A", as: THS.self)
        #expect(x.heading == nil && x.outOfRange == 1)
    }

    @Test("HDG: the sensor's reading with its deviation is the magnetic heading; variation is kept apart", arguments: [
        ("SDHDG,234.6,,,1.3,E", 234.6, nil, 1.3, 234.6), ("HCHDG,359.0,2.0,E,1.3,W", 359.0, 2.0, -1.3, 1.0),
        ("HCHDG,10.0,3.5,W,,", 10.0, -3.5, nil, 6.5), ("HCHDG,1.0,3.0,W,,", 1.0, -3.0, nil, 358.0),
        ("HCHDG,10.0,3.0,X,,", 10.0, nil, nil, 10.0), ("HCHDG,,1.0,E,2.0,E", nil, 1.0, 2.0, nil),
    ] as [(String, Double?, Double?, Double?, Double?)])
    func hdg(body: String, sensor: Double?, deviation: Double?, variation: Double?, magnetic: Double?) throws {
        let x = try decoded(body, as: HDG.self)
        #expect(x.sensorHeading == sensor)
        #expect(x.deviation == deviation)
        #expect(x.variation == variation)
        if let magnetic { #expect(near(x.magneticHeading, magnetic)) } else { #expect(x.magneticHeading == nil) }
        #expect(x.outOfRange == 0)
    }

    @Test("HDG out of range: heading and deviation each counted")
    func hdgOutOfRange() throws {
        let x = try decoded("HCHDG,400,200,E,1.3,E", as: HDG.self)
        #expect(x.sensorHeading == nil && x.deviation == nil && x.variation == 1.3 && x.outOfRange == 2)
    }

    @Test("HDM: degrees magnetic, labelled M", arguments: [
        ("HCHDM,231.8,M", 231.8, 0), ("HCHDM,231.8,", 231.8, 0), ("HCHDM,231.8,T", nil, 0), ("HCHDM,,M", nil, 0),
        ("HCHDM,500,M", nil, 1),
    ] as [(String, Double?, Int)])
    func hdm(body: String, heading: Double?, outOfRange: Int) throws {
        let x = try decoded(body, as: HDM.self)
        #expect(x.heading == heading)
        #expect(x.outOfRange == outOfRange)
    }

    @Test("ROT: degrees per minute when valid", arguments: [
        ("HEROT,-3.5,A", -3.5, 0), ("HEROT,0.0,A", 0, 0), ("HEROT,12.0,V", nil, 0), ("HEROT,12.0,", nil, 0),
        ("HEROT,,A", nil, 0), ("HEROT,999999,A", nil, 1),
    ] as [(String, Double?, Int)])
    func rot(body: String, rate: Double?, outOfRange: Int) throws {
        let x = try decoded(body, as: ROT.self)
        #expect(x.rateOfTurn == rate)
        #expect(x.outOfRange == outOfRange)
    }

    @Test("XDR: pitch and roll among other transducers; angles only in degrees")
    func xdr() throws {
        // A compass's pitch, roll and magnetometer (gpsd's driver comment)
        let compass = try decoded("HCXDR,A,-0.8,D,PITCH,A,0.8,D,ROLL,G,122,,MAGX,G,1838,,MAGY", as: XDR.self)
        #expect(compass.pitch == -0.8 && compass.roll == 0.8 && compass.measurements == 4 && compass.outOfRange == 0)
        #expect(try decoded("YXXDR,A,5.5,D,PTCH", as: XDR.self).pitch == 5.5)
        // A sailing instrument's heel and trim (bundg_zeus_9.log) are not gpsd's pitch and roll
        let sail = try decoded("IIXDR,C,,C,AIRTEMP,A,-1.0,D,HEEL,A,2.9,D,TRIM,P,,B,BARO,A,-3.9,D,RUDDER", as: XDR.self)
        #expect(sail.pitch == nil && sail.roll == nil && sail.measurements == 5)
        // Out of range is counted; another unit or kind is passed over; empty is unknown
        let bad = try decoded("YXXDR,A,95,D,PITCH,A,200,D,ROLL", as: XDR.self)
        #expect(bad.pitch == nil && bad.roll == nil && bad.outOfRange == 2)
        let radians = try decoded("YXXDR,A,0.1,R,PITCH,C,3.0,D,ROLL,A,,D,ROLL", as: XDR.self)
        #expect(radians.pitch == nil && radians.roll == nil && radians.outOfRange == 0)
        #expect(try decoded("YXXDR", as: XDR.self).measurements == 0)
    }
}

@Suite("Depth, water and wind sentences")
struct MarineSentenceTests {
    @Test("DBT: metres, else feet, else fathoms, each by its unit letter", arguments: [
        ("SDDBT,7.7,f,2.3,M,1.3,F", 2.3, 0), ("SDDBT,7.7,f,,M,1.3,F", 7.7 * 0.3048, 0), ("SDDBT,,f,,M,1.3,F", 1.3 * 1.8288, 0),
        ("SDDBT,,f,,M,,F", nil, 0), ("SDDBT,7.7,x,2.3,m,1.3,f", nil, 0), ("SDDBT,,f,-2.0,M,,F", nil, 1),
        ("SDDBT,,f,12000,M,,F", nil, 1),
    ] as [(String, Double?, Int)])
    func dbt(body: String, depth: Double?, outOfRange: Int) throws {
        let x = try decoded(body, as: DBT.self)
        if let depth { #expect(near(x.depth, depth)) } else { #expect(x.depth == nil) }
        #expect(x.outOfRange == outOfRange)
    }

    @Test("DPT: depth below the transducer, its offset and the range scale")
    func dpt() throws {
        let zeus = try decoded("SDDPT,5.3,0.4,", as: DPT.self)
        #expect(zeus.depth == 5.3 && zeus.offset == 0.4 && zeus.rangeScale == nil)
        let keel = try decoded("SDDPT,12.0,-1.2,100", as: DPT.self)
        #expect(keel.depth == 12 && keel.offset == -1.2 && keel.rangeScale == 100)
        let bad = try decoded("SDDPT,20000,150", as: DPT.self)
        #expect(bad.depth == nil && bad.offset == nil && bad.outOfRange == 2)
        #expect(try decoded("SDDPT,,,", as: DPT.self).depth == nil)
    }

    @Test("MTW: degrees Celsius only", arguments: [
        ("YXMTW,12.3,C", 12.3, 0), ("SDMTW,,C", nil, 0), ("YXMTW,55.0,F", nil, 0), ("YXMTW,150,C", nil, 1), ("YXMTW,-30,C", nil, 1),
    ] as [(String, Double?, Int)])
    func mtw(body: String, temperature: Double?, outOfRange: Int) throws {
        let x = try decoded(body, as: MTW.self)
        #expect(x.temperature == temperature)
        #expect(x.outOfRange == outOfRange)
    }

    @Test("MWV: angle off the bow, relative or true, speed in its unit, only when valid", arguments: [
        ("WIMWV,57.5,R,13.0,N,A", 57.5, MWV.Reference.relative, 13 * 1852 / 3600.0),
        ("WIMWV,96.6,T,11.2,M,A", 96.6, .theoretical, 11.2), ("WIMWV,10,R,36,K,A", 10, .relative, 10),
        ("WIMWV,10,R,10,S,A", 10, .relative, 4.4704), ("WIMWV,360,R,1,M,A", 0, .relative, 1),
        ("WIMWV,57.5,R,13.0,N,V", nil, .relative, nil), ("WIMWV,57.5,R,13.0,X,A", 57.5, .relative, nil),
        ("WIMWV,57.5,X,13.0,N,A", 57.5, nil, 13 * 1852 / 3600.0), ("WIMWV,,R,,N,A", nil, .relative, nil),
    ] as [(String, Double?, MWV.Reference?, Double?)])
    func mwv(body: String, angle: Double?, reference: MWV.Reference?, speed: Double?) throws {
        let x = try decoded(body, as: MWV.self)
        #expect(x.angle == angle)
        #expect(x.reference == reference)
        if let speed { #expect(near(x.speed, speed)) } else { #expect(x.speed == nil) }
        #expect(x.outOfRange == 0)
    }

    @Test("MWV out of range: a 400-knot wind and a 400° angle are counted")
    func mwvOutOfRange() throws {
        let x = try decoded("WIMWV,400,R,400,N,A", as: MWV.self)
        #expect(x.angle == nil && x.speed == nil && x.outOfRange == 2)
    }

    @Test("MWD: direction true and magnetic, speed in m/s as gpsd takes it, else in knots")
    func mwd() throws {
        let zeus = try decoded("WIMWD,328.2,T,326.8,M,11.2,N,5.8,M", as: MWD.self)
        #expect(zeus.direction == 328.2 && zeus.magneticDirection == 326.8 && zeus.speed == 5.8)
        let knots = try decoded("WIMWD,328.2,T,,M,11.2,N,,M", as: MWD.self)
        #expect(knots.magneticDirection == nil && near(knots.speed, 11.2 * 1852 / 3600))
        let unlabelled = try decoded("WIMWD,328.2,,326.8,,11.2,,5.8,", as: MWD.self)
        #expect(unlabelled.direction == nil && unlabelled.magneticDirection == nil && unlabelled.speed == nil)
        let bad = try decoded("WIMWD,361,T,326.8,M,,N,200,M", as: MWD.self)
        #expect(bad.direction == nil && bad.speed == nil && bad.outOfRange == 2)
    }
}

// MARK: - Epochs

/// One 1 Hz epoch of RMC GGA GSA at 12:00:`second`, the receiver's own sentences only.
private func receiver(_ second: Int) -> [String] {
    let time = "1200\(second < 10 ? "0" : "")\(second).00"
    let minutes = 7 + second
    return [
        nmea("GPRMC,\(time),A,48\(minutes < 10 ? "0" : "")\(minutes).000,N,01131.000,E,3.9,0.0,150624,,,A"),
        nmea("GPGGA,\(time),48\(minutes < 10 ? "0" : "")\(minutes).000,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
        nmea("GPGSA,A,3,04,05,09,12,24,,,,,,,,2.5,1.3,2.1"),
    ]
}

/// Every event with the index of the line whose feeding produced it (`lines.count`: finish).
private func fed(_ lines: [String]) -> (log: [(line: Int, event: EngineEvent)], statistics: EpochStatistics) {
    let parser = NMEAParser()
    var log: [(Int, EngineEvent)] = []
    for (i, line) in lines.enumerated() { parser.parse(bytes(line)) { log.append((i, $0)) } }
    parser.finish { log.append((lines.count, $0)) }
    return (log, parser.assembler.statistics)
}

private func fixes(_ log: [(line: Int, event: EngineEvent)]) -> [(line: Int, fix: Fix)] {
    log.compactMap { if case .fix(let f) = $0.event { ($0.line, f) } else { nil } }
}

@Suite("Instruments beside the receiver, in epochs")
struct InstrumentEpochTests {
    @Test("a heading after the receiver's burst goes out at once, and the ender stays learned")
    func headingAfterTheBurst() {
        // Given epochs of RMC GGA GSA, each followed by an HDT (a satellite compass after the burst)
        let lines = (0..<4).flatMap { receiver($0) + [nmea("HEHDT,\(10 + $0).5,T")] }
        let (log, statistics) = fed(lines)
        let out = fixes(log)
        // Then each epoch from the second on is reported at its GSA (the learned ender), and its
        // HDT brings the same fix again with the heading, at once
        #expect(out.map(\.line) == [4, 6, 7, 10, 11, 14, 15])
        #expect(out.map { $0.fix.attitude?.heading } == [10.5, nil, 11.5, nil, 12.5, nil, 13.5])
        var withoutHeading = out[2].fix
        withoutHeading.attitude = nil
        #expect(withoutHeading == out[1].fix)
        // And an instrument changed no epoch: four epochs, the ender never unlearned
        #expect(statistics.epochs == 4 && statistics.fixes == 4 && statistics.forgottenEnders == 0)
        #expect(statistics.earlyReports == 3)
    }

    @Test("a 10 Hz compass neither splits epochs nor becomes their ender, and repeats no fix")
    func fastCompass() {
        // Given a 1 Hz receiver with an HDG before, inside and after its burst, ten a second
        var lines: [String] = []
        for s in 0..<4 {
            let r = receiver(s)
            func hdg(_ tenth: Int) -> String { nmea("SDHDG,\(200 + s).\(tenth),,,1.3,E") }
            lines += [hdg(0), hdg(1), r[0], hdg(2), r[1], hdg(3), r[2]] + (4..<10).map(hdg)
        }
        let (log, statistics) = fed(lines)
        let out = fixes(log).filter(\.fix.hasFix)
        // Then one fix per epoch, with the compass's last reading before the epoch's report (the
        // first epoch's comes when the next begins: its ender is not learned yet)
        #expect(statistics.epochs == 4 && statistics.forgottenEnders == 0)
        #expect(out.map { second($0.fix) } == [0, 1, 2, 3])
        #expect(out.map { $0.fix.attitude?.magneticHeading } == [201.1, 201.3, 202.3, 203.3])
        // reported once the ender is learned at the GSA, never at a compass sentence
        #expect(out.first.map { lines[$0.line].contains("GPRMC") } == true)
        for (line, _) in out.dropFirst() { #expect(lines[line].contains("GPGSA"), "reported at \(lines[line])") }
        // And the receiver's statements are what they were without the compass
        let plain = fixes(fed((0..<4).flatMap(receiver)).log).map(\.fix)
        #expect(out.map(\.fix).filter(\.hasFix).map(\.coordinate) == plain.map(\.coordinate))
    }

    @Test("depth, water temperature and wind of an epoch go out with its fix")
    func marineEpoch() throws {
        // Given an epoch with a depth sounder's, a thermometer's and a wind instrument's sentences in it
        let lines = receiver(0) + [
            nmea("SDDBT,17.7,f,5.4,M,2.9,F"), nmea("SDDPT,5.4,0.4,"), nmea("YXMTW,14.5,C"),
            nmea("WIMWD,328.2,T,326.8,M,11.2,N,5.8,M"), nmea("WIMWV,57.5,R,13.0,N,A"), nmea("WIMWV,96.6,T,11.2,N,A"),
            nmea("IIXDR,A,-1.5,D,PTCH,A,3.0,D,ROLL"), nmea("HEROT,-2.0,A"), nmea("HCHDM,231.8,M"),
        ] + receiver(1) + receiver(2)
        let out = fixes(fed(lines).log).map(\.fix)
        // Then the first fix carries them all
        let m = try #require(out.first?.marine)
        #expect(m.depth == 5.4 && m.transducerOffset == 0.4 && m.waterTemperature == 14.5)
        #expect(m.apparentWindAngle == 57.5 && near(m.apparentWindSpeed, 13 * 1852 / 3600))
        #expect(m.trueWindAngle == 96.6 && m.trueWindDirection == 328.2 && m.magneticWindDirection == 326.8)
        // MWD's m/s stays the true wind's speed: MWV's theoretical knots do not replace it
        #expect(m.trueWindSpeed == 5.8)
        #expect(out.first?.attitude == Attitude(magneticHeading: 231.8, pitch: -1.5, roll: 3, rateOfTurn: -2))
        // The second, whose epoch had none, still has the depth, water and wind (they stand one
        // epoch, until the instruments speak again), but no attitude (an ATT is a sentence's);
        // the third has none
        #expect(out.count == 3 && out.allSatisfy(\.hasFix))
        #expect(out[1].marine == m && out[1].attitude == nil)
        #expect(out[2].marine == nil && out[2].attitude == nil)
    }

    @Test("a new depth after the fix is out goes out once, when the receiver speaks again")
    func depthAfterTheFix() {
        // Given epochs whose sounder's DBT, water and wind come after the receiver's ender (GSA)
        let lines = (0..<3).flatMap { s in
            receiver(s) + [nmea("SDDBT,,f,\(5 + s).0,M,,F"), nmea("YXMTW,1\(s).0,C"), nmea("WIMWV,\(40 + s),R,10,M,A")]
        }
        let (log, statistics) = fed(lines)
        let out = fixes(log)
        // Then each epoch's fix goes out at its GSA with the last epoch's readings, and its own
        // three readings go out in one corrected fix just before the next epoch's RMC (the last at the end)
        #expect(out.map(\.line) == [6, 8, 12, 14, 18])
        #expect(out.map { $0.fix.marine?.depth } == [5, 5, 6, 6, 7])
        #expect(out.map { $0.fix.marine?.waterTemperature } == [10, 10, 11, 11, 12])
        #expect(out.map { second($0.fix) } == [0, 1, 1, 2, 2])
        #expect(statistics.epochs == 3 && statistics.forgottenEnders == 0)
    }

    @Test("the latest reading of an instrument within an epoch is the epoch's; an invalid one changes nothing")
    func latestReading() {
        let lines = receiver(0).dropLast() + [nmea("SDDBT,,f,5.4,M,,F"), nmea("SDDBT,,f,5.6,M,,F"),
                                              nmea("WIMWV,57.5,R,13.0,N,V"), nmea("HEHDT,,T")] + receiver(0).suffix(1) + receiver(1)
        let first = fixes(fed(Array(lines)).log).first?.fix
        #expect(first?.marine == MarineData(depth: 5.6))
        #expect(first?.attitude == nil)
    }

    @Test("an instrument alone on the wire is reported when its sentence repeats, and at the end")
    func instrumentAlone() {
        // Given a compass and a sounder with no receiver
        let lines = [nmea("HEHDT,10.0,T"), nmea("SDDBT,,f,5.4,M,,F"), nmea("HEHDT,11.0,T"), nmea("HEHDT,12.0,T")]
        let (log, statistics) = fed(lines)
        let out = fixes(log)
        // Then each repeat of the HDT reports what came before it, and the end the rest: no position, no time
        #expect(out.map(\.line) == [2, 3, 4])
        #expect(out.map { $0.fix.attitude?.heading } == [10, 11, 12])
        #expect(out.map { $0.fix.marine?.depth } == [5.4, nil, nil])
        #expect(out.allSatisfy { !$0.fix.hasFix && $0.fix.timestamp == nil })
        #expect(statistics.epochs == 0 && statistics.fixes == 3)
    }

    @Test("instruments before the receiver's first sentence join its first epoch")
    func instrumentsFirst() {
        let lines = [nmea("HEHDT,10.0,T"), nmea("SDDBT,,f,5.4,M,,F")] + receiver(0) + receiver(1)
        let out = fixes(fed(lines).log).map(\.fix)
        #expect(out.count == 2)
        #expect(out.first?.attitude?.heading == 10 && out.first?.marine?.depth == 5.4 && out.first?.hasFix == true)
        #expect(out.first?.isPartialEpoch == false)
    }

    @Test("an instrument's sentence between the ender and the next time is no reason to hold or split")
    func betweenEpochs() {
        // Given an HDT between the ender (GSA) and a VTG that waits for its time, then the next RMC
        let lines = receiver(0) + receiver(1) + [nmea("GPVTG,0.0,T,,M,3.9,N,7.2,K,A"), nmea("HEHDT,45.0,T")] + receiver(2)
        let (log, statistics) = fed(lines)
        #expect(statistics.epochs == 3 && statistics.forgottenEnders == 0)
        // The heading goes out with epoch 1, right away; the VTG still waits and goes to epoch 2
        let out = fixes(log)
        #expect(out.contains { $0.line == 7 && $0.fix.attitude?.heading == 45 && second($0.fix) == 1 })
        #expect(out.last.map { second($0.fix) } == 2)
    }
}

private func second(_ fix: Fix) -> Int? { fix.timestamp.map { $0.time.milliseconds / 1000 % 60 } }

@Suite("The instruments' values")
struct InstrumentValueTests {
    @Test("A fix stores its attitude and marine data under their names, leaves them out when nil, and reads them back")
    func codable() throws {
        var fix = Fix(coordinate: Coordinate(latitude: 52.85, longitude: 5.31), mode: .threeD)
        let plain = try JSONSerialization.jsonObject(with: JSONEncoder().encode(fix)) as? [String: Any]
        #expect(plain?["attitude"] == nil && plain?["marine"] == nil)
        fix.attitude = Attitude(heading: 25.5, rateOfTurn: -3)
        fix.marine = MarineData(depth: 5.4)
        let data = try JSONEncoder().encode(fix)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((object["attitude"] as? [String: Any])?.keys.sorted() == ["heading", "rateOfTurn"])
        #expect((object["marine"] as? [String: Any])?.keys.sorted() == ["depth"])
        let read = try JSONDecoder().decode(Fix.self, from: data)
        #expect(read.attitude == fix.attitude && read.marine == fix.marine)
    }

    @Test("Copies of a fix share its boxes; setting one gives a new box, and equality is by value")
    func boxes() {
        var a = Fix()
        a.attitude = Attitude(heading: 1)
        var b = a
        #expect(b == a)
        b.attitude?.heading = 2
        #expect(a.attitude?.heading == 1 && b.attitude?.heading == 2 && a != b)
        b.attitude = Attitude(heading: 1)
        #expect(a == b && a.hashValue == b.hashValue)
        b.attitude = nil
        #expect(a != b && b == Fix())
    }

    @Test("What a person reads of them")
    func descriptions() {
        #expect("\(Attitude(heading: 25.5, rateOfTurn: -3))" == "Attitude(heading 25.5°, rate of turn -3.0°/min)")
        #expect("\(MarineData(depth: 5.4, waterTemperature: 14.5))" == "MarineData(depth 5.40 m, water 14.5 °C)")
        var fix = Fix()
        fix.marine = MarineData(depth: 5.4)
        #expect(String(reflecting: fix).contains("marine: MarineData(depth 5.40 m)"))
    }
}
