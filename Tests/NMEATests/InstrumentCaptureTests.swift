import Foundation
import NMEA
import Testing

// gpsd's regression captures with instruments on the wire, read in place from
// ../shared/captures/gpsd/ (never copied): rst39 and hemi (a satellite compass's HDT beside
// the receiver), bundg_zeus_9 (a B&G Zeus chartplotter's depth sounder, wind instrument and
// 10 Hz compass), saab-r4 (an AIS transponder's HDT and ROT). Their `.chk` files are what gpsd
// reported.

private let folder = packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared").appendingPathComponent("captures").appendingPathComponent("gpsd")

private var haveCaptures: Bool { FileManager.default.fileExists(atPath: folder.appendingPathComponent("rst39.log").path) }

private func gpsdCapture(_ name: String) throws -> [UInt8] {
    try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
}

/// gpsd's reports in a `.chk`, each with the time of day (ms) of the last TPV before it.
private func gpsdReports(_ name: String) throws -> [(tpvTime: Int?, report: [String: Any])] {
    let text = try String(contentsOf: folder.appendingPathComponent(name + ".chk"), encoding: .utf8)
    var out: [(Int?, [String: Any])] = []
    var last: Int?
    for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("{") {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
        if object["class"] as? String == "TPV", let time = object["time"] as? String { last = timeOfDay(time) }
        out.append((last, object))
    }
    return out
}

/// `…T20:41:33.000Z` as milliseconds of the day (gpsd moves old dates; the time of day stays).
private func timeOfDay(_ iso: String) -> Int? {
    guard let t = iso.split(separator: "T").last else { return nil }
    let parts = t.dropLast().split(separator: ":")
    guard parts.count == 3, let h = Int(parts[0]), let m = Int(parts[1]), let s = Double(parts[2]) else { return nil }
    return (h * 3600 + m * 60) * 1000 + Int((s * 1000).rounded())
}

private func fixes(_ bytes: [UInt8]) -> (fixes: [Fix], statistics: EpochStatistics) {
    let parser = NMEAParser()
    var out: [Fix] = []
    parser.parse(bytes) { if case .fix(let f) = $0 { out.append(f) } }
    parser.finish { if case .fix(let f) = $0 { out.append(f) } }
    return (out, parser.assembler.statistics)
}

/// The capture without its instruments' sentences (as if they were on another wire).
private func withoutInstruments(_ bytes: [UInt8]) -> [UInt8] {
    let kinds: Set<String> = ["HDT", "THS", "HDG", "HDM", "ROT", "XDR", "DBT", "DPT", "MTW", "MWV", "MWD"]
    var kept: [UInt8] = []
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
        let text = String(decoding: line.prefix(6), as: UTF8.self)
        if text.hasPrefix("$"), text.count == 6, kinds.contains(String(text.suffix(3))) { continue }
        kept += line + [0x0A]
    }
    return kept
}

/// What the receiver stated in a fix: the fix without its instruments' part.
private func receiverPart(_ fix: Fix) -> Fix {
    var f = fix
    f.attitude = nil
    f.marine = nil
    // A compass's HDG is gpsd's magnetic track as well as a VTG's: set by either.
    f.magneticTrack = nil
    return f
}

