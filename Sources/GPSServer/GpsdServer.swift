public import GPSSystem
public import GPSLocation
import GPSOutput
import Synchronization

/// A server for gpsd's JSON protocol, fed by one source or several (each a device of its own,
/// as gpsd serves several receivers): what gpspipe, cgps, libgps programs and Python's `gps`
/// module read from gpsd, they read from here.
///
/// `publish` is called on the source's thread; it formats each report once and writes it to
/// every client that watches, there and then, as gpsd does: no thread switch between the
/// epoch's last byte and its TPV on the wire. The server's loop, on the thread that calls
/// `run()`, accepts, answers requests and writes whatever a socket could not take at once.
/// A slow client never holds up the source or the other clients: every write is
/// non-blocking, and what waits is held in the client's bounded queue.
/// The same loop serves the bare sentences too, when the configuration names an NMEA port
/// or a datagram address, for programs that read NMEA rather than gpsd's protocol.
public final class GpsdServer: Sendable {
    /// What it was made with: addresses, limits (clients, queues, requests, replies), the
    /// release it reports, and the NMEA port or datagram address if any.
    public let configuration: ServerConfiguration
    /// Where it listens, with the real port when port 0 was asked for: one address when it
    /// binds its own, each one handed over otherwise.
    public let addresses: [ListenAddress]
    /// The addresses that other machines can reach (not 127.0.0.0/8 or ::1).
    public let exposed: [ListenAddress]
    /// Whether only this machine can connect, on every address.
    public var isLoopback: Bool { exposed.isEmpty }
    /// Where bare NMEA is served (the real port when 0 was asked for), and whether only this
    /// machine can connect there; nil when not asked for.
    public let nmeaAddress: ListenAddress?
    /// Whether only this machine can connect to ``nmeaAddress`` (127.0.0.0/8 or ::1); true
    /// when there is none.
    public let nmeaIsLoopback: Bool
    let log: @Sendable (String) -> Void
    /// Holds the log lines clients cause to a rate, with counts.
    let throttle: LogThrottle
    let listeners: [TCPListener]
    let nmeaListener: TCPListener?
    /// Where the web page is served, when it is.
    let httpListener: TCPListener?
    /// Where the web page is served (the real port when 0 was asked for); nil when not asked for.
    public var httpAddress: ListenAddress? { httpListener?.address }
    /// Whether only this machine can reach the web page (127.0.0.0/8 or ::1); true when there is none.
    public var httpIsLoopback: Bool { httpListener?.isLoopback ?? true }
    let datagrams: DatagramSender?
    /// Wakes the loop from `poll` when the source has news or `stop` is called.
    let wake: Wakeup
    let shared: Mutex<Shared>
    /// Whether a client takes the sentences themselves (an NMEA client, a watch with `nmea`),
    /// as of the loop's last turn; read without a lock for every sentence of the source.
    let sentencesWatched = Atomic<Bool>(false)

    /// Whether anyone takes the sentences themselves: when nobody does, a sentence is not
    /// formatted or offered at all (when it was queued for the loop, the epoch's first
    /// sentence woke the loop mid-epoch, and the TPV often waited for a second wake).
    var takesSentences: Bool { datagrams != nil || sentencesWatched.load(ordering: .relaxed) }

    /// What one device's source has made known.
    struct DeviceState {
        /// What DEVICE and DEVICES say: its rate can become known (autobaud) after the start,
        /// and its path (a receiver found by discovery once it is plugged in).
        var description: DeviceDescription
        /// The `"device"` member of its reports, escaped once.
        var tag: GPSDJSON.Device
        /// When the device was (re)activated; nil while it is gone.
        var activated: Double?
        /// Its DEVICE object in DEVICES (no line end), encoded when it changes; nil while
        /// it is not listed.
        var entry: [UInt8]?
        /// What ?POLL answers with: its last TPV and SKY, each alone (no line end).
        var lastTPV: [UInt8]?
        var lastSKY: [UInt8]?
        /// What the web page and the metrics show of it; kept only when there is a page.
        var health = DeviceHealth()

        init(_ description: DeviceDescription) {
            self.description = description
            tag = GPSDJSON.Device(description.path)
        }

