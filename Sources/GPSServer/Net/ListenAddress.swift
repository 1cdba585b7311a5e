import GPSSystem

/// Where `gpsfix serve` listens: `127.0.0.1:2947`, `0.0.0.0:2947`, `[::1]:2947`, `localhost:2947`.
public struct ListenAddress: Equatable, Sendable, CustomStringConvertible {
    /// A host name or IP address to bind (an IPv6 one without its brackets); `0.0.0.0` or `::`
    /// for every interface. Resolved when the server binds, not before.
    public var host: String
    /// The TCP port, 0…65535; 0 lets the system choose a free one (``GpsdServer/addresses``
    /// holds the one it chose).
    public var port: Int

    /// gpsd's own default: loopback, port 2947.
    public static let gpsdDefault = ListenAddress(host: "127.0.0.1", port: 2947)

    /// The address `host`:`port` as given, unchecked: ``init(parsing:defaultPort:)`` checks a
    /// user's text.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `HOST:PORT`, `[IPv6]:PORT`, `:PORT` or `PORT` (loopback), or `HOST` (`defaultPort`); nil
    /// when malformed: a port outside 0–65535, a dotted quad that is not four numbers up to 255,
    /// an IPv6 address that is not one, a name with characters no host name has.
    ///
    /// Digits alone are a port, never a host: the C library would take `2950` for the IPv4
    /// address 0.0.11.134, and nobody means that.
    public init?(parsing text: String, defaultPort: Int = 2947) {
        var host = Substring(text)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            guard Self.isIPv6(host) else { return nil }
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = host.lastIndex(of: ":") {
            // A bare IPv6 address has several colons and needs brackets to carry a port.
            guard host.firstIndex(of: ":") == colon else { return nil }
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
            guard host.isEmpty || Self.isHostName(host) else { return nil }
        } else if !host.isEmpty, host.allSatisfy(\.isASCIIDigit) {
            portText = host
            host = ""
        } else {
            guard Self.isHostName(host) else { return nil }
        }
        var port = defaultPort
        if let portText {
            guard !portText.isEmpty, portText.allSatisfy(\.isASCIIDigit), let p = Int(portText), (0...65535).contains(p) else { return nil }
            port = p
        }
        self.host = host.isEmpty ? "127.0.0.1" : String(host)
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// An IPv4 dotted quad, or a name made of labels of letters, digits and hyphens.
    private static func isHostName(_ text: Substring) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        if text.allSatisfy({ $0.isASCIIDigit || $0 == "." }) {
            return labels.count == 4 && labels.allSatisfy { label in
                (1...3).contains(label.count) && Int(label).map { $0 <= 255 } == true
            }
        }
        // One trailing dot (a fully qualified name) is allowed; an empty label elsewhere is not.
        let named = labels.last?.isEmpty == true ? labels.dropLast() : labels[...]
        return text.count <= 253 && !named.isEmpty && named.allSatisfy { label in
            (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCIIDigit || $0.isASCIILetter || $0 == "-" }
        }
    }

    /// What `inet_pton` takes as IPv6, with an optional zone (`fe80::1%eth0`).
    private static func isIPv6(_ text: Substring) -> Bool { SocketAddress.isIPv6(text) }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
