public import GPSLocation
import Dispatch
import GPSSystem
import Synchronization

extension GpsdServer {
    /// This server as a feed of a `LocationRelay`: each source is the device of its index
    /// (make the server with one device per source), and the server's loop runs on a thread
    /// of its own from the feed's start to its stop. `heartbeat` is called from that loop.
    public func feed(heartbeat: Heartbeat? = nil) -> GpsdFeed {
        GpsdFeed(server: self, heartbeat: heartbeat)
    }
}

/// A `GpsdServer` fed by a relay's sources (see `GpsdServer.feed(heartbeat:)`): gpsd's
/// clients, and NMEA's over TCP and UDP when the server's configuration names them. It
/// outlives its sources: a finished capture's last fix is still served until the relay is
/// stopped. A `stop()` of the server itself (by the app) ends the relay.
public final class GpsdFeed: LocationFeed {
    /// The server the events go to.
    public let server: GpsdServer
    private let heartbeat: Heartbeat?
    private let loopEnded = DispatchSemaphore(value: 0)
    private let state = Mutex<(started: Bool, stopping: Bool)>((false, false))
    // `stopping` is set once; only the first `stop()` waits for the loop's end.

    init(server: GpsdServer, heartbeat: Heartbeat?) {
        self.server = server
        self.heartbeat = heartbeat
    }

    /// Starts the server's loop on its own thread (`gpsfix-server`).
    public func start(_ sources: [RelaySource], control: FeedControl) throws(FeedFailure) {
        let first = state.withLock { s -> Bool in
            defer { s.started = true }
            return !s.started
        }
        precondition(first, "a server's loop runs once")
        // The page and the metrics read each source's counts when asked.
        if server.httpListener != nil {
            for source in sources {
                let manager = source.manager
                server.setStatistics(device: source.index) { manager.statistics }
            }
        }
        let heartbeat = heartbeat
        spawnThread(name: "gpsfix-server") { [self] in
            server.run(heartbeat: heartbeat)
            let asked = state.withLock { $0.stopping }
            loopEnded.signal()
            // Stopped by someone else than the relay: serving is over.
            if !asked { control.finish() }
        }
    }

    /// Publishes `event` as device `source.index`; its rate and name as they become known.
    public func take(_ event: LocationEvent, from source: RelaySource) {
        let device = source.index
        if case .sentence = event {
            // A device is in service from its first sentence, as gpsd lists one from its open:
            // a client that asks before the first fix is not told there is none.
            if server.takesSentences { server.publish(event, device: device) } else { server.activate(device: device) }
            return
        }
        // The rate is known once the source has settled it, which may be well after it
        // opened (autobaud): DEVICE says it from then on.
        if let baud = source.manager.reception?.baud { server.setDeviceRate(baud, device: device) }
        // A receiver found only once plugged in is named when it opens.
        if case .status(.started) = event { server.renameDevice(device, to: source.name) }
        server.publish(event, device: device)
    }

    /// Stops the loop (clients are sent what is queued, as far as they take it at once, and
    /// closed) and waits for its end.
    public func stop() {
        let mustWait = state.withLock { s -> Bool in
            defer { s.stopping = true }
            return s.started && !s.stopping
        }
        server.stop()
        if mustWait { loopEnded.wait() }
    }

    /// A finished source's last fix is still served.
    public var outlivesSources: Bool { true }
}
