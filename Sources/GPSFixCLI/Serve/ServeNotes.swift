import GPSLocation

/// What `serve` says on stderr of its sources as they go: each change of state, a capture's
/// end (still served), a receiver's notes as they change (TXT: "ANTENNA OPEN"), and, with
/// several sources, one that failed while the others go on.
/// The last feed: it speaks of what the others have already done. (A fleet's news is said by
/// its own feed, held to a rate.)
struct ServeNotes: ServeFeedKind {
    init(_ args: ParsedArguments, _ setting: ServeSetting) {}

    func make(_ context: inout ServeContext) throws -> ServeFeed? {
        guard context.fleet == nil else { return nil }
        return ServeFeed(Feed(note: context.note, servesLastFix: context.runsServer, several: context.several))
    }

    final class Feed: LocationFeed {
        let note: @Sendable (String) -> Void
        let servesLastFix: Bool
        let several: Bool
        /// The receivers' notes, one log for all (each says its source), held to a rate.
        let notes = ReceiverNoteLog()

        init(note: @escaping @Sendable (String) -> Void, servesLastFix: Bool, several: Bool) {
            self.note = note
            self.servesLastFix = servesLastFix
            self.several = several
        }

        func start(_ sources: [RelaySource], control: FeedControl) {}
        func stop() {
            for line in notes.flush() { note("gpsfix: " + line) }
        }

        func take(_ event: LocationEvent, from source: RelaySource) {
            switch event {
            case .status(.finished) where servesLastFix:
                note("gpsfix: \(source.name): capture ended; still serving its last fix (Ctrl-C to stop)")
            case .status(let status):
                if let text = StatusWords.line(status, source: source.name, reception: source.manager.reception) {
                    note("gpsfix: " + text)
                }
            case .note(let receiverNote):
                for line in notes.lines(receiverNote, source: source.name) { note("gpsfix: " + line) }
            case .error(let error) where several:
                // The others are still served; the last one to fail ends the serving.
                note("gpsfix: " + Advice.message(for: error) + " (still serving the other sources)")
            default:
                break
            }
        }
    }
}
