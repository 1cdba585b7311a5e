import Synchronization
import Testing
import GPSTestSupport
import GPSSystem

@Suite("spawnThread names its thread, as top -H and gdb show it")
struct ThreadNameTests {
    @Test("The body runs under the name it was given", arguments: ["gpsfix-serial", "gpsfix-mqtt"])
    func named(name: String) async throws {
        let seen = Mutex<String?>(nil)
        spawnThread(name: name) { seen.withLock { $0 = ThreadName.current } }
        #expect(await waitUntil(.seconds(5)) { seen.withLock { $0 } != nil })
        #expect(seen.withLock { $0 } == name)
    }

    @Test("A longer name is cut at the kernel's 15 bytes, never inside a character")
    func cut() async throws {
        #expect(ThreadName.kernelName("gpsfix-serial-ttyUSB0") == "gpsfix-serial-t")
        #expect(ThreadName.kernelName("gpsfix-serial-ö") == "gpsfix-serial-", "a 2-byte ö is not split at byte 15")
        #expect(ThreadName.kernelName("short") == "short")
        let seen = Mutex<String?>(nil)
        spawnThread(name: "gpsfix-serial-ttyUSB0") { seen.withLock { $0 = ThreadName.current } }
        #expect(await waitUntil(.seconds(5)) { seen.withLock { $0 } != nil })
        #expect(seen.withLock { $0 } == "gpsfix-serial-t")
    }
}

@Suite("CalendarTime: an instant in the calendar's fields")
struct CalendarTimeTests {
    @Test("UTC fields, ISO 8601 and strftime's %F %T", arguments: [
        (0.0, "1970-01-01T00:00:00Z", "1970-01-01 00:00:00"),
        (1_796_022_600.9, "2026-11-30T07:10:00Z", "2026-11-30 07:10:00"),
        (951_782_400, "2000-02-29T00:00:00Z", "2000-02-29 00:00:00"),
    ] as [(Double, String, String)])
    func utc(seconds: Double, iso: String, stamp: String) {
        let time = CalendarTime.utc(seconds)
        #expect(time.iso8601UTC == iso)
        #expect(time.dateAndTime == stamp)
    }
}
