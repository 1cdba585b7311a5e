import Foundation
import GPSTestSupport
import Glibc

/// The stand-in for the kernel's PPS interface (`Tests/StandIns/pps-standin.c`): this
/// machine's kernel has no PPS client and a pty has no modem lines, so a library preloaded
/// into gpsfix answers a PPS device's `open` and ioctls, and a tty's modem-line waits, with
/// edges at times the test writes to a file. Everything above it is gpsfix's own code.
struct PPSStandIn {
    static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("StandIns/pps-standin.c").path
    static var isAvailable: Bool { access("/usr/bin/cc", X_OK) == 0 && access("/usr/include/linux/pps.h", R_OK) == 0 }

    let library: String
    let edges: String

    /// Builds the library into `directory`; the edges go to DIR/edges.
    init(in directory: String) async throws {
        library = directory + "/libppsstandin.so"
        edges = directory + "/edges"
        let built = try await runTool("/usr/bin/cc", ["-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Werror", "-o", library, Self.source, "-ldl", "-lpthread"],
                                      within: .seconds(60))
        guard built.status == 0 else { throw SpawnError(description: "cc failed: \(built.err)") }
    }

    /// Assert edges, one a second from the next whole second of the system clock for `count`
    /// seconds, `phase` nanoseconds after each second; `skip` leaves the given seconds (offsets
    /// from the first) without a pulse, `double` adds a second edge `doubleAfter` after them.
    /// Returns the first edge's whole second.
    @discardableResult
    func writeEdges(count: Int, phase nanoseconds: Int, skip: Set<Int> = [], double: Set<Int> = [],
                    doubleAfter: Int = 300_000_000) throws -> Int64 {
        let first = Int64(Date().timeIntervalSince1970.rounded(.down)) + 1
        var lines: [String] = []
        for index in 0..<count where !skip.contains(index) {
            lines.append(Self.time(first + Int64(index), nanoseconds))
            if double.contains(index) { lines.append(Self.time(first + Int64(index), nanoseconds + doubleAfter)) }
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: edges, atomically: true, encoding: .utf8)
        return first
    }

    private static func time(_ seconds: Int64, _ nanoseconds: Int) -> String {
        String(format: "%lld.%09d", seconds + Int64(nanoseconds / 1_000_000_000), nanoseconds % 1_000_000_000)
    }

    /// gpsfix's environment: the stand-in preloaded, `device` answered as a kernel PPS device,
    /// `modem` (dcd, cts, ri) carrying the pulse on every tty.
    func environment(device: String? = nil, modem: String? = nil, extra: [String: String] = [:]) -> [String: String] {
        var environment = ["LD_PRELOAD": library, "GPSFIX_STANDIN_EDGES": edges]
        if let device { environment["GPSFIX_STANDIN_PPS"] = device }
        if let modem { environment["GPSFIX_STANDIN_MODEM"] = modem }
        return environment.merging(extra) { $1 }
    }
}
