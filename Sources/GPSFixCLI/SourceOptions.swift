import GPSLocation
import GPSSources
import GPSGpsd

/// Builds the manager that the options name. Everything after this sees only the protocol.
enum SourceOptions {
    /// The options that each name a source; `serve` and `watch` take several of them.
    static let sourceNames = ["--device", "--replay", "--gpsd", "--nmea-tcp"]

    /// The managers of every source named, in the order given (`serve` and `watch` read
    /// several at once: `--device A --device B --replay C`); the one receiver discovery finds
    /// when none is named. `--baud`, `--speed`, `--loop` and `--simulated` apply to each.
    static func managers(_ args: ParsedArguments, defaultSpeed: ReplayManager.Speed, forwardsSentences: Bool = false,
                         waits: Waiting = .never) throws -> [any LocationManagerInterface] {
        try refuseIdleOptions(args)
        let named = args.ordered(sourceNames)
        guard named.count > 1 else {
            return [try manager(args, defaultSpeed: defaultSpeed, forwardsSentences: forwardsSentences, waits: waits, checked: true)]
        }
        var descriptions = Set<String>()
        return try named.map { option, value in
            let one = args.keeping(option, value, of: sourceNames)
            let manager = try manager(one, defaultSpeed: defaultSpeed, forwardsSentences: forwardsSentences, waits: waits, checked: true)
            // Each is a device of its own to clients (`?WATCH={"device":…}`): two of one name
            // could not be told apart.
            guard descriptions.insert(manager.sourceDescription).inserted else {
                throw UsageError(message: "\(manager.sourceDescription) is named twice")
            }
            return manager
        }
    }

    /// What is waited for when it is not there at the start, rather than failing at once.
    enum Waiting {
        /// Nothing: a one-shot command fails fast with the reason.
        case never
        /// A receiver not plugged in yet (`watch`: as gpsd's hotplug).
        case receivers
        /// Every source: a receiver, gpsd, a network stream (a service comes up before them).
        case everything
    }

    /// Refuses an option that no source named would use (`--speed` without a replay, `--baud`
    /// with no serial port): accepted silently, it looks as if it worked.
    static func refuseIdleOptions(_ args: ParsedArguments) throws(UsageError) {
        let named = Set(sourceNames.filter { args[$0] != nil })
        // No source named at all is a receiver found by discovery.
        let reads = named.isEmpty ? ["--device"] : named
        if !reads.contains("--replay") {
            for option in ["--speed", "--loop"] where args[option] != nil || args.has(option) {
                throw UsageError(message: "\(option) paces or repeats a capture: it needs --replay FILE (\(reads.sorted().joined(separator: " and ")) \(reads.count == 1 ? "is" : "are") read as the data arrives)")
            }
        }
        if !reads.contains("--device"), let baud = args["--baud"] {
            throw UsageError(message: "--baud \(baud) sets a serial port's rate: it needs --device PATH (\(reads.sorted().joined(separator: " and ")) \(reads.count == 1 ? "has" : "have") no line rate)")
        }
    }

    static func manager(_ args: ParsedArguments, defaultSpeed: ReplayManager.Speed, forwardsSentences: Bool = false,
                        waits: Waiting = .never, checked: Bool = false) throws -> any LocationManagerInterface {
        if !checked { try refuseIdleOptions(args) }
        let named = sourceNames.filter { args[$0] != nil }
        guard named.count <= 1 else {
            throw UsageError(message: "\(named.joined(separator: " and ")) are different sources: choose one")
        }
        if let address = args["--gpsd"] {
            guard !args.has("--simulated") else {
                throw UsageError(message: "--simulated is for sentences gpsfix reads itself (--device, --replay); gpsd decides for its own clients")
            }
            let (host, port) = try gpsdAddress(address)
            return GpsdManager(host: host, port: port, forwardsSentences: forwardsSentences, waitsForGpsd: waits == .everything)
        }
        if args["--nmea-tcp"] != nil {
            return try networkStream(args, forwardsSentences: forwardsSentences, waits: waits == .everything)
        }
        if let path = args["--replay"] {
            let manager = ReplayManager(path: path, speed: try speed(args, default: defaultSpeed), loop: args.has("--loop"),
                                        forwardsSentences: forwardsSentences, acceptsSimulatedFixes: args.has("--simulated"))
            if manager.loop && manager.readsLiveInput {
                throw UsageError(message: "--loop needs a file: \(manager.sourceDescription) is a pipe or FIFO, read once as it arrives. Save it to a file (e.g. 'gpspipe -r > capture.nmea') and loop that")
            }
            return manager
        }
        return try serial(args, forwardsSentences: forwardsSentences, waits: waits != .never)
    }

