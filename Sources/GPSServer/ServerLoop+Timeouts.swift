import GPSSystem

/// Clients that hold the server up are closed, by gpsd's rules and one more: watchers that
/// have stopped reading, clients that connect and ask nothing, pollers long silent, and
/// watches that get nothing of what the devices report (`?WATCH={"enable":true}` alone, or a
/// device that sends nothing while others do), so that a slot cannot be squatted.
extension ServerLoop {
    func expire(now: Double) {
        let timeout = config.clientTimeout.inSeconds
        let assignment = config.assignmentTimeout.inSeconds, poller = config.pollerTimeout.inSeconds
        let lastPublished = server.shared.withLock { $0.lastPublished }
        for client in clients where !client.closed {
            if !client.outbox.isEmpty && now - client.outbox.lastProgress > timeout {
                server.peerLog("stuck", "clients disconnected for reading nothing",
                               "client \(client.peer) has read nothing for \(Int(timeout)) s (\(client.outbox.dropped) reports dropped); disconnecting it")
                client.close()
                continue
            }
            if client.kind == .http, !client.httpAnswered, now - client.lastRequest > config.httpRequestTimeout.inSeconds {
                close(client, saying: HTTPResponse.error("408 Request Timeout", "no whole request in \(Int(config.httpRequestTimeout.inSeconds)) s",
                                                         policy: "default-src 'none'", headOnly: false), now: now)
                continue
            }
            guard client.kind == .gpsd else { continue }
            if !client.policy.enable {
                let idle = client.hasAsked ? poller : assignment
                if now - client.lastRequest > idle { timeOut(client, "Timed out: no request for \(Int(idle)) s", now: now) }
            } else if now - client.lastActivity > assignment && lastPublished > client.lastActivity {
                // The devices reported in that time, and none of it was for this watch. A
                // watch that had nothing to get (every device quiet) is not idle by its own doing.
                timeOut(client, "Timed out: this watch has received nothing for \(Int(assignment)) s "
                        + "while the devices reported; ask for \"json\":true, \"nmea\":true or a device that reports", now: now)
                server.peerLog("idle-watch", "watches closed for receiving nothing",
                               "client \(client.peer) watches but has received nothing for \(Int(assignment)) s; disconnecting it")
            }
        }
    }

    private func timeOut(_ client: Client, _ message: String, now: Double) {
        close(client, saying: Reports.error(message), now: now)
    }

    /// Sends `last` as far as the socket takes it at once, and closes the client.
    private func close(_ client: Client, saying last: [UInt8], now: Double) {
        client.send(last, now: now)
        _ = client.outbox.flush(now: now)
        client.close()
    }
}
