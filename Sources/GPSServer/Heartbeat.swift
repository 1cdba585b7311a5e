/// A call the server's loop makes on its own thread about every `interval` seconds for as
/// long as it runs, between its rounds of sockets: a sign of life that stops when the loop
/// stops or hangs, which is what a service manager's watchdog wants to hear.
public struct Heartbeat: Sendable {
    public let interval: Double
    public let beat: @Sendable () -> Void

    public init(every interval: Double, _ beat: @escaping @Sendable () -> Void) {
        precondition(interval > 0, "a heartbeat needs a positive interval")
        self.interval = interval
        self.beat = beat
    }

    /// A heartbeat every `interval`, as the time span an app names it in.
    public init(every interval: Duration, _ beat: @escaping @Sendable () -> Void) {
        self.init(every: interval.seconds, beat)
    }
}
