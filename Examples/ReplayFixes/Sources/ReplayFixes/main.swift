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
// Subscribed before the start, so that no fix goes by before the loop is listening.
let fixes = service.fixes()
service.start()
var count = 0
for await fix in fixes where fix.hasFix {
    count += 1
    if let coordinate = fix.coordinate, let time = fix.timestamp?.time {
        print("\(time.hour):\(time.minute):\(time.second) \(coordinate.latitude) \(coordinate.longitude)")
    }
}
print("\(count) fixes")
