import Glibc
import GPSLocation
import GPSSources
import NMEA

// Usage: ReplayFixes CAPTURE
let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    print("usage: ReplayFixes CAPTURE")
    exit(64)
}
let service = LocationService(manager: ReplayManager(path: arguments[1], speed: .maximum))
var count = 0
do {
    // positions() starts the replay when the loop begins, yields only fixes with a position,
    // and throws the replay's failure (a missing file, not a capture).
    for try await fix in service.positions() {
        count += 1
        let coordinate = fix.coordinate!
        let time = fix.timestamp.map { "\($0.time.hour):\($0.time.minute):\($0.time.second) " } ?? ""
        print("\(time)\(coordinate.latitude) \(coordinate.longitude)")
    }
} catch {
    print("ReplayFixes: \(error)")
    exit(1)
}
print("\(count) fixes")
