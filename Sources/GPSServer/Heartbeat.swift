/// A call the server's loop makes on its own thread about every `interval` for as
/// long as it runs, between its rounds of sockets: a sign of life that stops when the loop
/// stops or hangs, which is what a service manager's watchdog wants to hear.
public struct Heartbeat: Sendable {
    /// How long the loop lets pass between two beats, at least (a round of sockets in hand
    /// finishes first).
    public let interval: Duration
    /// What a beat does, on the loop's thread: it must not block, or the loop waits with it.
    public let beat: @Sendable () -> Void

    /// A heartbeat every `interval`, which must be positive.
    public init(every interval: Duration, _ beat: @escaping @Sendable () -> Void) {
        precondition(interval > .zero, "a heartbeat needs a positive interval")
        self.interval = interval
        self.beat = beat
    }
}
