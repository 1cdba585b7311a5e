/// `mqtt://[USER@]HOST[:PORT]/PREFIX` or `mqtts://…` (TLS): a broker, who to be there, and the
/// topic prefix under which a receiver's reports go (or, read back, come from).
public struct MQTTAddress: Sendable, Equatable {
    /// The broker's host name or address (without the brackets of an IPv6 one).
    public var host: String
    /// Its port: the URL's, or 1883 (`mqtt`) or 8883 (`mqtts`).
    public var port: Int
    /// Whether the URL is `mqtts://`.
    public var usesTLS: Bool
    /// The user before `@`, percent-decoded; never a password.
    public var username: String?
    /// Topics without the slashes around them: `fleet/van7`; `fleet/+` when reading a fleet.
    public var prefix: String

    /// Why a URL is not one; the CLI shows it with the form expected.
    public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        /// What is wrong with the URL, any password in it shown as `***`.
        public let description: String
    }

    /// The address `text` names; `Invalid`, saying why, when it names none.
    public init(parsing text: String) throws(Invalid) {
        // What the messages below show of the URL: never a password typed into it.
        let shown = PasswordMasking.masked(url: text)
        let scheme: Substring
        let rest: Substring
        if text.hasPrefix("mqtt://") {
            (scheme, rest) = ("mqtt", text.dropFirst(7))
        } else if text.hasPrefix("mqtts://") {
            (scheme, rest) = ("mqtts", text.dropFirst(8))
        } else {
            throw Invalid(description: "'\(shown)' does not start with mqtt:// or mqtts://")
        }
        usesTLS = scheme == "mqtts"
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<slash]
        prefix = String(rest[slash...].drop(while: { $0 == "/" }))
        while prefix.hasSuffix("/") { prefix.removeLast() }
        if let at = authority.lastIndex(of: "@") {
            let user = authority[..<at]
            guard !user.contains(":") else {
                throw Invalid(description: "'\(shown)' has a password in it: give it with --mqtt-password-file, the systemd credential gpsfix.mqtt-password or GPSFIX_MQTT_PASSWORD instead, never on the command line")
            }
            guard !user.isEmpty else { throw Invalid(description: "'\(shown)' has an empty user name before '@'") }
            username = Self.percentDecoded(user)
            authority = authority[authority.index(after: at)...]
        }
        let defaultPort = usesTLS ? 8883 : 1883
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw Invalid(description: "'\(shown)' has an unclosed '['") }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            port = after.isEmpty ? defaultPort : try Self.port(after.dropFirst(), in: shown, colon: after.first == ":")
        } else if let colon = authority.firstIndex(of: ":") {
            host = String(authority[..<colon])
            port = try Self.port(authority[authority.index(after: colon)...], in: shown, colon: true)
        } else {
            host = String(authority)
            port = defaultPort
        }
        guard !host.isEmpty, !host.contains(" ") else { throw Invalid(description: "'\(shown)' names no broker host") }
        guard !prefix.isEmpty else {
            throw Invalid(description: "'\(shown)' has no topic prefix after the host (e.g. mqtt://\(host)/fleet/van7)")
        }
    }

    private static func port(_ text: Substring, in url: String, colon: Bool) throws(Invalid) -> Int {
        guard colon, let port = Int(text), (1...65535).contains(port) else {
            throw Invalid(description: "'\(url)' has a port that is not a number from 1 to 65535")
        }
        return port
    }

    /// `%40` in a user name (an e-mail address) is '@'.
    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var i = text.utf8.startIndex
        let utf8 = text.utf8
        while i < utf8.endIndex {
            let b = utf8[i]
            if b == 0x25, let hi = utf8.index(i, offsetBy: 1, limitedBy: utf8.endIndex), hi < utf8.endIndex,
               let lo = utf8.index(i, offsetBy: 2, limitedBy: utf8.endIndex), lo < utf8.endIndex,
               let value = UInt8(String(decoding: [utf8[hi], utf8[lo]], as: UTF8.self), radix: 16) {
                bytes.append(value)
                i = utf8.index(i, offsetBy: 3)
            } else {
                bytes.append(b)
                i = utf8.index(after: i)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the prefix has MQTT wildcards (`+`, `#`): a subscription to several publishers.
    public var hasWildcards: Bool { prefix.contains("+") || prefix.contains("#") }

    /// Whether the prefix can be published to (no wildcards, no empty levels).
    public var isPublishable: Bool { MosquittoConnection.isValid(prefix + "/tpv", publishing: true) }

    /// Whether the prefix can be subscribed under.
    public var isSubscribable: Bool { MosquittoConnection.isValid(prefix + "/tpv", publishing: false) }

    /// `host:port`, as messages name the broker.
    public var broker: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