        /// Encodes its DEVICES entry again after a change.
        mutating func encodeEntry() {
            guard let activated else { entry = nil; return }
            var w = ByteWriter(capacity: 192 + description.path.utf8.count)
            Reports.device(description, activated: activated, into: &w)
            entry = w.bytes
        }
    }

    /// What the sources' threads and the loop share.
    struct Shared {
        var devices: [DeviceState]
        /// The clients' writing sides, as of the loop's last turn: the sources write to them.
        var outboxes: [Outbox] = []
        /// Sentences for the datagram address, which the loop sends.
        var pending: [[UInt8]] = []
        /// Sentences that waited so long the loop must have stalled; counted, never unbounded.
        var overflow = 0
        var stopping = false
        /// How many clients the loop has, of either port, as of its last turn.
        var clientCount = 0
        /// A wake-up is on its way to the loop: the next news need not send another.
        var wakePending = false
        /// When a source last published anything (monotonic seconds): a watch that got none
        /// of it since its last request is idle, one that had nothing to get is not.
        var lastPublished = -Double.infinity
        /// Bumped when what DEVICES lists changes, when a path changes, and when what
        /// ?POLL answers changes: the loop's encodings are kept until then.
        var listGeneration = 0
        var pathGeneration = 0
        var pollGeneration = 0
        /// Clients of each kind, as of the loop's last turn (the page and metrics say them).
        var clientCounts = ClientCounts()
        /// Metrics of feeds beside the server, read at each scrape.
        var metricProviders: [@Sendable () -> [MetricFamily]] = []

        /// Whether the caller must wake the loop (none is on its way yet).
        mutating func takeWake() -> Bool {
            defer { wakePending = true }
            return !wakePending
        }
    }

    /// One line for the clients, and what kind it is.
    typealias Outgoing = (line: [UInt8], kind: Outbox.Line)

    /// Binds `configuration.address` now, so that a port in use is reported before anything
    /// starts. One device per source, in `publish`'s order.
    public convenience init(configuration: ServerConfiguration, devices: [DeviceDescription],
                            log: @escaping @Sendable (String) -> Void) throws(ServerError) {
        try self.init(listeners: [TCPListener.listening(on: configuration.address)], configuration: configuration, devices: devices, log: log)
    }

    /// A server of one device.
    public convenience init(configuration: ServerConfiguration, device: DeviceDescription,
                            log: @escaping @Sendable (String) -> Void) throws(ServerError) {
        try self.init(configuration: configuration, devices: [device], log: log)
    }

    /// Listens for gpsd's clients on `descriptors`, listening TCP sockets made by someone else
    /// (a service manager that activates the server on its first client, as systemd does for
    /// gpsd), instead of binding `configuration.address`. The server closes them when it is
    /// released. The NMEA port and datagram address, when configured, are its own as ever.
    public convenience init(configuration: ServerConfiguration, listeningOn descriptors: [FileDescriptor], devices: [DeviceDescription],
                            log: @escaping @Sendable (String) -> Void) throws(ServerError) {
        precondition(!descriptors.isEmpty, "a server needs a socket to listen on")
        var listeners: [TCPListener] = []
        for descriptor in descriptors { listeners.append(try TCPListener.adopting(descriptor)) }
        try self.init(listeners: listeners, configuration: configuration, devices: devices, log: log)
    }

    /// Serves bare NMEA only (`configuration.nmeaAddress`, `nmeaDatagramAddress`): no listener
    /// for gpsd's clients at all (`serve --no-listen --nmea-listen …`).
    public convenience init(nmeaOnly configuration: ServerConfiguration, devices: [DeviceDescription],
                            log: @escaping @Sendable (String) -> Void) throws(ServerError) {
        precondition(configuration.nmeaAddress != nil || configuration.nmeaDatagramAddress != nil || configuration.httpAddress != nil,
                     "a server needs something to serve")
        try self.init(listeners: [], configuration: configuration, devices: devices, log: log)
    }

    /// A server of one device, on sockets handed over.
    public convenience init(configuration: ServerConfiguration, listeningOn descriptors: [FileDescriptor], device: DeviceDescription,
                            log: @escaping @Sendable (String) -> Void) throws(ServerError) {
        try self.init(configuration: configuration, listeningOn: descriptors, devices: [device], log: log)
    }

