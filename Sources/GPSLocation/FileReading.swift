import Glibc
import GPSSystem

/// Reads a whole file, mapping errno to errors a person can act on.
public func readWholeFile(_ path: String) throws(LocationError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw fileError(path, errno) }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { throw fileError(path, errno) }
    if (st.st_mode & S_IFMT) == S_IFDIR { throw .fileUnreadable(path: path, reason: "it is a directory") }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(max(Int(st.st_size), 0))
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { buffer in
            Result { () throws(SystemError) in try retryingInterrupts { read(fd, buffer.baseAddress, buffer.count) } }
        }
        guard case .success(let n) = n else {
            if case .failure(let error) = n { throw fileError(path, error.rawValue) }
            break
        }
        if n == 0 { break }
        bytes.append(contentsOf: chunk[0..<n])
    }
    return bytes
}

func fileError(_ path: String, _ code: Int32) -> LocationError {
    LocationError(reading: path, errno: code)
}

extension LocationError {
    /// What a failed `open`, `stat` or `read` of `path` means to a person: missing, not theirs
    /// to read, or the system's own words for the rest.
    public init(reading path: String, errno code: Int32) {
        switch code {
        case ENOENT, ENOTDIR: self = .fileNotFound(path: path)
        case EACCES, EPERM: self = .permissionDenied(path: path, group: nil)
        default: self = .fileUnreadable(path: path, reason: String(cString: strerror(code)))
        }
    }
}
