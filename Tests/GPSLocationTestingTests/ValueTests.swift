import Foundation
import NMEA
import GPSLocation
import Testing

/// What an app's tests build, compare, print and store of the engine's values.
@Suite struct ValueTests {
    let time = FixTime(date: CalendarDate(year: 2026, month: 12, day: 2), time: TimeOfDay(hour: 1, minute: 2, second: 3))

    @Test func aFixIsBuiltFromWhatItStatesAndItsModeFollows() {
        let fix = Fix(coordinate: .init(latitude: 1, longitude: 2), altitude: 3)
        #expect(fix.mode == .threeD)
        #expect(fix.altitude == 3 && fix.speed == nil && fix.dop.horizontal == nil)
        #expect(Fix(coordinate: .init(latitude: 1, longitude: 2)).mode == .twoD)
        #expect(Fix(altitude: 3).mode == .noFix)
        #expect(Fix(coordinate: .init(latitude: 1, longitude: 2), mode: .noFix).hasFix == false)
        #expect(Fix() == Fix(mode: .noFix))
    }

    @Test func conformancesLeaveAFixAsCompactAsItWas() {
        // ARCHITECTURE.md, "Values on the hot path": every epoch's fix is copied through the
        // layers; Hashable, Codable and the descriptions add no storage. The instruments'
        // attitude and marine data are inline: no reference, so a copy is plain bytes.
        #expect(MemoryLayout<Fix>.stride == 528)
    }

    @Test func aFixPrintsItsKnownMembersInUnits() {
        let fix = Fix(coordinate: .init(latitude: 52.12345674, longitude: -4.1234567), altitude: 12.34,
                      speed: 0.5, timestamp: time)
        #expect("\(fix)" == "Fix(52.1234567, -4.1234567, alt 12.3 m, 0.50 m/s, 3D, 2026-12-02T01:02:03Z)")
        #expect("\(Fix())" == "Fix(no fix)")
        var partial = Fix(timestamp: FixTime(date: nil, time: TimeOfDay(milliseconds: 250)))
        partial.isPartialEpoch = true
        #expect("\(partial)" == "Fix(no fix, 00:00:00.250Z, partial)")
        let debug = String(reflecting: fix)
        #expect(debug.contains("altitude: 12.34") && debug.contains("speed: 0.5") && debug.contains("mode: 3D"))
        for text in ["\(fix)", debug, String(reflecting: Fix())] {
            #expect(!text.contains("Unknowable") && !text.contains("nan") && !text.contains("_speed"), "\(text)")
        }
    }

    @Test func aSkyViewAStatisticsAndAStatusPrintAsAPersonReadsThem() {
        let sky = SkyView(timestamp: time, satellites: [
            Satellite(id: .init(constellation: .gps, svid: 5), elevation: 45, azimuth: 120, snr: 38, used: true),
            Satellite(id: .init(constellation: .galileo, svid: 12)),
        ])
        #expect("\(sky)" == "SkyView(2 satellites, 1 used, 2026-12-02T01:02:03Z)")
        #expect(String(reflecting: sky).contains("[GPS 5 (el 45°, az 120°, 38 dB-Hz, used); Galileo 12]"))
        var epochs = EpochStatistics()
        epochs.epochs = 40
        epochs.fixes = 38
        let statistics = Statistics(sentences: SentenceCounts(sentences: [SentenceKind(GGA.self): 40, SentenceKind(RMC.self): 40],
                                                              badChecksum: 3), epochs: epochs)
        #expect("\(statistics)" == "Statistics(80 sentences, 3 bad checksums, 40 epochs, 38 fixes)")
        #expect("\(SourceStatus.stale(after: .seconds(5.25)))" == "stale: nothing for 5.3 s")
        #expect("\(SourceStatus.finished(Statistics()))" == "finished: Statistics(0 sentences, 0 epochs, 0 fixes)")
    }

    @Test func anErrorSaysWhatHappenedAsItsLocalizedDescription() {
        let error: any Error = LocationError.deviceGone(path: "/dev/ttyACM0")
        #expect(error.localizedDescription == "/dev/ttyACM0 went away (unplugged?).")
        #expect((error as? any LocalizedError)?.errorDescription == LocationError.deviceGone(path: "/dev/ttyACM0").description)
    }

    @Test func valuesThatAreTheSameHashTheSame() {
        let a = Fix(coordinate: .init(latitude: 1, longitude: 2), altitude: 0)
        var b = a
        b.altitude = -0.0
        let c = Fix(coordinate: .init(latitude: 1, longitude: 2), altitude: 1)
        #expect(Set([a, b, c]).count == 2)
        #expect(Set([Fix(), Fix(), Fix(speed: .nan)]).count == 1)
        #expect(Set([SourceStatus.started, .started, .stopped]).count == 2)
    }

