import GPSSystem
import NMEA
import Glibc
import GPSLocation

/// Where a replay's bytes come from: a capture file, a FIFO, or standard input (`-`).
///
/// A regular file is read straight through and can be read again from the start (`--loop`).
/// Anything else (a pipe, a FIFO, a terminal) is live: bytes come when the writer sends them,
/// so each read first waits in `poll` beside the run's wake-up pipe, and a stop ends the wait
/// at once. Only the thread of one run uses an input.
final class ReplayInput {
    /// The path that names standard input, as `cat -` has it.
    static let standardInputPath = "-"

    /// What messages call it: the path, or "standard input".
    let name: String
    let descriptor: Int32
    /// Whether it can be read again from the start: a regular file, opened by path or
    /// redirected to standard input.
    let isRegularFile: Bool
    /// Where its first pass began (standard input may have been read from before).
    private let start: off_t
    /// Standard input is the process's; a file opened here is closed here.
    private let ownsDescriptor: Bool
    private var fds = [pollfd(), pollfd()]

    /// What one read gave.
    enum Read: Equatable {
        case bytes(Int)
        /// The end of the file, or the writer closed the pipe.
        case end
        /// The run was stopped while the read waited.
        case stopped
    }

    /// What messages call `path`.
    static func name(of path: String) -> String {
        path == standardInputPath ? "standard input" : path
    }

    /// Opens `path` (`-`: standard input) for a replay. Waits for nothing: a FIFO without a
    /// writer yet opens at once, and its first read waits for one, where a stop can reach it.
    static func open(_ path: String) throws(LocationError) -> ReplayInput {
        let name = name(of: path)
        if path == standardInputPath {
            return try ReplayInput(name: name, descriptor: STDIN_FILENO, owns: false)
        }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw LocationError(reading: name, errno: errno) }
        do {
            return try ReplayInput(name: name, descriptor: fd, owns: true)
        } catch {
            close(fd)
            throw error
        }
    }

    /// Whether `path` is read once, as it arrives (a pipe, a FIFO, a terminal), rather than
    /// being a file that can be read again. False for what cannot be looked at (it fails
    /// when opened, with the reason).
    static func isLive(_ path: String) -> Bool {
        var st = stat()
        let looked = path == standardInputPath ? fstat(STDIN_FILENO, &st) : stat(path, &st)
        guard looked == 0 else { return false }
        let kind = st.st_mode & S_IFMT
        return kind != S_IFREG && kind != S_IFDIR
    }

    private init(name: String, descriptor: Int32, owns: Bool) throws(LocationError) {
        var st = stat()
        guard fstat(descriptor, &st) == 0 else { throw LocationError(reading: name, errno: errno) }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw .fileUnreadable(path: name, reason: "it is a directory") }
        isRegularFile = (st.st_mode & S_IFMT) == S_IFREG
        // A regular standard input may start part-way (a shell read a line of it first):
        // a loop goes back there, not to the file's first byte.
        start = isRegularFile ? max(lseek(descriptor, 0, SEEK_CUR), 0) : 0
        self.name = name
        self.descriptor = descriptor
        ownsDescriptor = owns
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Reads the next bytes into `buffer`: at once from a regular file; from anything else,
    /// once some arrive, or `.stopped` as soon as `wakeup` is signalled.
    func read(into buffer: UnsafeMutableRawBufferPointer, wakeup: Wakeup) throws(LocationError) -> Read {
        guard !isRegularFile else { return try readNow(into: buffer) ?? .end }
        while true {
            fds[0] = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            fds[1] = pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)
            do {
                _ = try retryingInterrupts { poll(&fds, 2, -1) }
            } catch {
                throw .fileUnreadable(path: name, reason: "poll failed: \(error)")
            }
            if fds[1].revents != 0 { return .stopped }
            // Readable, hung up or in error: the read says which. POLLHUP with data still
            // buffered reads the data first, then 0.
            if fds[0].revents != 0, let read = try readNow(into: buffer) { return read }
        }
    }

    /// One `read`: nil when a non-blocking descriptor has nothing after all (another reader
    /// of the same pipe was quicker).
    private func readNow(into buffer: UnsafeMutableRawBufferPointer) throws(LocationError) -> Read? {
        do {
            let count = try retryingInterrupts { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
            return count == 0 ? .end : .bytes(count)
        } catch where error == .wouldBlock {
            return nil
        } catch {
            throw LocationError(reading: name, errno: error.rawValue)
        }
    }

    /// Goes back to where the first pass began, for the next pass of a loop.
    func rewind() throws(LocationError) {
        precondition(isRegularFile, "only a regular file can be read again")
        guard lseek(descriptor, start, SEEK_SET) >= 0 else { throw LocationError(reading: name, errno: errno) }
    }
}
