import CGPS
import GPSLocation
import NMEA
import GPSSources
import GPSSystem

/// One run of a `GpsdManager`, on its own thread: connect, read, reconnect, until stopped or
/// failed. Owns the run's libgps reader, which never moves.
final class GpsdSession {
    /// Back-off between attempts to reach gpsd again.
    static let reconnection = Reconnection(first: 0.25, longest: 4.0)
    static let connectTimeout = Duration.seconds(5)
    /// The longest line kept: gpsd's longest report is about 11 kB.
    static let maximumLine = JSONValue.maximumSize
    static let readSize = 16_384

    let manager: GpsdManager
    let reporter: RunReporter
    var run: SourceRuns.Run { reporter.run }
    /// Nil only when out of memory; the run then fails at once.
    let reader: OpaquePointer?
    let maximumSatellites = Int(cgps_max_satellites())
    var lines = LineBuffer(maximumLine: GpsdSession.maximumLine)
    /// The last SKY's count of satellites used: a TPV carries none of its own.
    var satellitesUsed: Int?
    /// The last ATT's attitude, until a TPV carries it out.
    var attitude: Attitude?

    init(manager: GpsdManager, reporter: RunReporter) {
        self.manager = manager
        self.reporter = reporter
        reader = cgps_reader_create()
    }

    deinit { cgps_reader_destroy(reader) }

    enum End {
        case stopped
        case lost(reason: String)
    }

    func main() {
        guard reader != nil, let wakeup = run.wakeup else {
            return reporter.fail(unavailable("out of memory or file descriptors"))
        }
        var connection: TCPConnection
        switch open(wakeup) {
        case .success(let opened):
            connection = opened
        case .failure(.stopped):
            return
        case .failure(let failure):
            let error = unavailable(failure.description)
            guard manager.waitsForGpsd else { return reporter.fail(error) }
            reporter.status(.waiting(reason: error.description))
            guard let opened = connectAgain(wakeup, reporting: nil) else { return }
            connection = opened
        }
        reporter.status(.started)
        var afterGap = false
        while true {
            switch read(connection, wakeup: wakeup, afterGap: afterGap) {
            case .stopped:
                return
            case .lost(let reason):
                reporter.status(.disconnected(reason: reason))
                guard manager.reconnect else { return reporter.fail(unavailable(reason)) }
                guard let opened = connectAgain(wakeup, reporting: reporter) else { return }
                connection = opened
                afterGap = true
            }
        }
    }

    private func unavailable(_ reason: String) -> LocationError {
        .gpsdUnavailable(host: manager.host, port: manager.port, reason: reason)
    }

    /// Connects and asks for reports.
    private func open(_ wakeup: Wakeup) -> Result<TCPConnection, SocketError> {
        do {
            let connection = try TCPConnection.connect(host: manager.host, port: manager.port,
                                                       timeout: Self.connectTimeout, wakeup: wakeup)
            let nmea = manager.forwardsSentences ? ",\"nmea\":true" : ""
            try connection.sendAll(Array("?WATCH={\"enable\":true,\"json\":true\(nmea)};\n".utf8),
                                   timeout: Self.connectTimeout, wakeup: wakeup)
            lines.reset()
            return .success(connection)
        } catch {
            return .failure(error)
        }
    }

    /// Tries again with back-off until connected, or nil when stopped; each attempt is told
    /// through `reporter`, if given.
    private func connectAgain(_ wakeup: Wakeup, reporting reporter: RunReporter?) -> TCPConnection? {
        Self.reconnection.wait(in: run, reporting: reporter) { () -> TCPConnection? in
            try? open(wakeup).get()
        }
    }

    /// Reads lines until gpsd goes away or silent, or the run is stopped.
    private func read(_ connection: TCPConnection, wakeup: Wakeup, afterGap: Bool) -> End {
        var waitingForData = afterGap
        var lastHeard = Clocks.monotonicSeconds
        var buffer = [UInt8](repeating: 0, count: Self.readSize)
        while true {
            if run.isStopped { return .stopped }
            let left = manager.watchdog.inSeconds - (Clocks.monotonicSeconds - lastHeard)
            guard left > 0 else {
                return .lost(reason: "gpsd went silent (nothing usable for \(format(manager.watchdog.inSeconds)) s)")
            }
            let readiness: FileDescriptor.Wait
            do {
                readiness = try connection.waitReadable(within: .seconds(left), wakeup: wakeup)
            } catch {
                return .lost(reason: error.description)
            }
            switch readiness {
            case .woken:
                if run.isStopped { return .stopped }
                wakeup.drain()
                continue
            case .timedOut:
                continue
            case .ready:
                break
            }
            let received = buffer.withUnsafeMutableBytes { raw in Result { () throws(SystemError) in try connection.receive(into: raw) } }
            let count: Int
            switch received {
            case .success(.processed(let n)): count = n
            case .success(.wouldBlock): continue
            case .failure(let error): return .lost(reason: "gpsd's connection failed: \(error)")
            }
            guard count > 0 else { return .lost(reason: "gpsd closed the connection") }
            let overlongBefore = lines.overlong
            buffer.withUnsafeBytes { raw in
                lines.append(UnsafeRawBufferPointer(rebasing: raw[0..<count])) { line in
                    guard take(line, waitingForData: &waitingForData) else {
                        manager.rejected.add(1, ordering: .relaxed)
                        return
                    }
                    lastHeard = Clocks.monotonicSeconds
                }
            }
            if lines.overlong > overlongBefore { manager.rejected.add(lines.overlong - overlongBefore, ordering: .relaxed) }
            if run.isStopped { return .stopped }
        }
    }

    /// Hands on what one line brought; false when it was no gpsd line at all.
    private func take(_ line: ArraySlice<UInt8>, waitingForData: inout Bool) -> Bool {
        switch GpsdLine.judge(line, maximumSatellites: maximumSatellites) {
        case .rejected:
            return false
        case .other:
            return true
        case .sentence(let sentence):
            if manager.forwardsSentences {
                reporter.notify { $0.locationManager(manager, didReceiveSentence: sentence) }
            }
            return true
        case .report(let kind, let text):
            guard let reader, text.withCString({ cgps_reader_unpack(reader, $0) }) else { return false }
            switch kind {
            case .tpv:
                guard var fix = GpsdFields.fix(reader) else { return true }
                if fix.hasFix { fix.satellitesUsed = satellitesUsed }
                // A heading sensor's ATT goes out in the next fix, as the engine puts a cycle's
                // HDT in that cycle's: gpsd writes its ATT apart, beside its TPV.
                if let attitude {
                    fix.attitude = attitude
                    self.attitude = nil
                }
                streaming(&waitingForData)
                reporter.notify { $0.locationManager(manager, didUpdateFix: fix) }
            case .att:
                attitude = GpsdFields.attitude(reader) ?? attitude
            case .sky:
                let sky = GpsdFields.sky(reader)
                satellitesUsed = sky.satellites.isEmpty ? nil : sky.satellitesUsed
                streaming(&waitingForData)
                reporter.notify { $0.locationManager(manager, didUpdateSkyView: sky) }
            }
            return true
        }
    }

    /// Streaming again once positions or satellites flow, not at gpsd's greeting.
    private func streaming(_ waitingForData: inout Bool) {
        guard waitingForData else { return }
        waitingForData = false
        reporter.status(.streaming)
    }

    private func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