    @Test func aFixIsStoredUnderItsPublicNamesWithTheUnknownLeftOut() throws {
        var fix = Fix(coordinate: .init(latitude: 52.5, longitude: 4.25, resolution: 1.7e-6), altitude: 12.5,
                      speed: 0.5, dop: DilutionOfPrecision(horizontal: 0.9), timestamp: time, satellitesUsed: 8,
                      quality: .dgps)
        fix.errorStatistics = ErrorStatistics(rms: 1.5)
        fix.datum = .pe90
        let data = try JSONEncoder().encode(fix)
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["coordinate", "altitude", "speed", "dop", "timestamp", "satellitesUsed",
                                     "errorStatistics", "mode", "quality", "isPartialEpoch", "datum"])
        #expect(object["altitude"] as? Double == 12.5)
        #expect(object["datum"] as? String == "P90")
        #expect((object["dop"] as? [String: Any])?.keys.sorted() == ["horizontal"])
        let decoded = try JSONDecoder().decode(Fix.self, from: data)
        #expect(decoded == fix)
        #expect(decoded.coordinate?.resolution == 1.7e-6)
        // Null and absent alike are unknown.
        let sparse = try JSONDecoder().decode(Fix.self, from: Data(#"{"mode":2,"speed":null,"isPartialEpoch":false,"dop":{}}"#.utf8))
        #expect(sparse == Fix(mode: .twoD))
        // gpsd's estimates, when there are any, are kept under their names too.
        var estimated = fix
        estimated.estimatedErrors = ErrorEstimates(horizontal: 17.1, time: 0.005)
        let withEstimates = try JSONEncoder().encode(estimated)
        let read = try #require(JSONSerialization.jsonObject(with: withEstimates) as? [String: Any])
        #expect((read["estimatedErrors"] as? [String: Any])?.keys.sorted() == ["horizontal", "time"])
        #expect(try JSONDecoder().decode(Fix.self, from: withEstimates) == estimated)
    }

    @Test func aStoredDateTimeOrPlaceThatCannotBeIsRefused() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(CalendarDate.self, from: Data(#"{"year":2026,"month":2,"day":30}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(TimeOfDay.self, from: Data(#"{"milliseconds":90000000}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Coordinate.self, from: Data(#"{"latitude":91,"longitude":4}"#.utf8))
        }
    }

    @Test func statisticsAndEventsRoundTripWithSentencesCountedByName() throws {
        var epochs = EpochStatistics()
        epochs.fixes = 7
        let statistics = Statistics(sentences: SentenceCounts(sentences: [SentenceKind(GGA.self): 10, .unknown: 2],
                                                              badChecksum: 1), epochs: epochs)
        let data = try JSONEncoder().encode(statistics)
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let sentences = try #require(object["sentences"] as? [String: Any])
        #expect(sentences["sentences"] as? [String: Int] == ["GGA": 10, "unknown": 2])
        #expect(try JSONDecoder().decode(Statistics.self, from: data) == statistics)
        // A kind this release does not know counts as unknown; a count below zero is refused.
        let later = try JSONDecoder().decode(SentenceCounts.self, from: Data(#"{"sentences":{"HDX":4,"GGA":1}}"#.utf8))
        #expect((later.unknown, later[GGA.self]) == (4, 1))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(SentenceCounts.self, from: Data(#"{"sentences":{"GGA":-1}}"#.utf8))
        }
        for status in [SourceStatus.finished(statistics), .disconnected(reason: "hung up"), .stopped] {
            #expect(try JSONDecoder().decode(SourceStatus.self, from: JSONEncoder().encode(status)) == status)
        }
        let error = LocationError.deviceBusy(path: "/dev/ttyUSB0", holder: PortHolder(pid: 42, name: "gpsd"))
        #expect(try JSONDecoder().decode(LocationError.self, from: JSONEncoder().encode(error)) == error)
        let reception = Reception(source: "/dev/ttyUSB0", bytes: 10, baud: 9600)
        #expect(try JSONDecoder().decode(Reception.self, from: JSONEncoder().encode(reception)) == reception)
        let events: [LocationEvent] = [.fix(Fix(coordinate: .init(latitude: 1, longitude: 2))), .sky(SkyView()),
                                       .status(.started), .sentence("$GPGGA"), .note(ReceiverNote(severity: .warning, text: "ANTENNA OPEN")),
                                       .note(ReceiverNote(severity: nil, text: "x", isComplete: false)), .error(error)]
        #expect(try JSONDecoder().decode([LocationEvent].self, from: JSONEncoder().encode(events)) == events)
    }
}
