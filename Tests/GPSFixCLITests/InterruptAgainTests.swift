import Foundation
import GPSTestSupport
import Testing

/// A stop that cannot finish (the output a full pipe nobody reads: the source's thread is
/// blocked writing, and the stop waits for the delivery in hand) must not leave the user
/// without a way out: the same signal again ends gpsfix at once.
@Suite("A second Ctrl-C", .timeLimit(.minutes(1)))
struct InterruptAgainTests {
    @Test("watch writing to a full pipe nobody reads: a second SIGINT ends it at once")
    func secondInterrupt() async throws {
        let binary = try #require(GPSFixBinary.url?.path)
        let capture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Captures/drive-1hz.nmea").path
        // Given gpsfix watch writing JSON into a pipe whose reader never reads
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let writeEnd = ends[1]
        let pid = try spawn([binary, "watch", "--replay", capture, "--loop", "--speed", "max", "--json"]) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        close(writeEnd)
        defer { kill(pid, SIGKILL); var s: Int32 = 0; waitpid(pid, &s, WNOHANG) }
        // The pipe fills (64 kB) within moments at full speed.
        #expect(await waitUntil(.seconds(5)) { Self.pipeBytes(ends[0]) >= 60_000 })

        // When it is sent SIGINT, and SIGINT again
        kill(pid, SIGINT)
        try await Task.sleep(for: .milliseconds(300))
        kill(pid, SIGINT)

        // Then it has ended within a moment of the second, whatever the first could do
        let status = await Self.exitStatus(pid, within: 3)
        #expect(status != nil, "still running 3 s after the second SIGINT")
    }

    /// What waits unread in a pipe.
    static func pipeBytes(_ fd: Int32) -> Int {
        var count: Int32 = 0
        return ioctl(fd, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
    }

    /// The raw wait status once `pid` has ended, or nil if it has not within `seconds`.
    static func exitStatus(_ pid: pid_t, within seconds: Double) async -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { return status }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }
}