    /// Whether `manager` replays a pipe or FIFO: a feed that arrives over time, whatever the speed.
    static func isLiveReplay(_ manager: any LocationManagerInterface) -> Bool {
        (manager as? ReplayManager)?.readsLiveInput ?? false
    }

    /// The receiver named with --device, or the first one discovery finds.
    static func serial(_ args: ParsedArguments, forwardsSentences: Bool = false, waits: Bool = false) throws -> SerialNMEAManager {
        let options = SerialNMEAManager.Options(baud: try baud(args), waitsForDevice: waits, forwardsSentences: forwardsSentences,
                                                acceptsSimulatedFixes: args.has("--simulated"))
        if let path = args["--device"] { return SerialNMEAManager(path: path, options: options) }
        // Waiting for a receiver to be plugged in, it reads the first one then.
        if waits { return SerialNMEAManager(discovering: options) }
        guard let device = DeviceDiscovery.candidates().first else {
            throw LocationError.deviceNotFound(searched: DeviceDiscovery.searchedLocations())
        }
        return SerialNMEAManager(path: device.path, options: options)
    }

    /// The receiver or app named with --nmea-tcp.
    static func networkStream(_ args: ParsedArguments, forwardsSentences: Bool = false, waits: Bool = false) throws -> NMEATCPManager {
        guard let text = args["--nmea-tcp"] else { preconditionFailure("--nmea-tcp was not given") }
        guard let (host, port) = hostAndPort(text) else {
            throw UsageError(message: "--nmea-tcp takes HOST:PORT (e.g. 192.168.1.20:10110, [fe80::1%eth0]:10110), not '\(text)'")
        }
        let options = NMEATCPManager.Options(waitsForPeer: waits, forwardsSentences: forwardsSentences,
                                             acceptsSimulatedFixes: args.has("--simulated"))
        return NMEATCPManager(host: host, port: port, options: options)
    }

    /// `HOST:PORT` or `[IPV6]:PORT`, a port from 1 to 65535; nil otherwise.
    static func hostAndPort(_ text: String) -> (host: String, port: Int)? {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            (host, portText) = (parts[0], parts[1])
        }
        guard !host.isEmpty, !host.contains(" "), let port = Int(portText), (1...65535).contains(port) else { return nil }
        return (String(host), port)
    }

    /// `HOST[:PORT]`, `:PORT`, or nothing: gpsd's defaults (127.0.0.1, 2947) fill the gaps.
    static func gpsdAddress(_ text: String) throws(UsageError) -> (host: String, port: Int) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2 else {
            throw UsageError(message: "--gpsd takes HOST[:PORT] (an IPv4 address or a name), not '\(text)'")
        }
        let host = parts[0].isEmpty ? "127.0.0.1" : String(parts[0])
        guard parts.count == 2 else { return (host, 2947) }
        guard let port = Int(parts[1]), (1...65535).contains(port) else {
            throw UsageError(message: "--gpsd takes HOST[:PORT] with a port from 1 to 65535, not '\(text)'")
        }
        return (host, port)
    }

    static func baud(_ args: ParsedArguments) throws(UsageError) -> Int? {
        guard let text = args["--baud"] else { return nil }
        guard let rate = Int(text), Autobaud.rates.contains(rate) else {
            let rates = Autobaud.rates.map(String.init).joined(separator: ", ")
            throw UsageError(message: "--baud takes one of \(rates), not '\(text)'")
        }
        return rate
    }

    static func speed(_ args: ParsedArguments, default value: ReplayManager.Speed) throws(UsageError) -> ReplayManager.Speed {
        guard let text = args["--speed"] else { return value }
        if text == "max" { return .maximum }
        // Beyond these a replay is either frozen or indistinguishable from 'max'.
        guard let factor = Double(text), factor >= 0.001, factor <= 1_000_000 else {
            throw UsageError(message: "--speed takes a number from 0.001 to 1000000, or 'max', not '\(text)'")
        }
        return .factor(factor)
    }

    static func seconds(_ args: ParsedArguments, _ name: String, default value: Double) throws(UsageError) -> Double {
        guard let text = args[name] else { return value }
        guard let s = Double(text), s > 0, s <= 1_000_000 else {
            throw UsageError(message: "\(name) takes a number of seconds above 0 and up to 1000000, not '\(text)'")
        }
        return s
    }

    static func count(_ args: ParsedArguments, _ name: String) throws(UsageError) -> Int? {
        guard let text = args[name] else { return nil }
        guard let n = Int(text), n > 0 else {
            throw UsageError(message: "\(name) takes a whole number above 0, not '\(text)'")
        }
        return n
    }
}
