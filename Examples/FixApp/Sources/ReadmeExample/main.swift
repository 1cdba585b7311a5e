import GPSLocation
import GPSSources
import NMEA

let service = LocationService(manager: ReplayManager(path: "Captures/cold-start.nmea", speed: .factor(10)))
let fix = try await service.currentFix(timeout: .seconds(5))
print(fix.coordinate!, fix.altitude ?? .nan)
for try await fix in service.positions() {
    print(fix.coordinate!, fix.timestamp.map { "\($0.time)" } ?? "no time yet")
}
