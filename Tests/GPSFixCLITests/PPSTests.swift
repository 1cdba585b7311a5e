import Foundation
import GPSTestSupport
import Glibc
import Testing

/// `serve --pps` against a real chronyd: a kernel PPS device stood in for by a preloaded
/// library whose edges come a known phase after the system clock's seconds, and a receiver
/// on a TCP port whose epochs name those seconds, written 100 ms after them.
///
/// The sign, as in `ChronyTests`: chronyc shows the system clock's offset from the source,
/// positive when the system clock is ahead. A second that begins at system time T + phase
/// says the system clock is ahead by the phase.
@Suite("gpsfix serve's pulses for chronyd", .serialized, .timeLimit(.minutes(3)),
       .enabled(if: ChronyDaemon.isAvailable && ServeTools.has(ServeTools.python) && GPSFixBinary.isAvailable && PPSStandIn.isAvailable,
                "skipped: needs chronyd and chronyc (apt-get install chrony), python3, cc and the built gpsfix"))
struct PPSTests {
    @Test("chronyd's PPS refclocks (SOCK, pulse set, locked to the NMEA; SHM on the next unit) see the injected phase within 10 µs")
    func kernelPulsesToChrony() async throws {
        let directory = try TemporaryDirectory()
        let standIn = try await PPSStandIn(in: directory.path)
        let phase = 250_000 // ns: the system clock is 250 µs ahead of the pulses
        try standIn.writeEdges(count: 120, phase: phase)
        let unit = ChronyDaemon.freeUnit(pair: true)
        let chronyd = try await ChronyDaemon(in: directory.path, unit: unit, extra: [
            "refclock SOCK \(directory.path)/pps.sock refid PPS poll 1 filter 1 lock GPS noselect",
            "refclock SHM \(unit + 1) refid SPPS poll 0 noselect",
        ])
        defer { chronyd.stop() }
        let receiver = try await TimedNMEAServer(late: 0.1)
        defer { receiver.stop() }

        let serve = try await ServeProcess(["--nmea-tcp", "127.0.0.1:\(receiver.port)", "--chrony-sock", chronyd.socketPath,
                                            "--ntp-shm", "\(unit)", "--pps", "/dev/pps0", "--chrony-pps-sock", directory.path + "/pps.sock"],
                                           environment: standIn.environment(device: "/dev/pps0"))
        defer { _ = serve.process.isRunning ? kill(serve.pid, SIGKILL) : 0 }

        let sources = try await chronyd.heard(["GPS", "PPS", "SPPS"], within: .seconds(40))
        print("chronyc sources: \(sources)")
        for name in ["PPS", "SPPS"] {
            let source = try #require(sources.first { $0.name == name }, "\(sources); gpsfix: \(serve.stderr)")
            #expect(source.reach & 3 == 3, "\(name) not heard in two polls: \(sources); gpsfix: \(serve.stderr)")
            #expect(abs(source.offset - Double(phase) / 1e9) < 10e-6, "\(name): \(source.offset) s, expected \(Double(phase) / 1e9): \(sources)")
        }
        let gps = try #require(sources.first { $0.name == "GPS" })
        #expect(abs(gps.offset - 0.1) < 0.05, "\(sources)")
        #expect(serve.stderr.contains("pairing /dev/pps0's pulses with 127.0.0.1:\(receiver.port)'s NMEA"), "\(serve.stderr)")
        #expect(serve.stderr.contains("gpsfix: chrony: sending /dev/pps0's pulses to \(directory.path)/pps.sock"), "\(serve.stderr)")
        #expect(await serve.stop() == 0)
    }
}
