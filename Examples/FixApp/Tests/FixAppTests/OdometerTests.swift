import FixApp
import GPSLocation
import GPSLocationTesting
import NMEA
import Testing

/// The app's own logic, tested as the seeds test theirs: a scripted manager in place of the
/// receiver, through the same `LocationService` the app uses.
@Suite("Odometer, driven by a script")
struct OdometerTests {
    private func fix(_ latitude: Double, _ longitude: Double) -> Fix {
        Fix(coordinate: .init(latitude: latitude, longitude: longitude), altitude: 10)
    }

    @Test("A trip sums its legs: a thousandth of a degree of latitude is about 111 m")
    func sumsLegs() async throws {
        let manager = ScriptedLocationManager(fixes: [fix(52.000, 4.0), fix(52.001, 4.0), fix(52.002, 4.0)])
        let odometer = try await Odometer.trip(LocationService(manager: manager))
        #expect(odometer.positions == 3)
        #expect(abs(odometer.meters - 222.4) < 0.5, "\(odometer.meters)")
        #expect(manager.startCount == 1)
    }

    @Test("An epoch without a position adds nothing (a cold start's first seconds)")
    func skipsEmptyEpochs() async throws {
        let manager = ScriptedLocationManager([.status(.started), .fix(Fix()), .fix(fix(0, 0)), .fix(Fix()), .fix(fix(0, 0.001)), .end])
        let odometer = try await Odometer.trip(LocationService(manager: manager))
        #expect(odometer.positions == 2)
        #expect(abs(odometer.meters - 111.2) < 0.5, "\(odometer.meters)")
    }

    @Test("A receiver that goes away mid-trip is thrown as the LocationError the source reported")
    func failureIsThrown() async throws {
        let manager = ScriptedLocationManager([.fix(fix(1, 1)), .failure(.deviceGone(path: "/dev/ttyACM0"))])
        await #expect(throws: LocationError.deviceGone(path: "/dev/ttyACM0")) {
            _ = try await Odometer.trip(LocationService(manager: manager))
        }
        #expect(LocationError.deviceGone(path: "/dev/ttyACM0").localizedDescription.contains("/dev/ttyACM0"))
    }

    @Test("Leaving the trip early (a cancelled task) stops the receiver")
    func cancellingStopsTheSource() async throws {
        let manager = ScriptedLocationManager([.fix(fix(1, 1)), .pause(.seconds(30)), .end])
        let trip = Task { try await Odometer.trip(LocationService(manager: manager)) }
        // The trip has the first position and waits in the pause for more.
        for _ in 0..<500 where manager.stepsDelivered < 1 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(manager.isRunning)
        trip.cancel()
        _ = await trip.result
        #expect(manager.stopCount == 1)
        #expect(!manager.isRunning)
    }
}