    private init(listeners: [TCPListener], configuration: ServerConfiguration, devices: [DeviceDescription],
                 log: @escaping @Sendable (String) -> Void) throws(ServerError) {
        addresses = listeners.map(\.address)
        exposed = listeners.filter { !$0.isLoopback }.map(\.address)
        self.listeners = listeners
        var nmeaListener: TCPListener?
        if let requested = configuration.nmeaAddress { nmeaListener = try TCPListener.listening(on: requested) }
        nmeaAddress = nmeaListener?.address
        nmeaIsLoopback = nmeaListener?.isLoopback ?? true
        self.nmeaListener = nmeaListener
        var httpListener: TCPListener?
        if let requested = configuration.httpAddress { httpListener = try TCPListener.listening(on: requested) }
        self.httpListener = httpListener
        var datagrams: DatagramSender?
        if let target = configuration.nmeaDatagramAddress { datagrams = try DatagramSender.sending(to: target) }
        self.datagrams = datagrams
        self.configuration = configuration
        self.log = log
        throttle = LogThrottle(window: configuration.logWindow)
        guard let wake = Wakeup() else { throw .system(call: "pipe", reason: "out of file descriptors") }
        self.wake = wake
        shared = Mutex(Shared(devices: devices.map { DeviceState($0) }))
    }

    // MARK: - From the source

    /// Hands one event of device `device` (its index among the devices) to the clients:
    /// written to each client that wants it, on the calling thread, when nothing of that
    /// client's waits before it (see `Outbox`); queued for the loop otherwise. Never blocks:
    /// called on the source's thread.
    public func publish(_ event: LocationEvent, device: Int = 0) {
        if case .sentence = event, !takesSentences { return }
        // What the page shows, kept under the lock the tag is read under (no second lock per
        // event); sentences are counted by the source, not here.
        var showsHealth = httpListener != nil
        if case .sentence = event { showsHealth = false }
        let healthAt = showsHealth ? Clocks.monotonicSeconds : 0
        let tag = shared.withLock { s -> GPSDJSON.Device in
            precondition(s.devices.indices.contains(device), "no device \(device)")
            if showsHealth { s.devices[device].health.take(event, now: healthAt) }
            return s.devices[device].tag
        }
        var w = ByteWriter(capacity: 2048)
        var item: Outgoing?
        // What ?POLL answers with later: the last TPV and SKY, each alone.
        var lastTPV: [UInt8]?, lastSKY: [UInt8]?
        switch event {
        case .fix(let fix):
            GPSDJSON.tpv(fix, device: tag, into: &w)
            let tpv = Self.crlf(w.bytes)
            w.removeAll()
            // gpsd writes the epoch's GST after its TPV, for watchers of its JSON.
            GPSDJSON.gst(fix, device: tag, into: &w)
            var reports = w.isEmpty ? tpv : tpv + Self.crlf(w.bytes)
            // And an ATT when an instrument beside the receiver stated an attitude.
            if fix.attitude != nil {
                w.removeAll()
                GPSDJSON.att(fix, device: tag, into: &w)
                reports += Self.crlf(w.bytes)
            }
            item = (reports, .report)
            lastTPV = Array(tpv.dropLast(2))
        case .sky(let sky):
            GPSDJSON.sky(sky, device: tag, into: &w)
            let line = Self.crlf(w.bytes)
            item = (line, .report)
            lastSKY = Array(line.dropLast(2))
        case .sentence(let line):
            w.append(line)
            w.append("\r\n")
            item = (w.bytes, .sentence)
        case .status(.started), .status(.streaming):
            // Opened, or back after an unplug: in service before its first sentence.
            break
        case .status(.disconnected):
            let news = shared.withLock { s -> [UInt8]? in
                guard s.devices[device].activated != nil else { return nil }
                s.devices[device].activated = nil
                s.devices[device].encodeEntry()
                s.listGeneration &+= 1
                s.pollGeneration &+= 1
                return Reports.device(s.devices[device].description, activated: nil)
            }
            guard let news else { return }
            return deliver([(news, .deviceNews)], device: device)
        case .status, .error, .note:
            // gpsd's protocol has no report for a receiver's TXT (gpsd only logs it).
            return
        }
        let now = Clocks.wallSeconds
        var lines: [Outgoing] = []
        let mustWake = shared.withLock { s -> Bool in
            // Data after a start or a reconnect: the device is (back) in service. Watchers
            // are told with a DEVICE, as gpsd tells them when a receiver is plugged in.
            if let news = activate(&s, device: device, now: now) { lines.append((news, .deviceNews)) }
            guard let item else { return false }
            lines.append(item)
            if let lastTPV { s.devices[device].lastTPV = lastTPV }
            if let lastSKY { s.devices[device].lastSKY = lastSKY }
            if lastTPV != nil || lastSKY != nil { s.pollGeneration &+= 1 }
            guard item.kind == .sentence, datagrams != nil else { return false }
            // The loop drains this every few milliseconds; a backlog this long means it is
            // stuck, and the source must not grow memory waiting for it.
            if s.pending.count >= 10_000 {
                s.pending.removeFirst()
                s.overflow += 1
            }
            s.pending.append(item.line)
            return s.takeWake()
        }
        if mustWake { wake.signal() }
        deliver(lines, device: device)
    }

