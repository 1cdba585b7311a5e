import GPSLocation
import GPSServer
import Synchronization

/// The fleet's publishers as the server's devices: an index each, made the first time one is
/// heard from. A vehicle forgotten (offline or silent too long) gives its index back, and the
/// next new vehicle takes it under its own name, so the server never has more devices than
/// the fleet's cap of vehicles known at once. Used on the MQTT client's thread; its state
/// behind a lock all the same.
final class FleetDevices: Sendable {
    private let server: GpsdServer
    /// A fleet read without wildcards is one publisher: its device is named by the prefix.
    private let fallback: String
    private struct State {
        var indices: [String: Int] = [:]
        /// Devices of vehicles forgotten, gone from DEVICES, for the next new vehicle.
        var free: [Int] = []
    }
    private let state = Mutex(State())

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
            let index: Int
            if let reused = s.free.popLast() {
                server.renameDevice(reused, to: name)
                index = reused
            } else {
                index = server.addDevice(DeviceDescription(path: name, driver: "MQTT"))
            }
            s.indices[name] = index
            return index
        }
    }

    /// `vehicle` was forgotten by the reader: its device (already gone from DEVICES) is free.
    func forget(_ vehicle: String) {
        state.withLock { s in
            if let index = s.indices.removeValue(forKey: vehicle) { s.free.append(index) }
        }
    }

    /// Devices made so far, in use or free: at most the cap of vehicles.
    var count: Int { state.withLock { $0.indices.count + $0.free.count } }
}
