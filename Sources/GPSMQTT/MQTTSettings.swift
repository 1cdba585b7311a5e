/// Where a client connects and as whom: everything libmosquitto is told before it connects.
public struct MQTTSettings: Sendable, Equatable {
    /// The broker's host name or address.
    public var host: String
    /// Its port: 1883 for MQTT, 8883 for MQTT over TLS by convention.
    public var port: Int
    /// Who this client is to the broker: one connection per id at a time.
    public var clientID: String
    /// The user to log in as, if any.
    public var username: String?
    /// The user's password. Never from the command line: a file or the environment (the CLI reads them).
    public var password: String?
    /// TLS, when the broker is reached over it (`mqtts://`).
    public var tls: TLS?
    /// Published by the broker for this client when its connection is lost without a goodbye.
    public var will: MQTTMessage?
    /// Published first on every connection, before anything queued: the `online` that
    /// answers the will, and retained configuration (Home Assistant's discovery).
    public var birth: [MQTTMessage] = []
    /// Topic filters (wildcards allowed) subscribed on every connection, at `subscriptionQoS`.
    public var subscriptions: [String] = []
    /// The QoS of `subscriptions` (1).
    public var subscriptionQoS = 1
    /// The time between pings when nothing else is sent (10 s, in whole seconds as MQTT
    /// counts it); a dead broker is noticed within 1.5×.
    public var keepAlive: Duration = .seconds(10)
    /// The pause before trying the broker again, doubling from `firstRetry` to `longestRetry`.
    /// The longest is short: a broker restarted is published to again within about 2 s.
    public var firstRetry: Duration = .milliseconds(250)
    /// The longest pause between tries (2 s).
    public var longestRetry: Duration = .seconds(2)
    /// When set, the client speaks MQTT 5 and tells the broker in its CONNECT (Maximum Packet
    /// Size) never to send it a packet larger than this many bytes: the broker drops such a
    /// message for this client, so it is never read or buffered here. Nil: MQTT 3.1.1, which
    /// has no such limit (a publisher reads nothing, and keeps working with older brokers).
    public var maximumPacketSize: Int?

    /// What TLS is checked against, and who the client is there.
    public struct TLS: Sendable, Equatable {
        /// The CA that signed the broker's certificate; nil trusts the system's CAs.
        public var caFile: String?
        /// A client certificate and its key, for brokers that ask for one.
        public var certFile: String?
        /// The client certificate's private key.
        public var keyFile: String?

        /// TLS with these files (none: the system's CAs, no client certificate).

        public init(caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil) {
            self.caFile = caFile
            self.certFile = certFile
            self.keyFile = keyFile
        }
    }

    /// Settings for the broker at `host`:`port`, as `clientID`; the rest as documented.
    public init(host: String, port: Int, clientID: String) {
        self.host = host
        self.port = port
        self.clientID = clientID
    }

    /// `host:port`, as messages name the broker.
    public var broker: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// One message to publish, or one received.
public struct MQTTMessage: Sendable, Equatable {
    /// Where it is published.
    public var topic: String
    /// Its bytes.
    public var payload: [UInt8]
    /// 0 (at most once) or 1 (at least once).
    public var qos: Int
    /// Whether the broker keeps it for later subscribers.
    public var retain: Bool

    /// A message of `payload` to `topic`.

    public init(topic: String, payload: [UInt8], qos: Int = 0, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }

    /// A message of `text` (as UTF-8) to `topic`.
    public init(topic: String, text: String, qos: Int = 0, retain: Bool = false) {
        self.init(topic: topic, payload: Array(text.utf8), qos: qos, retain: retain)
    }
}
