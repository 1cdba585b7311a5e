import Glibc
import GPSLocation
import GPSSources
import NMEA
import Synchronization

// Usage:
//   stream-consumer memory CAPTURE SECONDS [LIMIT]   a consumer taking 1 ms per fix, on a
//       looping replay at full speed; RSS once a second (LIMIT: the stream's bufferLimit,
//       0 for one too large to matter, as an unbounded buffer was)
//   stream-consumer cancel CAPTURE ROUNDS            how soon a cancelled task, or a loop left
//       with break, stops a looping replay at full speed
let arguments = CommandLine.arguments
guard arguments.count >= 4, let number = Int(arguments[3]) else {
    print("usage: stream-consumer memory CAPTURE SECONDS [LIMIT] | cancel CAPTURE ROUNDS")
    exit(64)
}
let capture = arguments[2]

switch arguments[1] {
case "memory":
    let limit = arguments.count > 4 ? Int(arguments[4]) ?? LocationService.defaultBufferLimit : LocationService.defaultBufferLimit
    await memory(capture, seconds: number, limit: limit == 0 ? Int.max : limit)
case "cancel":
    for round in 1...number { await cancellation(capture, round: round) }
default:
    print("unknown probe \(arguments[1])")
    exit(64)
}

func memory(_ capture: String, seconds: Int, limit: Int) async {
    let service = LocationService(manager: ReplayManager(path: capture, speed: .maximum, loop: true))
    let positions = service.positions(bufferLimit: limit)
    let taken = Atomic<Int>(0)
    let consumer = Task {
        do throws(LocationError) {
            for try await _ in positions {
                taken.add(1, ordering: .relaxed)
                try? await Task.sleep(for: .milliseconds(1))
            }
        } catch {
            print("stream failed: \(error)")
        }
    }
    let first = residentKiB()
    var peak = first
    print("limit \(limit == Int.max ? "unbounded" : String(limit)): RSS at start \(first) KiB")
    for second in 1...seconds {
        try? await Task.sleep(for: .seconds(1))
        let now = residentKiB()
        peak = max(peak, now)
        print("  \(second) s: RSS \(now) KiB, \(taken.load(ordering: .relaxed)) fixes taken, \(positions.dropped) dropped")
    }
    consumer.cancel()
    await consumer.value
    print("memory: RSS \(first) KiB at start, peak \(peak) KiB (+\(peak - first) KiB) over \(seconds) s; \(taken.load(ordering: .relaxed)) taken, \(positions.dropped) dropped")
}

func cancellation(_ capture: String, round: Int) async {
    // Cancelling the task that iterates.
    let watched = Watched(ReplayManager(path: capture, speed: .maximum, loop: true))
    let service = LocationService(manager: watched)
    let consumer = Task {
        do throws(LocationError) {
            for try await _ in service.positions() {}
        } catch {}
    }
    try? await Task.sleep(for: .milliseconds(300))
    let cancelledAt = Watched.now()
    consumer.cancel()
    await consumer.value
    try? await Task.sleep(for: .milliseconds(300))
    watched.report("cancel", round: round, from: cancelledAt)

    // Leaving the loop with break.
    let left = Watched(ReplayManager(path: capture, speed: .maximum, loop: true))
    let other = LocationService(manager: left)
    var fixes = 0
    var breakAt: UInt64 = 0
    do throws(LocationError) {
        for try await _ in other.positions() {
            fixes += 1
            if fixes == 2000 {
                breakAt = Watched.now()
                break
            }
        }
    } catch {}
    try? await Task.sleep(for: .milliseconds(300))
    left.report("break", round: round, from: breakAt)
}

/// A replay seen from outside: when it was told to stop, and when it last reported.
final class Watched: LocationManagerInterface, LocationManagerDelegate {
    private let inner: ReplayManager
    private let relay = DelegateRelay()
    private let stoppedAt = Atomic<UInt64>(0)
    private let lastEventAt = Atomic<UInt64>(0)
    private let events = Atomic<Int>(0)

    init(_ inner: ReplayManager) {
        self.inner = inner
        inner.delegate = self
    }

    static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    func report(_ how: String, round: Int, from start: UInt64) {
        let stop = stoppedAt.load(ordering: .acquiring)
        let last = lastEventAt.load(ordering: .acquiring)
        func ms(_ t: UInt64) -> String {
            guard t != 0 else { return "never" }
            let microseconds = (Int64(t) - Int64(start)) / 1000
            return "\(Double(microseconds) / 1000) ms"
        }
        print("\(how) round \(round): stopUpdatingLocation \(ms(stop)) after, the source's last event \(ms(last)) after (\(events.load(ordering: .relaxed)) events)")
    }

    var delegate: (any LocationManagerDelegate)? {
        get { relay.delegate }
        set { relay.delegate = newValue }
    }

    var sourceDescription: String { inner.sourceDescription }
    func startUpdatingLocation() { inner.startUpdatingLocation() }

    func stopUpdatingLocation() {
        stoppedAt.store(Self.now(), ordering: .releasing)
        inner.stopUpdatingLocation()
    }

    private func heard() {
        events.add(1, ordering: .relaxed)
        lastEventAt.store(Self.now(), ordering: .releasing)
    }

    func locationManager(_ manager: any LocationManagerInterface, didUpdateFix fix: Fix) {
        heard()
        relay.delegate?.locationManager(self, didUpdateFix: fix)
    }

    func locationManager(_ manager: any LocationManagerInterface, didUpdateSkyView sky: SkyView) {
        heard()
        relay.delegate?.locationManager(self, didUpdateSkyView: sky)
    }

    func locationManager(_ manager: any LocationManagerInterface, didChangeStatus status: SourceStatus) {
        heard()
        relay.delegate?.locationManager(self, didChangeStatus: status)
    }

    func locationManager(_ manager: any LocationManagerInterface, didFailWithError error: LocationError) {
        heard()
        relay.delegate?.locationManager(self, didFailWithError: error)
    }
}

/// This process's resident set, from /proc/self/status.
func residentKiB() -> Int {
    guard let file = fopen("/proc/self/status", "r") else { return -1 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("VmRSS:") {
            return Int(text.split(separator: " ").dropFirst().first ?? "") ?? -1
        }
    }
    return -1
}