@Suite("Instruments in gpsd's captures", .enabled(if: haveCaptures, "gpsd's captures are not at ../shared/captures/gpsd/; skipped"))
struct InstrumentCaptureTests {
    @Test("each HDT's heading is gpsd's ATT, in the epoch gpsd's last TPV before it was", arguments: ["rst39.log", "hemi.log"])
    func headings(name: String) throws {
        // Given gpsd's ATT reports, each with the time of the TPV before it
        let expected = try gpsdReports(name).compactMap { entry -> (Int?, Double)? in
            guard entry.report["class"] as? String == "ATT", let h = (entry.report["heading"] as? NSNumber)?.doubleValue else { return nil }
            return (entry.tpvTime, h)
        }
        #expect(expected.count == 4)
        // When the capture is parsed
        let out = fixes(try gpsdCapture(name)).fixes
        // Then each heading is carried by a fix of that time, and no other heading appears
        for (time, heading) in expected {
            #expect(out.contains { $0.timestamp?.time.milliseconds == time && near($0.attitude?.heading, heading, within: 1e-9) },
                    "\(heading) at \(time ?? -1) ms")
        }
        let seen = Set(out.compactMap { $0.attitude?.heading })
        #expect(seen == Set(expected.map(\.1)))
    }

    @Test("bundg_zeus_9: the depth gpsd reports in a second is the depth of that second's fixes")
    func depth() throws {
        // Given gpsd's depths by time of day
        var gpsdDepths: [Int: Set<Double>] = [:]
        for entry in try gpsdReports("bundg_zeus_9.log") where entry.report["class"] as? String == "TPV" {
            guard let d = (entry.report["depth"] as? NSNumber)?.doubleValue, let time = entry.report["time"] as? String,
                  let t = timeOfDay(time) else { continue }
            gpsdDepths[t, default: []].insert(d)
        }
        #expect(gpsdDepths.count > 140)
        // When the capture is parsed
        let out = fixes(try gpsdCapture("bundg_zeus_9.log")).fixes
        var ours: [Int: Set<Double>] = [:]
        for f in out {
            if let t = f.timestamp?.time.milliseconds, let d = f.marine?.depth { ours[t, default: []].insert(d) }
        }
        // Then at nearly every second gpsd reports a depth, a fix of that second has one of its
        // values (gpsd also reports the depth of a second on the next second's first position)
        let agreeing = gpsdDepths.filter { t, depths in ours[t]?.contains { d in depths.contains { abs($0 - d) < 0.0005 } } == true }
        #expect(Double(agreeing.count) / Double(gpsdDepths.count) >= 0.95, "\(agreeing.count) of \(gpsdDepths.count)")
        // And two seconds read by hand: DBT 5.4 m at 09:47:37, 6.2 m at 09:49:59
        #expect(ours[(9 * 3600 + 47 * 60 + 37) * 1000]?.contains(5.4) == true)
        #expect(ours[(9 * 3600 + 49 * 60 + 59) * 1000]?.contains(6.2) == true)
    }

    @Test("bundg_zeus_9: the wind and the compass of a second, as its sentences state them")
    func windAndCompass() throws {
        let out = fixes(try gpsdCapture("bundg_zeus_9.log")).fixes
        // 09:47:37: $WIMWD,327.8,T,326.4,M,11.3,N,5.8,M  $WIMWV,73.7,R,11.1,N,A  $WIMWV,94.9,T,11.3,N,A
        let second = (9 * 3600 + 47 * 60 + 37) * 1000
        let fix = try #require(out.last { $0.timestamp?.time.milliseconds == second && $0.hasFix })
        let m = try #require(fix.marine)
        #expect(m.trueWindDirection == 327.8 && m.magneticWindDirection == 326.4 && m.trueWindSpeed == 5.8)
        #expect(m.apparentWindAngle == 73.7 && near(m.apparentWindSpeed, 11.1 * 1852 / 3600) && m.trueWindAngle == 94.9)
        // The $SDMTW,,C of every second says nothing; XDR's heel and trim are not pitch and roll
        #expect(m.waterTemperature == nil && fix.attitude?.pitch == nil && fix.attitude?.roll == nil)
        // and its compass's last reading before the fix went out ($SDHDG,231.3,,,1.3,E)
        #expect(fix.attitude?.magneticHeading == 231.3 && fix.attitude?.heading == nil)
    }

    @Test("the instruments' sentences change no epoch: the receiver's fixes are those of the capture without them",
          arguments: ["rst39.log", "hemi.log", "bundg_zeus_9.log", "saab-r4.log"])
    func epochsUnchanged(name: String) throws {
        let full = fixes(try gpsdCapture(name)), plain = fixes(withoutInstruments(try gpsdCapture(name)))
        #expect(full.statistics.epochs == plain.statistics.epochs)
        #expect(full.statistics.earlyReports == plain.statistics.earlyReports)
        #expect(full.statistics.forgottenEnders == plain.statistics.forgottenEnders)
        #expect(full.statistics.contradictions == plain.statistics.contradictions)
        // The same fixes, once each: an instrument adds only corrections that repeat the
        // receiver's part, and (before the receiver's first sentence) fixes of its own
        let alone = full.fixes.prefix { receiverPart($0) == Fix() && ($0.attitude != nil || $0.marine != nil) }.count
        var receiver: [Fix] = []
        for f in full.fixes.dropFirst(alone).map(receiverPart) where receiver.last != f { receiver.append(f) }
        var expected: [Fix] = []
        for f in plain.fixes.map(receiverPart) where expected.last != f { expected.append(f) }
        #expect(receiver == expected)
        #expect(full.fixes.contains { $0.attitude != nil } && plain.fixes.allSatisfy { $0.attitude == nil && $0.marine == nil })
    }
}
