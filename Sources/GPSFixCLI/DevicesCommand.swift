import Dispatch
import GPSLocation
import GPSSources
import Synchronization

/// `gpsfix devices`: the candidates discovery finds, what sysfs says of them, and whether
/// each answers with NMEA (listening briefly, never writing to it).
struct DevicesCommand {
    let args: ParsedArguments
    let terminal: Terminal

    func run() throws -> Int32 {
        let candidates = DeviceDiscovery.candidates()
        guard !candidates.isEmpty else {
            throw LocationError.deviceNotFound(searched: DeviceDiscovery.searchedLocations())
        }
        var text = ""
        for device in candidates {
            var facts: [String] = []
            if let byID = device.byID, byID != device.path { facts.append("by-id " + byID) }
            if device.resolvedPath != device.path { facts.append("→ " + device.resolvedPath) }
            if let id = device.usbID { facts.append("USB " + id) }
            if let driver = device.driver { facts.append("driver " + driver) }
            if let known = device.knownGPS { facts.append(known.name) }
            if !args.has("--no-probe") { facts.append(Self.probe(device.path)) }
            text += device.path + "  " + facts.joined(separator: ", ") + "\n"
        }
        terminal.print(text)
        return 0
    }

    /// Listens for up to three seconds: "NMEA" when a sentence with a good checksum arrives.
    static func probe(_ path: String) -> String {
        let manager = SerialNMEAManager(path: path, options: .init(reconnect: false, forwardsSentences: true))
        let service = LocationService(manager: manager)
        let answer = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        service.subscribe { event in
            let verdict: String?
            switch event {
            case .sentence: verdict = "answers with NMEA" + (manager.baudRate.map { " at \($0) baud" } ?? "")
            case .error(let error): verdict = "cannot be read: \(error)"
            case .status(.finished), .status(.stopped): verdict = "no NMEA"
            default: verdict = nil
            }
            if let verdict, answer.withLock({ a in defer { a = a ?? verdict }; return a == nil }) { done.signal() }
        }
        _ = withExtendedLifetime(service) { done.wait(timeout: .now() + 3) }
        service.stop()
        return answer.withLock { $0 } ?? "no NMEA within 3 s"
    }
}
