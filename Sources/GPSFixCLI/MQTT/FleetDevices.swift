import GPSLocation
import GPSServer
import Synchronization

/// The fleet's publishers as the server's devices: an index each, made the first time one is
/// heard from. Used on the MQTT client's thread; its state behind a lock all the same, as the
/// failure is read after the server's loop ends.
final class FleetDevices: Sendable {
    private let server: GpsdServer
    /// A fleet read without wildcards is one publisher: its device is named by the prefix.
    private let fallback: String
    private let state = Mutex<(indices: [String: Int], failure: LocationError?)>(([:], nil))

    init(server: GpsdServer, fallback: String) {
        self.server = server
        self.fallback = fallback
    }

    /// The device of `vehicle` (nil: the prefix's one publisher); made when `creating`, else
    /// nil for a vehicle not seen yet (news of one never heard from is no device's).
    func index(of vehicle: String?, creating: Bool) -> Int? {
        let name = vehicle ?? fallback
        return state.withLock { s in
            if let index = s.indices[name] { return index }
            guard creating else { return nil }
            let index = server.addDevice(DeviceDescription(path: name, driver: "MQTT"))
            s.indices[name] = index
            return index
        }
    }

    func fail(_ error: LocationError) { state.withLock { $0.failure = $0.failure ?? error } }

    var failure: LocationError? { state.withLock { $0.failure } }
}
