import GPSSystem
import NMEA
import GPSLocation

extension ReplayManager {
    /// How one pass over the input ended.
    enum PassEnd {
        case finished(Statistics)
        case stopped
        case failed(LocationError)
    }

    /// One pass over `input`, from where it stands to its end: read a chunk at a time into
    /// `buffer`, past the capture's header, through a fresh engine, to `delegate`.
    func replayPass(_ input: ReplayInput, buffer: UnsafeMutableRawBufferPointer, wakeup: Wakeup, run: Run,
                    delegate: any LocationManagerDelegate) -> PassEnd {
        let parser = NMEAParser(acceptsSimulatedFixes: acceptsSimulatedFixes)
        if forwardsSentences {
            parser.onSentence = { [self] sentence, _ in
                delegate.locationManager(self, didReceiveSentence: String(decoding: sentence.line, as: UTF8.self))
            }
        }
        var pacer = Pacer(speed: speed)
        // Paced, the engine is fed a line at a time: the counts are copied once an epoch then.
        var reported = false
        let emit: (EngineEvent) -> Void = { [self] event in
            reported = true
            switch event {
            case .fix(let fix):
                if let wait = pacer.delay(until: fix.timestamp), wait > 0 {
                    _ = wakeup.sleep(wait)
                }
                guard !run.isStopped else { return }
                delegate.locationManager(self, didUpdateFix: fix)
            case .sky(let sky):
                guard !run.isStopped else { return }
                delegate.locationManager(self, didUpdateSkyView: sky)
            }
        }
        var header = CaptureHeaderSkipper()
        reading: while true {
            if run.isStopped { return .stopped }
            let read: ReplayInput.Read
            do {
                read = try input.read(into: buffer, wakeup: wakeup)
            } catch {
                // The epoch in progress is all there will be of it.
                parser.finish(emit: emit)
                return run.isStopped ? .stopped : .failed(error)
            }
            switch read {
            case .stopped:
                return .stopped
            case .end:
                break reading
            case .bytes(let count):
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                let body = UnsafeRawBufferPointer(rebasing: chunk[header.bodyStart(in: chunk)...])
                if speed == .maximum {
                    // Unpaced: the whole chunk at once, the engine's best case.
                    parser.parse(body, emit: emit)
                    counted.update(from: parser)
                    continue
                }
                // Paced: a line at a time, so the pause falls between the sentences it belongs
                // between. A line cut by the chunk's end is fed in two parts; the engine keeps
                // the first until the second comes.
                var offset = 0
                while offset < body.count {
                    if run.isStopped { return .stopped }
                    let end = lineEnd(body, from: offset)
                    parser.parse(UnsafeRawBufferPointer(rebasing: body[offset..<end]), emit: emit)
                    if reported {
                        counted.update(from: parser)
                        reported = false
                    }
                    offset = end
                }
            }
        }
        if run.isStopped { return .stopped }
        parser.finish(emit: emit)
        counted.update(from: parser)
        return run.isStopped ? .stopped : .finished(parser.statistics)
    }

    /// Just past the next `\n` from `start`, or the end of `bytes`.
    private func lineEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var i = start
        while i < bytes.count {
            if bytes[i] == 0x0A { return i + 1 }
            i += 1
        }
        return bytes.count
    }
}
