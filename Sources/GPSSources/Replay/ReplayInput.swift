import GPSSystem
import NMEA
import Glibc
import GPSLocation

/// Where a replay's bytes come from, as a byte stream: a capture file, a FIFO, or standard
/// input (`-`), past the capture's `#` header.
///
/// A regular file is read straight through and can be read again from the start (`--loop`).
/// Anything else (a pipe, a FIFO, a terminal) is live: bytes come when the writer sends them,
/// so its reader waits in `poll` first, where a stop reaches it. Only the thread of one run
/// uses an input.
final class ReplayInput: ByteStream {
    /// The path that names standard input, as `cat -` has it.
    static let standardInputPath = "-"

    /// What messages call it: the path, or "standard input".
    let name: String
    private let fileDescriptor: Int32
    /// Whether it can be read again from the start: a regular file, opened by path or
    /// redirected to standard input.
    let isRegularFile: Bool
    /// Where its first pass began (standard input may have been read from before).
    private let start: off_t
    /// Standard input is the process's; a file opened here is closed here.
    private let ownsDescriptor: Bool
    private var header = CaptureHeaderSkipper()

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
        fileDescriptor = descriptor
        ownsDescriptor = owns
    }

    deinit {
        if ownsDescriptor { close(fileDescriptor) }
    }

    /// Waited on only when live: a regular file is always readable.
    var descriptor: Int32? { isRegularFile ? nil : fileDescriptor }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamRead {
        let count: Int
        do {
            count = try retryingInterrupts { Glibc.read(fileDescriptor, buffer.baseAddress, buffer.count) }
        } catch where error == .wouldBlock {
            // Another reader of the same pipe was quicker.
            return .nothing
        } catch {
            return .failed(LocationError(reading: name, errno: error.rawValue))
        }
        guard count > 0 else { return .end(reason: nil) }
        let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
        let body = UnsafeRawBufferPointer(rebasing: chunk[header.bodyStart(in: chunk)...])
        // Even when it is all header: what was read is not a spurious wake-up.
        return .bytes(body)
    }

    /// Goes back to where the first pass began, for the next pass of a loop.
    func rewind() throws(LocationError) {
        precondition(isRegularFile, "only a regular file can be read again")
        guard lseek(fileDescriptor, start, SEEK_SET) >= 0 else { throw LocationError(reading: name, errno: errno) }
        header = CaptureHeaderSkipper()
    }
}
