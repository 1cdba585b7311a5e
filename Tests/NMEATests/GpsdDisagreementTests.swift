import Foundation
import NMEA
import Testing

/// Where gpsfix deliberately differs from gpsd's expected output (`.chk`) for gpsd's own
/// regression captures, and why. Each test reads the capture by path from ../shared (never
/// copied into the project) and checks gpsfix's behaviour against the receiver's sentences.
@Suite("Deliberate differences from gpsd")
struct GpsdDisagreementTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/captures/gpsd")

    static var available: Bool { FileManager.default.fileExists(atPath: folder.path) }

    func fixes(_ name: String) throws -> [Fix] {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
        return parsed([UInt8](data)).events.fixes
    }

    @Test("A position the receiver marks invalid (GGA quality 0, RMC V) is no fix; gpsd reports it as 2D",
          .enabled(if: available, "../shared/captures/gpsd is not beside the project"))
    func invalidPositionIsNoFix() throws {
        // Given: mtk-3301.log, whose 08:14:34.590 cycle has GGA quality 0 and RMC status V,
        // and gpsd's .chk reports lat 52.216316550 lon 6.884965100 from it with mode 2.
        // When
        let all = try fixes("mtk-3301.log")
        // Then: no fix of ours is at that position, and the epoch is reported as no fix.
        #expect(!all.contains { f in
            guard let c = f.coordinate else { return false }
            return abs(c.latitude - 52.216316550) < 2e-6 && abs(c.longitude - 6.884965100) < 2e-6
        })
        let epoch = all.first { $0.timestamp?.time == TimeOfDay(hour: 8, minute: 14, second: 34, millisecond: 590) }
        #expect(epoch?.mode == .noFix)
    }

    @Test("Old dates stay old: no 1024-week shift (gpsd's .chk says 2028 for a 2008 capture)",
          .enabled(if: available, "../shared/captures/gpsd is not beside the project"))
    func noWeekRolloverShift() throws {
        // Given: mtk-3301.log's RMC dates are 230808 (23 August 2008).
        // When
        let dated = try fixes("mtk-3301.log").compactMap { $0.timestamp?.date }
        // Then
        #expect(!dated.isEmpty)
        #expect(dated.allSatisfy { $0 == CalendarDate(year: 2008, month: 8, day: 23) })
    }

    @Test("A receiver's 2D fix stays 2D even with an altitude (gpsd promotes it to 3D)",
          .enabled(if: available, "../shared/captures/gpsd is not beside the project"))
    func twoDimensionalStaysTwoDimensional() throws {
        // Given: mtk-3301.log's last cycle has GSA mode 2 and a GGA altitude of 102.930 m.
        // When
        let last = try #require(try fixes("mtk-3301.log").last { $0.hasFix })
        // Then: the receiver's mode, and the altitude it gave, both kept.
        #expect(last.mode == .twoD)
        #expect(last.altitude == 102.930)
    }

    @Test("An empty GGA quality with RMC V and GSA mode 1 is no fix (gpsd reports 2D)",
          .enabled(if: available, "../shared/captures/gpsd is not beside the project"))
    func emptyQualityIsNotAFix() throws {
        // Given: myguide-3100.log, whose first cycles say "no fix" in RMC (V, mode N) and
        // GSA (mode 1) while the GGA's quality field is empty.
        // When
        let all = try fixes("myguide-3100.log")
        // Then: nothing before the receiver's first RMC A (10:50:29.8) is a fix.
        let first = try #require(all.firstIndex { $0.hasFix })
        #expect(all[..<first].allSatisfy { $0.mode == .noFix && $0.coordinate == nil })
        #expect(all[first].timestamp?.time == TimeOfDay(hour: 10, minute: 50, second: 29, millisecond: 800))
    }
}
