/// Where `gpsfix serve` listens: `127.0.0.1:2947`, `0.0.0.0:2947`, `[::1]:2947`, `localhost:2947`.
public struct ListenAddress: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int

    /// gpsd's own default: loopback, port 2947.
    public static let gpsdDefault = ListenAddress(host: "127.0.0.1", port: 2947)

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `HOST:PORT`, `[IPv6]:PORT`, `:PORT` (loopback) or `HOST` (port 2947); nil when malformed.
    public init?(parsing text: String) {
        var host = Substring(text)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = host.lastIndex(of: ":") {
            // A bare IPv6 address has several colons and needs brackets to carry a port.
            guard host.firstIndex(of: ":") == colon else { return nil }
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        var port = 2947
        if let portText {
            guard let p = Int(portText), (0...65535).contains(p) else { return nil }
            port = p
        }
        self.host = host.isEmpty ? "127.0.0.1" : String(host)
        guard !self.host.contains(where: { $0 == " " || $0 == "/" }) else { return nil }
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
