import GPSSystem

/// DEVICES and POLL as the loop sends them: encoded once and shared by every client that
/// asks, until what they list changes, so a request costs the same at any fleet size. Each
/// device's DEVICE object and last TPV and SKY are kept encoded beside it, so a rebuild is a
/// copy of bytes. Rebuilds have a budget: 1% of the loop's time (10 ms a second, 50 ms at
/// once) and 2 MB of new replies a second (8.5 MB at once). Past it the last one is sent again
/// until the budget allows, so a fleet whose vehicles report every second neither makes
/// each ?POLL a rebuild nor has clients hold more than that of distinct answers. A few
/// devices never reach it: their replies are always the newest.
struct ReplyCache {
    /// A reply built, or only measured when it is over the limit.
    struct Built {
        /// Nil when it would be larger than the limit: only its size was added up.
        let line: [UInt8]?
        let size: Int
        /// How many devices it lists.
        let count: Int
        let generation: Int
        /// How long building it took.
        let took: Double
    }

    static let timeShare = 0.01
    static let timeBurst = 0.05
    static let bytesPerSecond = 2_000_000.0
    /// A whole reply of `ServerConfiguration.replyLimit`'s default fits in one go.
    static let bytesBurst = 8_500_000.0

    let limit: Int
    private var devices: Built?
    private var poll: Built?
    private var pathGeneration: Int?
    /// Every device's path by index, and the index of each path, as of the last look.
    private(set) var paths: [String] = []
    private(set) var index: [String: Int] = [:]
    /// What rebuilding may still spend, in seconds and bytes, and when it was last refilled.
    private var timeLeft = timeBurst
    private var bytesLeft = bytesBurst
    private var refilled = -Double.infinity

    init(limit: Int) {
        self.limit = limit
    }

    /// DEVICES now: the cached one unless the list changed and the cached one may be rebuilt.
    mutating func devicesReply(_ server: GpsdServer, now: Double) -> Built {
        if let devices, !mayRebuild(now: now) { return devices }
        guard let fresh = server.listing(after: devices?.generation) else { return devices! }
        let size = Reports.devicesSize(entries: fresh.entries)
        let built = Self.build(size: size, count: fresh.entries.count, generation: fresh.generation, limit: limit) {
            Reports.devices(entries: fresh.entries)
        }
        devices = built
        spend(built)
        return built
    }

    /// POLL now, stamped with the time it was built.
    mutating func pollReply(_ server: GpsdServer, now: Double) -> Built {
        if let poll, !mayRebuild(now: now) { return poll }
        guard let fresh = server.pollSources(after: poll?.generation) else { return poll! }
        let size = Reports.pollSize(tpv: fresh.tpv, sky: fresh.sky)
        let built = Self.build(size: size, count: fresh.active, generation: fresh.generation, limit: limit) {
            Reports.poll(now: Clocks.wallSeconds, active: fresh.active, tpv: fresh.tpv, sky: fresh.sky)
        }
        poll = built
        spend(built)
        return built
    }

    /// The devices' paths, looked up again only when one was added or renamed.
    mutating func refreshPaths(_ server: GpsdServer) {
        guard let fresh = server.paths(after: pathGeneration) else { return }
        pathGeneration = fresh.generation
        paths = fresh.paths
        index = [:]
        for (i, path) in paths.enumerated() where index[path] == nil { index[path] = i }
    }

    /// Whether the budget has anything left (refilling it for the time gone by first).
    private mutating func mayRebuild(now: Double) -> Bool {
        let gone = max(now - refilled, 0)
        refilled = now
        timeLeft = min(Self.timeBurst, timeLeft + gone * Self.timeShare)
        bytesLeft = min(Self.bytesBurst, bytesLeft + gone * Self.bytesPerSecond)
        return timeLeft > 0 && bytesLeft > 0
    }

    private mutating func spend(_ built: Built) {
        timeLeft -= built.took
        bytesLeft -= Double(built.line?.count ?? 0)
    }

    private static func build(size: Int, count: Int, generation: Int, limit: Int, _ encode: () -> [UInt8]) -> Built {
        let started = Clocks.monotonicSeconds
        let line = size <= limit ? encode() : nil
        let ended = Clocks.monotonicSeconds
        return Built(line: line, size: size, count: count, generation: generation, took: ended - started)
    }
}
