import Dispatch
import GPSSystem
import GPSLocation
import GPSSources
import Synchronization

/// `gpsfix record FILE`: a receiver's bytes, exactly as read, into a gpsfake-format capture.
/// `gpsfix record --gpx FILE`: any source's fixes, as a GPX track.
struct RecordCommand {
    let args: ParsedArguments
    let terminal: Terminal

    func run() throws -> Int32 {
        if let (format, path) = OutputFormat.forFile(args) {
            guard args.positionals.isEmpty else {
                throw UsageError(message: "record writes one file: FILE for a raw capture, or --gpx FILE for a GPX track, not both")
            }
            return try record(format, into: path)
        }
        guard let file = args.positionals.first else {
            throw UsageError(message: "name the file to record into: FILE for a raw capture, or --gpx FILE for a GPX track")
        }
        // A raw capture is a receiver's own bytes: gpsd and a replay have none to give.
        // Each source kind says whether it has bytes to keep (`SourceOptionKind.recordsBytes`).
        for option in SourceOptions.fixesOnlyOptions where args[option] != nil || args.has(option) {
            throw UsageError(message: "\(option) needs --gpx: a raw capture records a receiver's bytes (\(SourceOptions.byteSourceNames.joined(separator: " or "))); 'record --gpx FILE \(option) …' records any source's fixes as a track")
        }
        var fields: [(key: String, value: String)] = [("Name", "gpsfix record")]
        let manager: any RawByteSource
        if args["--nmea-tcp"] != nil {
            let network = try NMEATCPSourceOptions.networkStream(args)
            if !args.has("--force") && FileSystem.exists(file) { throw LocationError.fileExists(path: file) }
            // Not tried before the file is made, as a port is: a peer that serves one client
            // (socat without fork, many phone apps) would spend itself on the try. A stream
            // that never connects leaves no file behind (below).
            fields.append(("Source", "tcp://" + network.sourceDescription))
            manager = network
        } else {
            let serial = try SerialSourceOptions.serial(args)
            // The file is made last: a port that cannot be read (not a tty, missing, busy) used
            // to leave a header-only file behind, which the next try then refused to overwrite.
            if !args.has("--force") && FileSystem.exists(file) { throw LocationError.fileExists(path: file) }
            try serial.checkPort()
            let device = DeviceDiscovery.device(at: serial.path)
            fields.append(("Device", serial.path))
            if let byID = device?.byID { fields.append(("By-ID", byID)) }
            if let id = device?.usbID { fields.append(("USB", id + (device?.knownGPS.map { " " + $0.name } ?? ""))) }
            fields.append(("Baud", args["--baud"] ?? (device?.isCDCACM == true ? "USB CDC-ACM (none)" : "automatic")))
            manager = serial
        }
        fields.append(("Date", utcNow()))
        fields.append(("Program", "gpsfix \(GPSFixCLI.version)"))
        let writer = try CaptureWriter(path: file, header: CaptureHeader(fields: fields), overwrite: args.has("--force"))
        let failure = Mutex<LocationError?>(nil)
        let sourceRun = SourceRun(LocationService(manager: manager))
        manager.onBytes = { bytes in
            do throws(LocationError) {
                try writer.write(bytes)
            } catch {
                // The disk is full or gone: end the run now, not at the source's next event,
                // which a receiver speaking a binary protocol never causes.
                let first = failure.withLock { f in defer { f = f ?? error }; return f == nil }
                if first { sourceRun.end() }
            }
        }
        let path = manager.sourceDescription
        let note = UncheckedBox(terminal)
        sourceRun.armInterrupts()
        terminal.note("gpsfix: recording \(path) into \(file); Ctrl-C to stop")
        let notes = ReceiverNoteLog()
        let (end, _) = sourceRun.run { event in
            if case .status(let status) = event, let text = StatusWords.line(status, source: path, reception: manager.reception) {
                note.value.note("gpsfix: " + text)
            }
            if case .note(let receiverNote) = event {
                for line in notes.lines(receiverNote, source: path) { note.value.note("gpsfix: " + line) }
            }
        }
        for line in notes.flush() { terminal.note("gpsfix: " + line) }
        sourceRun.service.stop()
        writer.close()
        if case .error(let error)? = end, writer.bytesWritten == 0 {
            // Failed before a byte was kept (a rate never found, a port gone at once): a file
            // of header only would just stand in the way of the next try.
            try? FileSystem.remove(file)
            throw error
        }
        terminal.note("gpsfix: \(writer.bytesWritten) bytes recorded in \(file)")
        if let error = failure.withLock({ $0 }) { throw error }
        if case .error(let error)? = end { throw error }
        return 0
    }
}

extension RecordCommand {
    /// `record --gpx FILE`: each point on disk as it comes; the document closed at the end of a
    /// replay, on Ctrl-C or SIGTERM, or when the source fails.
    private func record(_ format: OutputFormat, into file: String) throws -> Int32 {
        let speed = try SourceOptions.speed(args, default: .factor(1))
        let manager = try SourceOptions.manager(args, defaultSpeed: speed)
        let source = manager.sourceDescription
        guard let makeFile = format.makeFile else { preconditionFailure("\(format.title) is not kept in files") }
        let writer = try makeFile(file, source, args.has("--force"))
        let service = LocationService(manager: manager)
        let failure = Mutex<LocationError?>(nil)
        let note = UncheckedBox(terminal)
        let run = SourceRun(service)
        run.armInterrupts()
        terminal.note("gpsfix: recording \(source) as \(writer.kind) into \(file); Ctrl-C to stop")
        let notes = ReceiverNoteLog()
        let (end, _) = run.run { event in
            if case .status(let status) = event, let text = StatusWords.line(status, source: source, reception: manager.reception) {
                note.value.note("gpsfix: " + text)
            }
            if case .note(let receiverNote) = event {
                for line in notes.lines(receiverNote, source: source) { note.value.note("gpsfix: " + line) }
            }
            do throws(LocationError) {
                try writer.write(event)
            } catch {
                // The disk is full or gone: nothing more can be kept, so stop.
                failure.withLock { $0 = $0 ?? error }
                service.stop()
            }
        }
        for line in notes.flush() { terminal.note("gpsfix: " + line) }
        if case .error? = end, writer.isEmpty {
            writer.discard()
        } else {
            do throws(LocationError) {
                try writer.finish()
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
            terminal.note("gpsfix: \(writer.contents) recorded in \(file)")
        }
        if let error = failure.withLock({ $0 }) { throw error }
        if case .error(let error)? = end { throw error }
        return 0
    }
}

/// `2026-11-30T06:10:00Z`, for capture headers.
func utcNow() -> String {
    CalendarTime.utc(Clocks.wallSeconds).iso8601UTC
}
