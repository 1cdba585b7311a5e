import GPSSystem

extension MQTTSettings {
    /// The settings `mqtt://[USER@]HOST[:PORT]/PREFIX` or `mqtts://…` names: the broker, the
    /// user, TLS (with the system's CAs) for `mqtts`; the client id `clientID`, or
    /// `defaultClientID(prefix:)`. The URL's prefix is the topics' (`MQTTAddress(parsing:)`
    /// gives it too). A password is never read from a URL: one typed into it is refused with
    /// a message that shows it as `***`; set `password` from where the app keeps it.
    ///
    ///     var settings = try MQTTSettings(url: "mqtts://van7@broker.example/fleet/van7")
    ///     settings.password = secret
    public init(url: String, clientID: String? = nil) throws(MQTTAddress.Invalid) {
        let address = try MQTTAddress(parsing: url)
        self.init(address: address, clientID: clientID ?? Self.defaultClientID(prefix: address.prefix))
    }

    /// The settings for a parsed `address`, as `init(url:clientID:)`.
    public init(address: MQTTAddress, clientID: String) {
        self.init(host: address.host, port: address.port, clientID: clientID)
        username = address.username
        if address.usesTLS { tls = TLS() }
    }

    /// `gpsfix-HOSTNAME-PREFIX`: stable across restarts (a broker and Home Assistant know it
    /// again), different for each receiver of a fleet published from one machine.
    public static func defaultClientID(prefix: String) -> String {
        let host = Environment.hostName ?? "localhost"
        return "gpsfix-\(host)-\(MQTTTopics.name(prefix))"
    }
}
