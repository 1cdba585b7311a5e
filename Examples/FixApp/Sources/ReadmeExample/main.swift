import GPSLocation
import GPSSources
import NMEA

let service = LocationService(manager: ReplayManager(path: "Captures/cold-start.nmea", speed: .factor(10)))
let fix = try await service.currentFix(timeout: .seconds(5))
print(fix)      // Fix(40.0152217, -105.2707167, 0.16 m/s, 2D, 2024-11-05T17:41:13Z)
for try await fix in service.positions() {
    print(fix.coordinate!, fix.timestamp.map { "\($0)" } ?? "no time yet")
}
