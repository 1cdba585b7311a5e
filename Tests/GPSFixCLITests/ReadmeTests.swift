import GPSTestSupport
import Foundation
import Testing

/// What the README shows a new user must be what they then see.
@Suite("README", .enabled(if: GPSFixBinary.isAvailable, "gpsfix binary not found"), .timeLimit(.minutes(1)))
struct ReadmeTests {
    @Test("Its example text line is the first line 'make run' prints (a replay of Captures/drive-1hz.nmea, piped)")
    func exampleLine() async throws {
        // Given: the indented line after "A text line:"
        let readme = try String(contentsOf: projectRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let heading = try #require(lines.firstIndex(of: "A text line:"), "README has no 'A text line:'")
        let shown = try #require(lines[(heading + 1)...].first { !$0.isEmpty }).trimmingCharacters(in: .whitespaces)

        // When: what make run replays, as a pipe gets it
        let result = try #require(await gpsfix("watch", "--replay", projectCapture("drive-1hz.nmea"), "--speed", "max", "-n", "1"))

        // Then
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines == [shown])
    }
}
