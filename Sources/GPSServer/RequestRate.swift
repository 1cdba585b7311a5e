/// How often one client may have the fleet listed (a token bucket): `burst` answers at once,
/// then `rate` a second. A listing is cached and cheap to queue, but it can be megabytes
/// that a nine-byte `?DEVICES;` asks for, and the client decides how often.
struct RequestRate {
    let rate: Double
    let burst: Double
    private var tokens: Double
    private var last: Double
    /// Requests refused since the last one answered: only the first is told why.
    private(set) var refusedInARow = 0

    init(rate: Double, burst: Int, now: Double) {
        self.rate = max(rate, 0)
        self.burst = Double(max(burst, 1))
        tokens = self.burst
        last = now
    }

    /// Whether one more may be answered now (and counts it if so).
    mutating func take(now: Double) -> Bool {
        tokens = min(burst, tokens + max(now - last, 0) * rate)
        last = now
        guard tokens >= 1 else {
            refusedInARow += 1
            return false
        }
        tokens -= 1
        refusedInARow = 0
        return true
    }
}
