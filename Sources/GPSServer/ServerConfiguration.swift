/// How the server treats its clients. The defaults suit a receiver at up to 10 Hz.
public struct ServerConfiguration: Sendable {
    public var address: ListenAddress
    /// What `VERSION` says after "gpsfix".
    public var release: String
    /// A watcher that reads nothing for this long while reports wait for it is disconnected.
    public var clientTimeout: Double
    /// A client that connects and asks nothing for this long is disconnected: gpsd's
    /// ASSIGNMENT_TIMEOUT (60 s).
    public var assignmentTimeout: Double = 60
    /// A client that has asked (a poller) but does not watch is disconnected this long after
    /// its last request: gpsd's POLLER_TIMEOUT (15 minutes).
    public var pollerTimeout: Double = 15 * 60
    /// The most that may wait for one client (about 100 epochs of TPV and SKY); past it,
    /// reports for that client are dropped and counted.
    public var queueLimit: Int
    /// Bytes of a request held while waiting for its `;` or newline.
    public var requestLimit: Int
    /// The most clients at once, of either port.
    public var maxClients: Int
    /// Where to serve the bare sentences over TCP as well (port 10110 by convention), for
    /// chart plotters and apps that read NMEA rather than gpsd's protocol; nil for nowhere.
    /// Its clients get the same bounded queues and timeouts as gpsd's.
    public var nmeaAddress: ListenAddress?
    /// Where to send each sentence as one UDP datagram (a host's or a broadcast address); nil
    /// for nowhere.
    public var nmeaDatagramAddress: ListenAddress?

    public init(address: ListenAddress = .gpsdDefault, release: String, clientTimeout: Double = 15,
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
