import GPSLocation
import GPSSources

/// Builds the manager that the options name. Everything after this sees only the protocol.
enum SourceOptions {
    /// The kinds of source the commands read, in the order help shows their options. A new
    /// source is a `SourceOptionKind` in a file of its own and one line here.
    static let kinds: [any SourceOptionKind.Type] = [
        SerialSourceOptions.self,
        GpsdSourceOptions.self,
        NMEATCPSourceOptions.self,
        ReplaySourceOptions.self,
    ]

    /// What is read when no source is named: the first receiver discovery finds.
    static let unnamed: any SourceOptionKind.Type = SerialSourceOptions.self

    /// The options that each name a source; `serve` and `watch` take several of them.
    static let sourceNames = kinds.map { $0.name }

    /// The options of the kinds whose bytes `record FILE` cannot keep (`--gpsd`, `--replay`
    /// and theirs): each needs `--gpx`.
    static var fixesOnlyOptions: [String] {
        kinds.filter { !$0.recordsBytes }.flatMap { $0.options.map(\.name) }
    }

    /// The naming options of the kinds `record FILE` keeps the bytes of.
    static var byteSourceNames: [String] { kinds.filter { $0.recordsBytes }.map { $0.name } }

    /// Every kind's options, then those that apply to each source read.
    static var options: [OptionSpec] {
        kinds.flatMap { $0.options } + [
            .flag("--simulated", "Take a receiver's simulator or demo output (GGA quality 8, mode S) as fixes; by default it is no fix."),
        ]
    }

    /// The same for the commands that read several sources at once (`serve`, `watch`): each
    /// option that names a source may be given again.
    static var severalOptions: [OptionSpec] {
        options.map { sourceNames.contains($0.name) ? $0.repeatable() : $0 }
    }

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
    /// with no serial port): accepted silently, it looks as if it worked. Each kind not read
    /// judges its own options.
    static func refuseIdleOptions(_ args: ParsedArguments) throws(UsageError) {
        let named = sourceNames.filter { args[$0] != nil }
        // No source named at all is a receiver found by discovery.
        let reads = named.isEmpty ? [unnamed.name] : named
        for kind in kinds where !reads.contains(kind.name) {
            try kind.refuseIdleOptions(args, reads: reads.sorted())
        }
    }

    /// The manager of the one source `args` names (or of the receiver discovery finds).
    static func manager(_ args: ParsedArguments, defaultSpeed: ReplayManager.Speed, forwardsSentences: Bool = false,
                        waits: Waiting = .never, checked: Bool = false) throws -> any LocationManagerInterface {
        if !checked { try refuseIdleOptions(args) }
        let named = kinds.filter { args[$0.name] != nil }
        guard named.count <= 1 else {
            throw UsageError(message: "\(named.map { $0.name }.joined(separator: " and ")) are different sources: choose one")
        }
        let setting = SourceSetting(defaultSpeed: defaultSpeed, forwardsSentences: forwardsSentences, waits: waits,
                                    acceptsSimulatedFixes: args.has("--simulated"))
        return try (named.first ?? unnamed).anyManager(args, setting)
    }

    /// Whether `manager` replays a pipe or FIFO: a feed that arrives over time, whatever the speed.
    static func isLiveReplay(_ manager: any LocationManagerInterface) -> Bool {
        (manager as? ReplayManager)?.readsLiveInput ?? false
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
