import GPSLocation
import GPSServer

/// `serve` under systemd (`NOTIFY_SOCKET` set): the `ServiceManagerLink` as a feed. Its
/// watchdog pings come from the server's loop, so it is made only when a server runs (and
/// before it, which takes its heartbeat); a fleet's statuses name the vehicle.
struct ServiceManagerFeedKind: ServeFeedKind {
    init(_ args: ParsedArguments, _ setting: ServeSetting) {}

    func make(_ context: inout ServeContext) throws -> ServeFeed? {
        guard context.runsServer, let notifier = context.notifier else { return nil }
        var naming: (@Sendable (RelaySource) -> String)?
        if let fleet = context.fleet {
            naming = { source in
                // Read while the reader delivers: whose this event is.
                fleet.labelOfEventInHand.map { "\(fleet.sourceDescription) \(PeerText.display($0))" } ?? fleet.sourceDescription
            }
        }
        let note = context.note
        let link = ServiceManagerLink(notifier: notifier, describe: { ServiceStatus.after($0, source: $1, reception: $2) },
                                      naming: naming, log: { note("gpsfix: serve: " + $0) })
        context.heartbeat = Heartbeat(every: link.beatInterval) { link.beat() }
        return ServeFeed(link)
    }
}
