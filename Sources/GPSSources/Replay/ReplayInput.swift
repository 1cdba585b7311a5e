import GPSSystem
import NMEA
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
    private let fileDescriptor: FileDescriptor
    /// Whether it can be read again from the start: a regular file, opened by path or
    /// redirected to standard input.
    let isRegularFile: Bool
    /// Where its first pass began (standard input may have been read from before).
    private let start: Int64
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
            return try ReplayInput(name: name, descriptor: .standardInput, owns: false)
        }
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, .readOnly, options: .nonBlocking)
        } catch {
            throw LocationError(reading: name, error)
        }
        do {
            return try ReplayInput(name: name, descriptor: fd, owns: true)
        } catch {
            fd.close()
            throw error
        }
    }

    /// Whether `path` is read once, as it arrives (a pipe, a FIFO, a terminal), rather than
    /// being a file that can be read again. False for what cannot be looked at (it fails
    /// when opened, with the reason).
    static func isLive(_ path: String) -> Bool {
        let status = path == standardInputPath ? try? FileDescriptor.standardInput.status() : try? FileStatus(path: path)
        guard let kind = status?.kind else { return false }
        return kind != .regular && kind != .directory
    }

    private init(name: String, descriptor: FileDescriptor, owns: Bool) throws(LocationError) {
        let status: FileStatus
        do {
            status = try descriptor.status()
        } catch {
            throw LocationError(reading: name, error)
        }
        if status.kind == .directory { throw .fileUnreadable(path: name, reason: "it is a directory") }
        isRegularFile = status.kind == .regular
        // A regular standard input may start part-way (a shell read a line of it first):
        // a loop goes back there, not to the file's first byte.
        start = isRegularFile ? max((try? descriptor.offset()) ?? 0, 0) : 0
        self.name = name
        fileDescriptor = descriptor
        ownsDescriptor = owns
    }

    deinit {
        if ownsDescriptor { fileDescriptor.close() }
    }

    /// Waited on only when live: a regular file is always readable.
    var descriptor: FileDescriptor? { isRegularFile ? nil : fileDescriptor }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamRead {
        let count: Int
        do {
            // Nothing: another reader of the same pipe was quicker.
            guard case .processed(let read) = try fileDescriptor.read(into: buffer) else { return .nothing }
            count = read
        } catch {
            return .failed(LocationError(reading: name, error))
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
        do {
            try fileDescriptor.seek(to: start)
        } catch {
            throw LocationError(reading: name, error)
        }
        header = CaptureHeaderSkipper()
    }
}
