/// Messages waiting for the broker, bounded: when full, the oldest goes, so what is delivered
/// after an outage is the newest (a position from a minute ago is worth less than one now),
/// and every message that went is counted.
struct OutboundQueue {
    let capacity: Int
    private var ring: [MQTTMessage?]
    private var head = 0
    private(set) var count = 0
    /// Messages dropped to make room, since the start.
    private(set) var dropped = 0

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        ring = Array(repeating: nil, count: capacity)
    }

    /// Adds `message`; true when the oldest was dropped for it.
    @discardableResult
    mutating func push(_ message: MQTTMessage) -> Bool {
        if count == capacity {
            ring[head] = message
            head = (head + 1) % capacity
            dropped += 1
            return true
        }
        ring[(head + count) % capacity] = message
        count += 1
        return false
    }

    mutating func pop() -> MQTTMessage? {
        guard count > 0 else { return nil }
        defer {
            ring[head] = nil
            head = (head + 1) % capacity
            count -= 1
        }
        return ring[head]
    }
}
