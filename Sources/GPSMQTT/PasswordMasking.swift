/// A password that reached a URL anyway (typed into `--mqtt mqtt://user:secret@host/…`,
/// which is refused) must not reach stderr, the journal or a broker's log through the
/// message that refuses it. Every URL's user information is shown as `user:***@`.
///
/// Where the user information ends is a guess when the password itself holds `/` or `@`
/// (`mqtt://u:pa/ss@host/x`): the mask runs from the first `:` after `://` to the last `@`
/// of the URL, so it may hide more than the password (a port, when the topic holds an
/// `@`), never less.
public enum PasswordMasking {
    /// What stands in for a password wherever one is shown: in URLs, messages and settings
    /// printed.
    public static let mask = "***"

    /// `url` with any password replaced by `***`.
    public static func masked(url: some StringProtocol) -> String {
        let text = String(url)
        guard let scheme = text.firstRange(of: "://") else { return text }
        return String(text[..<scheme.upperBound]) + maskedAuthority(text[scheme.upperBound...])
    }

    /// `message` with the password of every URL in it (`scheme://…` up to a space or quote)
    /// replaced by `***`: the last filter before a message is written anywhere.
    public static func masking(_ message: String) -> String {
        guard message.contains("://") else { return message }
        var out = ""
        var rest = Substring(message)
        while let scheme = rest.firstRange(of: "://") {
            out += rest[..<scheme.upperBound]
            let tail = rest[scheme.upperBound...]
            let end = tail.firstIndex(where: { $0 == " " || $0 == "'" || $0 == "\"" || $0 == "\n" || $0 == "\t" }) ?? tail.endIndex
            out += maskedAuthority(tail[..<end])
            rest = tail[end...]
        }
        return out + rest
    }

    private static func maskedAuthority(_ rest: Substring) -> String {
        guard let at = rest.lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") else { return String(rest) }
        return String(rest[...colon]) + mask + String(rest[at...])
    }
}

/// Settings printed, dumped or interpolated (a debug line, a test's failure message) show
/// `password: ***`, never the password.
extension MQTTSettings: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "MQTTSettings(broker: \(broker), clientID: \(clientID), username: \(username ?? "none"), "
            + "password: \(password == nil ? "none" : PasswordMasking.mask), tls: \(tls == nil ? "no" : "yes"))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["broker": broker, "clientID": clientID, "username": username as Any,
                                "password": password == nil ? "none" : PasswordMasking.mask, "tls": tls as Any],
               displayStyle: .struct)
    }
}
