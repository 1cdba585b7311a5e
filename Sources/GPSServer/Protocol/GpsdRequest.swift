/// One request a gpsd client sends (gpsd's JSON protocol: `?NAME;` or `?NAME={json};`).
public enum GpsdRequest: Equatable, Sendable {
    /// `?WATCH;` asks for the current policy; `?WATCH={…};` changes it.
    case watch(WatchPolicy.Change?)
    /// `?POLL;`: the last TPV and SKY of every device, in one `POLL` reply (an `ERROR` when
    /// that would be over `ServerConfiguration.replyLimit`).
    case poll
    /// `?DEVICES;`: every device the server has, in one `DEVICES` reply (an `ERROR` when that
    /// would be over `ServerConfiguration.replyLimit`).
    case devices
    /// `?DEVICE;`; `?DEVICE={…}` (reconfiguring the receiver) is not offered.
    case device(configures: Bool)
    /// `?VERSION;`: gpsd's `VERSION` report (release and protocol level).
    case version
    /// A request gpsfix knows whose argument it cannot take (a `?WATCH={…}` that is not a JSON
    /// object, or names a member with a value of the wrong type): the message the client is
    /// answered with, in an `ERROR` report.
    case invalid(String)
    /// Anything else (no leading `?`, a name gpsd does not offer, an argument where none is
    /// taken): the text as it came, at most `ServerConfiguration.requestLimit` bytes, quoted
    /// back shortened in an `ERROR` report.
    case unrecognized(String)

    /// Reads one request, without its terminating `;` or newline.
    public init(_ text: Substring) {
        guard text.hasPrefix("?") else {
            self = .unrecognized(String(text))
            return
        }
        let (name, argument) = Self.split(text.dropFirst())
        switch name {
        case "WATCH":
            guard let argument else { self = .watch(nil); return }
            switch WatchPolicy.Change.parse(json: argument) {
            case .success(let change): self = .watch(change)
            case .failure(let reason): self = .invalid("Invalid WATCH: \(reason)")
            }
        case "POLL" where argument == nil: self = .poll
        case "DEVICES" where argument == nil: self = .devices
        case "VERSION" where argument == nil: self = .version
        case "DEVICE": self = .device(configures: argument != nil)
        default: self = .unrecognized(String(text))
        }
    }

    private static func split(_ text: Substring) -> (Substring, Substring?) {
        guard let eq = text.firstIndex(of: "=") else { return (text, nil) }
        return (text[..<eq], text[text.index(after: eq)...])
    }
}

/// What a client asked to receive, as gpsd's `?WATCH` sets it.
public struct WatchPolicy: Equatable, Sendable {
    /// Whether the client is watching at all: nothing but replies to its requests is sent
    /// until a `?WATCH` enables it.
    public var enable = false
    /// Whether the watch includes gpsd's JSON reports (TPV, SKY, and GST when the receiver
    /// sends one).
    public var json = false
    /// Whether the watch includes the NMEA sentences as received, one a line.
    public var nmea = false
    /// gpsd's raw levels: 1 and 2 both mean the sentences as received, for an NMEA device.
    public var raw = 0
    /// The one device watched (its path); nil for every device.
    public var device: String?
    /// Whether the watch includes the time reports, PPS and TOFF (with `json`), as
    /// `ntpshmmon`-style and time-service clients ask for them.
    public var pps = false

    /// The policy of a client that has sent no `?WATCH`: not watching, every device.
    public init() {}

    /// Whether this client is told of the device at `path`.
    public func watches(_ path: String) -> Bool { device.map { $0 == path } ?? true }

    /// Whether this client gets TPV and SKY reports.
    public var wantsReports: Bool { enable && json }
    /// Whether this client gets the sentences themselves.
    public var wantsSentences: Bool { enable && (nmea || raw > 0) }
    /// Whether this client gets PPS and TOFF reports.
    public var wantsTiming: Bool { enable && json && pps }

