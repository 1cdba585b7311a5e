/// How the server treats its clients. The defaults suit a receiver at up to 10 Hz.
public struct ServerConfiguration: Sendable {
    /// Where gpsd's clients connect (127.0.0.1:2947).
    public var address: ListenAddress
    /// What `VERSION` says after "gpsfix".
    public var release: String
    /// A watcher that reads nothing for this long while reports wait for it is disconnected.
    public var clientTimeout: Duration
    /// A client that connects and asks nothing for this long is disconnected: gpsd's
    /// ASSIGNMENT_TIMEOUT (60 s).
    public var assignmentTimeout: Duration = .seconds(60)
    /// A client that has asked (a poller) but does not watch is disconnected this long after
    /// its last request: gpsd's POLLER_TIMEOUT (15 minutes).
    public var pollerTimeout: Duration = .seconds(15 * 60)
    /// The most that may wait for one client (about 100 epochs of TPV and SKY); past it,
    /// reports for that client are dropped and counted.
    public var queueLimit: Int
    /// Bytes of a request held while waiting for its `;` or newline.
    public var requestLimit: Int
    /// The most clients at once, of either port.
    public var maxClients: Int
    /// The most clients at once from one address (64, of `maxClients`' 200), so that one host
    /// cannot take every slot: past it, a newcomer from there is refused (or served in place
    /// of that address's longest-idle client, by `giveWayAfter`). Clients on this machine all
    /// come from 127.0.0.1 or ::1 and share it too.
    public var maxClientsPerAddress: Int = 64
    /// When a newcomer finds every slot taken (or its address's), the client that has gone
    /// longest without sending a request or being sent a report gives way to it, if that has
    /// been at least this long (10 s); otherwise the newcomer is refused. gpsd's users expect
    /// a new client to be served, and a squatter should not outlast one.
    public var giveWayAfter: Duration = .seconds(10)
    /// The largest reply sent (8 MiB: the DEVICES of about 40,000 devices with 64-character
    /// names, the POLL of about 10,000 with a TPV and a small SKY each): a DEVICES or POLL over
    /// it is answered with an ERROR that says so. Replies have this much room of their own
    /// beside `queueLimit`, so one arrives whole even behind a queue full of reports.
    public var replyLimit: Int = 8 * 1024 * 1024
    /// How often one client may have the fleet listed (`?DEVICES`, `?POLL`, and the DEVICES a
    /// watch starts with): `requestBurst` (10) at once, then `requestRate` (5) a second. One
    /// more is answered with an ERROR, and the rest until the rate allows are not answered.
    /// A rate, not a time span: listings per second, on average.
    public var requestRate: Double = 5
    /// How many listings one client may ask for at once before `requestRate` holds it.
    public var requestBurst: Int = 10
    /// Log lines a client causes (refused, too slow, timed out): five of each kind per this
    /// many seconds (60) are written, the rest counted in one line when it is over.
    public var logWindow: Duration = .seconds(60)
    /// Where to serve the bare sentences over TCP as well (port 10110 by convention), for
    /// chart plotters and apps that read NMEA rather than gpsd's protocol; nil for nowhere.
    /// Its clients get the same bounded queues and timeouts as gpsd's.
    public var nmeaAddress: ListenAddress?
    /// Where to send each sentence as one UDP datagram (a host's or a broadcast address); nil
    /// for nowhere.
    public var nmeaDatagramAddress: ListenAddress?
    /// Where to serve the web page (`/`), its event stream (`/events`), the snapshot
    /// (`/api/now`) and the metrics (`/metrics`); nil for nowhere. Its clients have the same
    /// queues, timeouts and per-address limit as gpsd's, in a pool of their own.
    public var httpAddress: ListenAddress?
    /// The most web clients at once (256): a tab holds one event stream, and fetches the
    /// page, its script and snapshot on connections of their own that close at once.
    public var maxHTTPClients: Int = 256
    /// A web client must send its whole request head within this (10 s), or it is closed:
    /// a browser sends it at once, and a slot is not held by one that trickles.
    public var httpRequestTimeout: Duration = .seconds(10)
    /// The most bytes of a request head (8 KiB, as many servers allow): past it, a 431.
    public var httpHeadLimit: Int = 8 * 1024
    /// A map tile URL template (`https://tile.openstreetmap.org/{z}/{x}/{y}.png`) the page
    /// draws the track on; nil (the default) for none: the page then fetches nothing from
    /// anywhere but this server.
    public var tileURL: String?

    /// A configuration for a server that says `release` in its VERSION; the rest as documented.
    public init(address: ListenAddress = .gpsdDefault, release: String, clientTimeout: Duration = .seconds(15),
                queueLimit: Int = 256 * 1024, requestLimit: Int = 1024, maxClients: Int = 200,
                nmeaAddress: ListenAddress? = nil, nmeaDatagramAddress: ListenAddress? = nil) {
        self.address = address
        self.release = release
        self.clientTimeout = clientTimeout
        self.queueLimit = queueLimit
        self.requestLimit = requestLimit
        self.maxClients = maxClients
        self.nmeaAddress = nmeaAddress
        self.nmeaDatagramAddress = nmeaDatagramAddress
    }
}
