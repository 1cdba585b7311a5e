import Dispatch
import GPSSystem
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
        // Ctrl-C or SIGTERM ends the probe in hand, which lets its port go, and the listing
        // with it: a process killed mid-probe would leave a pty exclusive.
        let probing = Probing()
        let interrupts = Interrupts { number in probing.interrupt(number) }
        var text = ""
        for device in candidates where probing.signal == 0 {
            var facts: [String] = []
            if let byID = device.byID, byID != device.path { facts.append("by-id " + byID) }
            if device.resolvedPath != device.path { facts.append("→ " + device.resolvedPath) }
            if let id = device.usbID { facts.append("USB " + id) }
            if let driver = device.driver { facts.append("driver " + driver) }
            if let known = device.knownGPS { facts.append(known.name) }
            if !args.has("--no-probe") {
                let verdict = Self.probe(device.path, probing: probing)
                facts.append(probing.signal == 0 ? verdict : "not probed (interrupted)")
            }
            text += device.path + "  " + facts.joined(separator: ", ") + "\n"
        }
        interrupts.cancel()
        terminal.print(text)
        // As a shell reports a command a signal ended: 128 + its number.
        return probing.signal == 0 ? 0 : 128 + probing.signal
    }

    /// Listens for up to three seconds: "NMEA" when a sentence with a good checksum arrives;
    /// otherwise what did arrive.
    static func probe(_ path: String, probing: Probing) -> String {
        let manager = SerialNMEAManager(path: path, options: .init(reconnect: false, forwardsSentences: true))
        let service = LocationService(manager: manager)
        guard probing.begin(service) else { return "" }
        defer { probing.end() }
        let answer = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        service.subscribe { event in
            let verdict: String?
            switch event {
            case .sentence: verdict = "answers with NMEA" + (manager.baudRate.map { " at \($0) baud" } ?? "")
            case .error(let error): verdict = "cannot be read: " + Advice.message(for: error)
            default: verdict = nil
            }
            if let verdict, answer.withLock({ a in defer { a = a ?? verdict }; return a == nil }) { done.signal() }
            // Stopped (by a signal): no verdict, and no more waiting.
            if event.isTerminal { done.signal() }
        }
        _ = withExtendedLifetime(service) { done.wait(timeout: .now() + 3) }
        let heard = manager.reception
        service.stop()
        return answer.withLock { $0 } ?? silence(heard)
    }

    /// What a port that gave no NMEA in three seconds did give.
    private static func silence(_ heard: Reception?) -> String {
        guard let heard, heard.bytes > 0 else { return "nothing received in 3 s" }
        return "\(heard.bytes) bytes in 3 s, but no NMEA" + (heard.baud.map { " at \($0) baud" } ?? "")
    }
}

/// The probe in hand, and the signal that ended the listing, if one did; shared with the
/// signal thread.
final class Probing: Sendable {
    private let state = Mutex<(service: LocationService?, signal: Int32)>((nil, 0))

    var signal: Int32 { state.withLock { $0.signal } }

    /// Stops the probe in hand, if any, and every probe after it.
    func interrupt(_ number: Int32) {
        let service = state.withLock { state -> LocationService? in
            state.signal = number
            return state.service
        }
        service?.stop()
    }

    /// Makes `service` the probe in hand; false when a signal came first.
    func begin(_ service: LocationService) -> Bool {
        state.withLock { state in
            guard state.signal == 0 else { return false }
            state.service = service
            return true
        }
    }

    func end() { state.withLock { $0.service = nil } }
}
