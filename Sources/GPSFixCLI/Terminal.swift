import GPSSystem
import GPSMQTT
import GPSOutput

/// Where a command's words go: stdout for results, stderr for messages. Injected so that
/// tests can run commands in-process and read what they printed.
final class Terminal: @unchecked Sendable {
    // Written only from one thread at a time: the main thread before and after a run, the
    // source's thread during it (the main thread waits meanwhile).
    let out: GPSOutputStream
    let errFD: Int32

    init(outFD: Int32 = 1, errFD: Int32 = 2) {
        out = GPSOutputStream(descriptor: FileDescriptor(rawValue: outFD))
        self.errFD = errFD
    }

    func error(_ message: String) {
        out.flush()
        let text = "gpsfix: " + PasswordMasking.masking(message) + "\n"
        try? FileDescriptor(rawValue: errFD).writeAll(text.utf8)
    }

    func print(_ text: String) {
        out.writer.append(text)
        out.flush()
    }

    func note(_ text: String) {
        try? FileDescriptor(rawValue: errFD).writeAll((PasswordMasking.masking(text) + "\n").utf8)
    }
}
