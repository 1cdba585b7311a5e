import GPSSystem
import GPSTestSupport
import Glibc
import Testing

/// sd_notify's protocol, received by a datagram socket the test binds, as systemd binds its own.
@Suite("ServiceNotifier")
struct ServiceNotifierTests {
    @Test("Messages reach a socket at a path as one datagram of KEY=VALUE lines, in order")
    func path() throws {
        // Given
        let dir = try TemporaryDirectory()
        let manager = try NotifyListener(address: dir.path + "/notify")
        let notifier = try ServiceNotifier(address: manager.address)

        // When
        try notifier.send(.ready, .status("/dev/ttyACM0: 3D fix, 9 satellites used"))
        try notifier.send(.watchdog)
        try notifier.send(.stopping)

        // Then
        #expect(manager.waitFor { $0 == "STOPPING=1" })
        #expect(manager.messages == ["READY=1\nSTATUS=/dev/ttyACM0: 3D fix, 9 satellites used", "WATCHDOG=1", "STOPPING=1"])
    }

    @Test("An abstract name ('@…') reaches a socket bound in the abstract namespace")
    func abstract() throws {
        let manager = try NotifyListener(address: "@gpsfix-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let notifier = try ServiceNotifier(address: manager.address)

        try notifier.send(.ready)

        #expect(manager.waitFor { $0 == "READY=1" })
    }

    @Test("A newline in a status cannot start another assignment")
    func newlineInStatus() throws {
        let dir = try TemporaryDirectory()
        let manager = try NotifyListener(address: dir.path + "/notify")
        let notifier = try ServiceNotifier(address: manager.address)

        try notifier.send(.status("gone\nREADY=1"))

        #expect(manager.waitFor { $0.hasPrefix("STATUS=") })
        #expect(manager.lines == ["STATUS=gone READY=1"])
    }

    @Test("Nobody listening is an error the caller can log, not a hang")
    func nobodyListening() throws {
        let dir = try TemporaryDirectory()
        let notifier = try ServiceNotifier(address: dir.path + "/nobody")
        #expect(throws: SystemError.noSuchFile) { try notifier.send(.ready) }
    }

    @Test("Addresses that are not a path or an abstract name, or are too long, are refused")
    func refused() {
        #expect(throws: ServiceNotifierError.unsupportedAddress("vsock:2:1234")) { try ServiceNotifier(address: "vsock:2:1234") }
        let long = "/" + String(repeating: "d", count: 120)
        #expect(throws: ServiceNotifierError.addressTooLong(long)) { try ServiceNotifier(address: long) }
    }

    @Test("The watchdog is half of WATCHDOG_USEC, for this process or for any when WATCHDOG_PID is unset")
    func watchdog() throws {
        #expect(try ServiceNotifier.watchdog(usec: "30000000", pid: nil, processID: 7) == 30_000_000)
        #expect(try ServiceNotifier.watchdog(usec: "30000000", pid: "7", processID: 7) == 30_000_000)
        #expect(try ServiceNotifier.watchdog(usec: "30000000", pid: "8", processID: 7) == nil)
        #expect(try ServiceNotifier.watchdog(usec: nil, pid: "7", processID: 7) == nil)
        #expect(throws: ServiceNotifierError.malformed(variable: "WATCHDOG_USEC", value: "0")) {
            try ServiceNotifier.watchdog(usec: "0", pid: nil, processID: 7)
        }
        let dir = try TemporaryDirectory()
        #expect(try ServiceNotifier(address: dir.path + "/n", watchdogMicroseconds: 30_000_000).watchdogInterval == .seconds(15))
        #expect(try ServiceNotifier(address: dir.path + "/n").watchdogInterval == nil)
    }
}
