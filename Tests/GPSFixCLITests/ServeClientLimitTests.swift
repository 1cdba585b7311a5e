import Foundation
import GPSTestSupport
import Testing

/// `serve --max-clients-per-address`: the option reaches the server, and a bad count is a
/// usage error.
@Suite("gpsfix serve --max-clients-per-address", .enabled(if: GPSFixBinary.isAvailable), .timeLimit(.minutes(1)))
struct ServeClientLimitTests {
    @Test("With N = 1, a second client from 127.0.0.1 is refused, saying why, and one from 127.0.0.2 is served")
    func perAddress() async throws {
        let dir = try TemporaryDirectory()
        let serve = try await ServeProcess(["--replay", try dir.drive(), "--max-clients-per-address", "1"])

        let first = try LineClient(port: serve.port)
        let firstGreeting = first.readLine()
        let second = try LineClient(port: serve.port)
        let other = try LineClient(port: serve.port, from: "127.0.0.2")

        #expect(firstGreeting?.hasPrefix("{\"class\":\"VERSION\"") == true)
        #expect(second.readLine()?.contains("Too many clients from 127.0.0.1 (1); try again later") == true)
        #expect(other.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true)
        #expect(await serve.stop() == 0)
        #expect(serve.stderr.contains("refused 127.0.0.1:"), "\(serve.stderr)")
    }

    @Test("A count that is not a whole number above 0 is a usage error", arguments: ["0", "-3", "many", "1.5"])
    func badCount(_ count: String) async throws {
        let result = try #require(await gpsfix("serve", "--replay", "x.nmea", "--max-clients-per-address", count))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--max-clients-per-address takes a whole number above 0, not '\(count)'"), "\(result)")
    }
}
