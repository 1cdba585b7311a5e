public import GPSLocation
import GPSMQTT
public import GPSServer
import GPSSources
public import NMEA

/// The five jobs an app does with gpsfix, each in a few lines of its public API.
public enum Jobs {
    /// Replays a capture as fast as it can be read, and returns every position in it.
    ///
    /// A stream keeps only the newest `bufferLimit` positions its consumer has not taken; a file
    /// read at full speed outruns any consumer, so this one takes them all (a file's worth).
    public static func positions(inCapture path: String) async throws(LocationError) -> [Fix] {
        let service = LocationService(manager: ReplayManager(path: path, speed: .maximum))
        var fixes: [Fix] = []
        for try await fix in service.positions(bufferLimit: .max) {
            fixes.append(fix)
        }
        return fixes
    }

    /// Reads a receiver on a serial port (or a pseudo-terminal) until its first whole fix.
    public static func firstFix(onPort path: String, timeout: Duration) async throws(LocationError) -> Fix {
        let service = LocationService(manager: SerialNMEAManager(path: path))
        return try await service.currentFix(timeout: timeout)
    }

    /// The fixes in bytes the app already has (a file, a Bluetooth characteristic's value),
    /// parsed without a source or a thread.
    public static func fixes(parsing bytes: [UInt8]) -> [Fix] {
        NMEAParser.events(of: bytes).compactMap { event in
            if case .fix(let fix) = event { fix } else { nil }
        }
    }

    /// Serves gpsd's protocol from `manager` on `address` until the task is cancelled; `ready`
    /// is told the address bound (a port of 0 is chosen by the system).
    public static func serve(_ manager: any LocationManagerInterface, on address: ListenAddress,
                             ready: @Sendable (ListenAddress) -> Void) async throws {
        let server = try GpsdServer(configuration: .init(address: address, release: "fixapp 1.0"),
                                    device: .init(path: manager.sourceDescription)) { _ in }
        ready(server.address)
        try await server.run(serving: [LocationService(manager: manager)])
    }

    /// Publishes `manager`'s fixes as gpsd's reports under `url`'s topic prefix (e.g.
    /// `mqtt://broker.local/van7`) until the source ends or the task is cancelled.
    public static func publish(_ manager: any LocationManagerInterface, to url: String) async throws {
        let address = try MQTTAddress(parsing: url)
        let publisher = MQTTPublisher(settings: MQTTSettings(address: address, clientID: "fixapp"),
                                      options: .init(topics: MQTTTopics(prefix: address.prefix),
                                                     source: manager.sourceDescription)) { _ in }
        try await LocationRelay(LocationService(manager: manager), feeds: [publisher]).run()
    }
}