    /// The members a `?WATCH={…}` named, nil for those it did not (`apply(_:)` says what each
    /// one not named comes to).
    public struct Change: Equatable, Sendable {
        /// `enable` as sent; nil when not named (which ``WatchPolicy/apply(_:)`` takes as true).
        public var enable: Bool?
        /// `json` as sent; nil when not named (the policy's stays as it was).
        public var json: Bool?
        /// `nmea` as sent; nil when not named (the policy's stays as it was).
        public var nmea: Bool?
        /// `raw` as sent, 0…2 (`true` read as 1, `false` as 0); nil when not named (the
        /// policy's stays as it was).
        public var raw: Int?
        /// The device to watch alone.
        public var device: String?
        /// `pps` as sent; nil when not named (the policy's stays as it was).
        public var pps: Bool?

        /// A change naming the members given (a test's, or a request's once parsed); each nil
        /// is a member the request did not name.
        public init(enable: Bool? = nil, json: Bool? = nil, nmea: Bool? = nil, raw: Int? = nil, device: String? = nil, pps: Bool? = nil) {
            self.enable = enable
            self.json = json
            self.nmea = nmea
            self.raw = raw
            self.device = device
            self.pps = pps
        }

        /// Parses the object as gpsd's `json_watch_read` does: a member it does not know is
        /// ignored ("for cross-version compatibility", gpsd says: a client written for a later
        /// gpsd, or one that sends its own extras, is still served), and so are the members gpsd
        /// knows but gpsfix has no use for (scaled, timing, split24, remote). `class`, when
        /// sent, must be `WATCH`, as gpsd checks it. A member gpsfix reads with a value of the
        /// wrong type is still an error: the client asked for something it will not get.
        static func parse(json text: Substring) -> Result<Change, WatchError> {
            guard let members = FlatJSON.object(text) else {
                return .failure(WatchError(description: "not a JSON object"))
            }
            var change = Change()
            for (key, value) in members {
                switch key {
                case "enable", "json", "nmea", "pps":
                    guard case .bool(let flag) = value else { return .failure(WatchError(description: "'\(key)' must be true or false")) }
                    switch key {
                    case "enable": change.enable = flag
                    case "json": change.json = flag
                    case "pps": change.pps = flag
                    default: change.nmea = flag
                    }
                case "raw":
                    // libgps sends raw as a number; some clients send true.
                    switch value {
                    case .number(let n) where n == n.rounded() && (0...2).contains(n): change.raw = Int(n)
                    case .bool(let b): change.raw = b ? 1 : 0
                    default: return .failure(WatchError(description: "'raw' must be 0, 1 or 2"))
                    }
                case "device":
                    guard case .string(let path) = value else { return .failure(WatchError(description: "'device' must be a path")) }
                    change.device = path
                case "class":
                    guard case .string("WATCH") = value else { return .failure(WatchError(description: "'class' must be \"WATCH\"")) }
                default:
                    break
                }
            }
            return .success(change)
        }
    }

    /// Why a `?WATCH={…}`'s object was refused (not an object, a member of the wrong type or
    /// value); the client is answered `Invalid WATCH: ` and this ``description``.
    public struct WatchError: Error, Equatable, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Applies a change as gpsd's `json_watch_read` does, member by member:
    /// - `enable` not named is true: `?WATCH={"json":true}` starts a watch (OpenCPN and Signal K
    ///   never name it);
    /// - `json`, `nmea` and `raw` not named keep their value, and JSON is off until asked for
    ///   (gpsd 3.22 answers `?WATCH={"enable":true}` with `"json":false` and sends no reports;
    ///   gpspipe -w and libgps always name it);
    /// - `device` not named is every device: a watch of one device lasts until the next
    ///   `?WATCH={…}` that does not name it.
    public mutating func apply(_ change: Change) {
        enable = change.enable ?? true
        if let v = change.json { json = v }
        if let v = change.nmea { nmea = v }
        if let v = change.raw { raw = v }
        if let v = change.pps { pps = v }
        device = change.device
    }
}
