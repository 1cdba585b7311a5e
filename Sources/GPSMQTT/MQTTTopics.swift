/// The topics a receiver's reports go to under a prefix: `PREFIX/tpv`, `PREFIX/sky`,
/// `PREFIX/att`, `PREFIX/status`; with a device name (several receivers in one `serve`), `PREFIX/NAME/…`.
public struct MQTTTopics: Sendable, Equatable {
    /// The topic levels every report goes under, without the slashes around them (an
    /// `MQTTAddress`'s `prefix`: `gps/car`); publishable, so no `+` or `#`.
    public let prefix: String

    /// The topics under `prefix`, taken as it is: the caller has checked it can be published
    /// to (`MQTTAddress.isPublishable`).
    public init(prefix: String) { self.prefix = prefix }

    /// Where gpsd's TPV reports go: `PREFIX/tpv`, or `PREFIX/NAME/tpv` for `device`, named as
    /// ``name(_:)`` makes it one topic level.
    public func tpv(device: String? = nil) -> String { topic("tpv", device) }
    /// Where gpsd's SKY reports go: `PREFIX/sky`, or `PREFIX/NAME/sky` for `device`, named as
    /// ``name(_:)`` makes it one topic level.
    public func sky(device: String? = nil) -> String { topic("sky", device) }
    /// Where gpsd's ATT reports go (an attitude an instrument beside the receiver stated):
    /// `PREFIX/att`, or `PREFIX/NAME/att` for `device`, named as ``name(_:)`` makes it one
    /// topic level.
    public func att(device: String? = nil) -> String { topic("att", device) }
    /// gpsfix's own presence under the prefix: `online` (retained), `offline` (the will).
    public var status: String { prefix + "/status" }

    private func topic(_ leaf: String, _ device: String?) -> String {
        guard let device else { return prefix + "/" + leaf }
        return prefix + "/" + Self.name(device) + "/" + leaf
    }

    /// A device as one topic level: `/dev/ttyACM0` is `ttyACM0`; the separators and wildcards
    /// of MQTT (`/`, `+`, `#`), spaces and controls become `_`.
    public static func name(_ device: String) -> String {
        var text = Substring(device)
        if text.hasPrefix("/dev/") { text = text.dropFirst(5) }
        let safe = text.unicodeScalars.map { c -> Character in
            switch c {
            case "/", "+", "#", " ", "$": "_"
            case _ where c.value < 0x20 || c.value == 0x7F: "_"
            default: Character(c)
            }
        }
        return safe.isEmpty ? "_" : String(safe)
    }
}