    /// Writes (or queues) `lines` of device `device` for every client that wants them.
    func deliver(_ lines: [Outgoing], device: Int) {
        guard !lines.isEmpty else { return }
        let now = Clocks.monotonicSeconds
        // gpsfix's STATUS is not the devices reporting: a gpsd watch of a quiet device is not idle by it.
        let reports = lines.contains { $0.kind != .status }
        let (outboxes, path) = shared.withLock { s in
            if reports { s.lastPublished = now }
            return (s.outboxes, s.devices[device].description.path)
        }
        var queued = false
        // The page's event streams take the same reports framed as events, framed once.
        var framed: [[UInt8]]?
        for outbox in outboxes {
            for (index, (line, kind)) in lines.enumerated() {
                let bytes: [UInt8]
                if outbox.kind == .http {
                    if framed == nil { framed = lines.map { EventStream.frame($0.line) } }
                    bytes = framed![index]
                } else {
                    bytes = line
                }
                let offered = outbox.offer(bytes, kind, path: path, now: now)
                if offered.queued { queued = true }
                if offered.firstDrop {
                    peerLog("not-reading", "clients not reading (reports dropped for them)",
                            "client \(outbox.peer) is not reading; dropping reports for it until it does")
                }
            }
        }
        // A socket that took only part: the loop polls it for room from its next turn.
        if queued && shared.withLock({ $0.takeWake() }) { wake.signal() }
    }

    /// The NMEA port's descriptor, or nil (which `poll` skips) when there is none.
    var nmeaListenerFD: FileDescriptor? { nmeaListener?.descriptor }

    /// Accepts on the NMEA port.
    func acceptNMEA() -> TCPListener.Accepted {
        switch nmeaListener {
        case .some(let listener): listener.accept()
        case .none: .none
        }
    }

    /// Marks device `device` in service, unless it already is, telling its watchers: what a
    /// sentence that no client takes still does.
    public func activate(device: Int) {
        let now = Clocks.wallSeconds
        let news = shared.withLock { s in activate(&s, device: device, now: now) }
        if let news { deliver([(news, .deviceNews)], device: device) }
    }

    /// Marks a device in service, unless it already is; the DEVICE that tells its watchers.
    private func activate(_ s: inout Shared, device: Int, now: Double) -> [UInt8]? {
        guard s.devices[device].activated == nil else { return nil }
        s.devices[device].activated = now
        s.devices[device].encodeEntry()
        s.listGeneration &+= 1
        s.pollGeneration &+= 1
        return Reports.device(s.devices[device].description, activated: now)
    }

    /// The rate a receiver turned out to use (found by listening, after the start): clients
    /// watching are told with a DEVICE, as gpsd tells them of a rate change.
    public func setDeviceRate(_ bps: Int?, device: Int = 0) {
        let news = shared.withLock { s -> [UInt8]? in
            guard s.devices[device].description.bps != bps else { return nil }
            s.devices[device].description.bps = bps
            s.devices[device].encodeEntry()
            s.listGeneration &+= 1
            guard let activated = s.devices[device].activated else { return nil }
            return Reports.device(s.devices[device].description, activated: activated)
        }
        if let news { deliver([(news, .deviceNews)], device: device) }
    }

