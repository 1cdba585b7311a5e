/// A call the server's loop makes on its own thread about every `interval` for as
/// long as it runs, between its rounds of sockets: a sign of life that stops when the loop
/// stops or hangs, which is what a service manager's watchdog wants to hear.
public struct Heartbeat: Sendable {
    /// The time between beats, above zero; the loop wakes for a beat even with no socket
    /// ready, so a beat is late by no more than one round of its sockets.
    public let interval: Duration
    /// What each beat does, on the server loop's thread: keep it short (a datagram to the
    /// service manager), as the loop serves no client while it runs.
    public let beat: @Sendable () -> Void

    /// A heartbeat every `interval` (above zero: anything else is a programming error and
    /// stops the process).
    public init(every interval: Duration, _ beat: @escaping @Sendable () -> Void) {
        precondition(interval > .zero, "a heartbeat needs a positive interval")
        self.interval = interval
        self.beat = beat
    }
}