    /// Adds a device that appeared after the start (a vehicle first heard of on an MQTT
    /// fleet): its index for `publish`. Listed in DEVICES once its first data comes.
    public func addDevice(_ description: DeviceDescription) -> Int {
        shared.withLock { s in
            s.devices.append(DeviceState(description))
            s.pathGeneration &+= 1
            return s.devices.count - 1
        }
    }

    /// The device's path is now `path`: a source that opens a receiver it had to find (gpsd
    /// learns a hotplugged device's path the same way). Before its first data, so clients
    /// hear of it under its real name. A fleet's vehicle forgotten gives its device to the
    /// next new one this way: what ?POLL kept of the one before (its name in it) goes.
    public func renameDevice(_ device: Int, to path: String) {
        shared.withLock { s in
            guard s.devices[device].description.path != path else { return }
            s.devices[device].description.path = path
            s.devices[device].tag = GPSDJSON.Device(path)
            // A reused device (a fleet's forgotten vehicle's) never answers a POLL with the
            // last vehicle's fix.
            s.devices[device].lastTPV = nil
            s.devices[device].lastSKY = nil
            s.devices[device].encodeEntry()
            s.listGeneration &+= 1
            s.pathGeneration &+= 1
            s.pollGeneration &+= 1
        }
    }

    /// How many devices it serves, as `addDevice` counts them.
    public var deviceCount: Int { shared.withLock { $0.devices.count } }

    /// How many clients are connected, of either port, as the loop last counted them.
    public var clientCount: Int { shared.withLock { $0.clientCount } }

    /// Where it listens (the first address, when it was handed several).
    public var address: ListenAddress { addresses[0] }

    // MARK: - For the loop's encodings: a copy of references, taken only after a change

    /// The DEVICES entries of the devices in service, unless `generation` is still current.
    func listing(after generation: Int?) -> (generation: Int, entries: [[UInt8]])? {
        shared.withLock { s in
            guard s.listGeneration != generation else { return nil }
            return (s.listGeneration, s.devices.compactMap(\.entry))
        }
    }

    /// What ?POLL lists, unless `generation` is still current: the devices in service, and
    /// their last TPV and SKY.
    func pollSources(after generation: Int?) -> (generation: Int, active: Int, tpv: [[UInt8]], sky: [[UInt8]])? {
        shared.withLock { s in
            guard s.pollGeneration != generation else { return nil }
            var active = 0, tpv: [[UInt8]] = [], sky: [[UInt8]] = []
            for d in s.devices where d.activated != nil {
                active += 1
                if let t = d.lastTPV { tpv.append(t) }
                if let k = d.lastSKY { sky.append(k) }
            }
            return (s.pollGeneration, active, tpv, sky)
        }
    }

    /// Every device's path, by index, unless `generation` is still current.
    func paths(after generation: Int?) -> (generation: Int, paths: [String])? {
        shared.withLock { s in
            guard s.pathGeneration != generation else { return nil }
            return (s.pathGeneration, s.devices.map(\.description.path))
        }
    }

    /// One device's DEVICE line, as ?DEVICE answers.
    func deviceLine(_ index: Int) -> [UInt8] {
        let (description, activated) = shared.withLock { ($0.devices[index].description, $0.devices[index].activated) }
        return Reports.device(description, activated: activated)
    }

    /// Logs a line a client caused (after "gpsfix: serve: "), within the throttle's rate;
    /// `kind` is one of the loop's fixed words, `summary` what the count is of.
    func peerLog(_ kind: String, _ summary: String, _ line: @autoclosure () -> String) {
        for text in throttle.admit(kind, summary: summary, line: line) { log("gpsfix: serve: " + text) }
    }

    /// Ends `run()`: clients are sent what is queued, as far as they take it at once, and closed.
    public func stop() {
        shared.withLock { $0.stopping = true }
        wake.signal()
    }

    /// gpsd ends each line with CR LF; `GPSDJSON` writes LF for files and pipes.
    private static func crlf(_ line: [UInt8]) -> [UInt8] {
        var line = line
        if line.last == 0x0A { line.removeLast() }
        line.append(contentsOf: [0x0D, 0x0A])
        return line
    }
}
